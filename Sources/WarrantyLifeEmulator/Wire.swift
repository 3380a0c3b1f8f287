import EmulatorCore
import Foundation
import HTTPServer

/// A request body as WarrantyLife's clients send it: a JSON object or a form, read field by field
/// so a wrong type is a 400 naming the field (unknown fields are kept, never rejected, D-WL-06).
struct WireBody: Sendable {
    /// The members.
    var fields: [String: JSONValue]

    /// A JSON object body; anything else is a 400.
    static func object(_ request: Request) throws(WarrantyLifeError) -> WireBody {
        guard !request.body.isEmpty else { throw .validation("The request body is empty; a JSON object was expected.") }
        let value = try json(request.body, what: "The request body")
        guard case .object(let fields) = value else { throw .notAnObject }
        return WireBody(fields: fields)
    }

    /// `data` parsed as JSON: text that is not UTF-8 or not JSON is a 400 saying which `what` was
    /// wrong (checked apart, so the message can say it was the encoding).
    static func json(_ data: Data, what: String) throws(WarrantyLifeError) -> JSONValue {
        guard String(validating: data, as: UTF8.self) != nil else { throw .validation("\(what) is not valid UTF-8.") }
        // The parser's own error text names positions, not fields; the 400 says what was wrong instead.
        guard let value = try? JSONValue.parse(data) else { throw .validation("\(what) is not valid JSON.") }
        return value
    }

    /// A JSON object or an `application/x-www-form-urlencoded` body (login, registration, recovery).
    static func objectOrForm(_ request: Request) throws(WarrantyLifeError) -> WireBody {
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        let first = request.body.first { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }
        if contentType.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try object(request) }
        var fields: [String: JSONValue] = [:]
        for (name, value) in URLQuery.parse(String(decoding: request.body, as: UTF8.self)) { fields[name] = .string(value) }
        return WireBody(fields: fields)
    }

    /// An optional string; a number is accepted as its text (ids arrive both ways).
    func string(_ name: String) throws(WarrantyLifeError) -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let value? where Self.wholeNumber(value) != nil: return String(Self.wholeNumber(value) ?? 0)
        default: throw .validation("Field `\(name)` must be a string.")
        }
    }

    /// A required string with something besides white space.
    func requiredString(_ name: String) throws(WarrantyLifeError) -> String {
        guard let value = try string(name), !Self.isBlank(value) else { throw .missingField(name) }
        return value
    }

    /// White space as the OpenAPI document's `\S` patterns mean it (the code points a Unicode
    /// regex's `\s` matches), so "blank" is the same thing for the server and for the document.
    static let whiteSpace: Set<Unicode.Scalar> = Set(
        ([
            0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029,
            0x202F, 0x205F, 0x3000,
        ] + Array(0x2000...0x200A)).compactMap(Unicode.Scalar.init))

    /// Whether `text` is empty or white space only.
    static func isBlank(_ text: String) -> Bool { text.unicodeScalars.allSatisfy(whiteSpace.contains) }

    /// `text` without white space (in the sense of `whiteSpace`) at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !whiteSpace.contains($0) }), let last = scalars.lastIndex(where: { !whiteSpace.contains($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// An optional integer; a form's digit string is accepted.
    func int(_ name: String) throws(WarrantyLifeError) -> Int? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let text)? where Int64(text) != nil:
            // Digits from a form: the same bound as a JSON number.
            guard let number = Int64(text).flatMap({ Self.wholeNumber(.int($0)) }) else { throw .validation("Field `\(name)` must be an integer.") }
            return number
        case .string("")?: return nil
        case let value?:
            guard let number = Self.wholeNumber(value) else { throw .validation("Field `\(name)` must be an integer.") }
            return number
        }
    }

    /// Largest magnitude of a whole number in a body: below 9e15 a double still holds it exactly,
    /// so `5` and `5.0` read alike, and the document's bounds say the same.
    static let wholeNumberLimit = 9_000_000_000_000_000

    /// A JSON number that is whole and below `wholeNumberLimit` in magnitude, as an `Int`.
    static func wholeNumber(_ value: JSONValue) -> Int? {
        switch value {
        // `magnitude`, not `abs`: `abs(Int64.min)` traps, and any client can send -9223372036854775808.
        case .int(let number) where number.magnitude < UInt64(wholeNumberLimit): return Int(number)
        case .double(let number) where number.magnitude < Double(wholeNumberLimit): return number.roundedInt().flatMap { Double($0) == number ? $0 : nil }
        default: return nil
        }
    }

    /// An optional number.
    func double(_ name: String) throws(WarrantyLifeError) -> Double? {
        switch fields[name] {
        case nil, .null?: return nil
        case let value?:
            guard let number = value.doubleValue else { throw .validation("Field `\(name)` must be a number.") }
            return number
        }
    }

    /// An optional boolean (`"true"`/`"false"` from forms too).
    func bool(_ name: String) throws(WarrantyLifeError) -> Bool? {
        switch fields[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case .string("true")?, .string("1")?: return true
        case .string("false")?, .string("0")?: return false
        default: throw .validation("Field `\(name)` must be a boolean.")
        }
    }

    /// The whole body as JSON.
    var json: JSONValue { .object(fields) }
}

/// Success envelopes (D-WL-04).
enum WireEnvelope {
    /// `{"data": payload}`, or the bare payload when configured for 2022-era clients.
    static func ok(_ payload: JSONValue, status: Int = 200, bare: Bool = false) -> Response {
        .json(status: status, bytes: (bare ? payload : JSONValue.object(["data": payload])).encoded())
    }
}

/// Query parameters of a request, with typed reads that fail as WarrantyLife 400s.
struct WireQuery: Sendable {
    /// The query items in order.
    let items: [(name: String, value: String)]

    /// The query of `request`.
    init(_ request: Request) { items = request.queryItems }

    /// A parameter's value; an empty value counts as absent.
    func string(_ name: String) -> String? {
        guard let value = items.first(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// A required parameter.
    func requiredString(_ name: String) throws(WarrantyLifeError) -> String {
        guard let value = string(name) else { throw .missingQuery(name) }
        return value
    }

    /// A boolean parameter (`true`/`1`/`yes`, `false`/`0`/`no`).
    func bool(_ name: String) throws(WarrantyLifeError) -> Bool? {
        guard let value = string(name) else { return nil }
        switch value.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .badQuery(name, "true or false")
        }
    }

    /// A non-negative integer parameter.
    func int(_ name: String) throws(WarrantyLifeError) -> Int? {
        guard let value = string(name) else { return nil }
        guard let number = Int(value), number >= 0 else { throw .badQuery(name, "a non-negative integer") } // checked: Int(String) is nil outside Int's range
        return number
    }
}

/// User credentials of a K+U route: `Authorization: Basic base64(identity:token)` or `Bearer token`.
struct UserCredentials: Sendable, Equatable {
    /// The e-mail or user id before the `:` of Basic; nil for Bearer.
    var identity: String?
    /// The account's token.
    var token: String

    /// The credentials `request` carries; nil when it has none or they are malformed.
    init?(_ request: Request) {
        if let token = request.bearerToken {
            self.identity = nil
            self.token = token
            return
        }
        guard let header = request.headers["authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        let value = parts[1].trimmingWhitespace()
        guard let data = Data(base64Encoded: value), let text = String(data: data, encoding: .utf8), let colon = Self.lastColon(text) else { return nil }
        identity = String(text[..<colon])
        token = String(text[text.index(after: colon)...])
        if token.isEmpty { return nil }
    }

    /// The credential kinds they are handed on as: the token, and the Basic identity when sent.
    static let tokenKind = "userToken", identityKind = "userIdentity"

    /// As `WarrantyLifePlatform.presentedCredentials` hands them to the core (never looked up
    /// there: they name no project by themselves, the developer key does).
    var presented: [PresentedCredential] {
        let authorization = PresentedCredential.Carrier.header("Authorization")
        return [PresentedCredential(kind: Self.tokenKind, value: token, carrier: authorization, namesProject: false)]
            + (identity.map { [PresentedCredential(kind: Self.identityKind, value: $0, carrier: authorization, namesProject: false)] } ?? [])
    }

    /// The credentials the core read from the request (see `presented`); nil when it carried none.
    init?(presentedIn context: EmulatorContext) {
        guard let token = context.presented(Self.tokenKind) else { return nil }
        self.token = token
        self.identity = context.presented(Self.identityKind)
    }

    /// Whether the Basic identity, when sent, is `account`'s e-mail (any case) or id.
    func names(_ account: UserRecord) -> Bool {
        identity.map { $0.equalsIgnoringCase(account.email) || $0 == account.id } ?? true
    }

    /// Where the last `:` is: by bytes in ASCII text (Character search cost ~1.5 µs of every
    /// request with Basic credentials), by Characters otherwise, where a combining mark can make
    /// a colon part of another character.
    private static func lastColon(_ text: String) -> String.Index? {
        text.utf8.contains { $0 >= 0x80 } ? text.lastIndex(of: ":") : text.utf8.lastIndex(of: UInt8(ascii: ":"))
    }
}
