import Foundation
import HTTPServer

/// Why a request body could not be decoded; routes turn it into their platform's 4xx.
public struct BodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Suggested status (400 malformed or wrong type, 415 wrong content type, 422 unknown keys).
    public let status: Int
    /// Machine-readable reason: `invalid_json`, `wrong_type`, `missing_field`, `unknown_field`, `empty_body`.
    public let code: String
    /// The offending field path, dotted (`items.0.name`), when known.
    public let field: String?
    /// A sentence for the developer reading the test failure.
    public let message: String

    /// Creates an error.
    public init(status: Int = 400, code: String, field: String? = nil, message: String) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
    }

    /// The message (never the struct's fields).
    public var description: String { message }
}

/// Strict JSON decoding of request bodies with messages that name the field.
public enum JSONBody {
    /// Decodes `T` from `data`. With `rejectUnknownKeys`, keys that `T` does not know are an
    /// error (control-plane bodies, where a typo should fail loudly rather than be ignored).
    public static func decode<T: Codable>(_ type: T.Type, from data: Data, rejectUnknownKeys: Bool = false) throws(BodyError) -> T {
        if data.isEmpty || data.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) {
            throw BodyError(code: "empty_body", message: "The request body is empty; a JSON document was expected.")
        }
        let raw: JSONValue
        do {
            raw = try JSONValue.parse(data)
        } catch {
            // The parser's reason says which rule broke (invalid UTF-8 in a string, a trailing comma).
            throw BodyError(code: "invalid_json", message: "The request body is not valid JSON (\(error)).")
        }
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw BodyError(code: "invalid_json", message: "The request body could not be decoded.")
        }
        if rejectUnknownKeys, let encoded = try? JSONValue.from(value), let unknown = firstUnknownKey(T.self, raw, known: encoded) {
            throw BodyError(status: 400, code: "unknown_field", field: unknown, message: "Unknown field `\(unknown)`.")
        }
        return value
    }

    /// The first key of `raw` that `T` does not read, dotted. Keys absent from `known` (the decoded
    /// value encoded again) are unknown, except for explicit nulls: an optional field that is nil
    /// encodes as absent too, so each such null is probed (see `isRead`).
    private static func firstUnknownKey<T: Codable>(_ type: T.Type, _ raw: JSONValue, known: JSONValue) -> String? {
        var nulls: [[JSONPathStep]] = []
        if let unknown = firstUnknownKey(raw, known: known, path: [], nulls: &nulls) { return dotted(unknown) }
        return nulls.first { !isRead(T.self, raw, at: $0, known: known) }.map(dotted)
    }

    /// Whether decoding `T` reads the member at `path`: with the null there replaced by `{}`,
    /// decoding fails or gives another value. A key the type does not know is never looked at,
    /// so replacing its value can change nothing.
    private static func isRead<T: Codable>(_ type: T.Type, _ raw: JSONValue, at path: [JSONPathStep], known: JSONValue) -> Bool {
        guard let probe = try? JSONDecoder().decode(T.self, from: replacing(path, in: raw, with: .object([:])).encoded()) else { return true }
        return (try? JSONValue.from(probe)) != known
    }

    /// One step into a JSON document: a member name or an array index.
    private enum JSONPathStep {
        case key(String)
        case index(Int)
    }

    private static func dotted(_ path: [JSONPathStep]) -> String {
        path.map { step in
            switch step {
            case .key(let name): return name
            case .index(let index): return String(index)
            }
        }.joined(separator: ".")
    }

    private static func replacing(_ path: [JSONPathStep], in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        let rest = Array(path.dropFirst())
        switch (step, value) {
        case (.key(let name), .object(var members)):
            members[name] = replacing(rest, in: members[name] ?? .null, with: replacement)
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = replacing(rest, in: elements[index], with: replacement)
            return .array(elements)
        default:
            return value
        }
    }

    /// Decodes `T` from the request body; see `decode(_:from:rejectUnknownKeys:)`.
    public static func decode<T: Codable>(_ type: T.Type, from request: Request, rejectUnknownKeys: Bool = false) throws(BodyError) -> T {
        try decode(type, from: request.body, rejectUnknownKeys: rejectUnknownKeys)
    }

    /// Turns a `DecodingError` into a message naming the field.
    public static func describe(_ error: DecodingError) -> BodyError {
        func path(_ keys: [CodingKey]) -> String {
            keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return BodyError(code: "wrong_type", field: field, message: "Field `\(field)` has the wrong type; expected \(describeType(type)).")
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return BodyError(code: "wrong_type", field: field, message: "Field `\(field)` is null; expected \(describeType(type)).")
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return BodyError(code: "missing_field", field: field, message: "Field `\(field)` is required.")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if field.isEmpty { return BodyError(code: "invalid_json", message: "The request body is not valid JSON.") }
            return BodyError(code: "invalid_value", field: field, message: "Field `\(field)` is invalid: \(context.debugDescription)")
        @unknown default:
            return BodyError(code: "invalid_json", message: "The request body could not be decoded.")
        }
    }

    private static func describeType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a \(name)"
        }
    }

    private static func firstUnknownKey(_ raw: JSONValue, known: JSONValue, path: [JSONPathStep], nulls: inout [[JSONPathStep]]) -> [JSONPathStep]? {
        switch (raw, known) {
        case (.object(let rawMembers), .object(let knownMembers)):
            for (key, value) in rawMembers.sorted(by: { $0.key < $1.key }) {
                let childPath = path + [.key(key)]
                guard let knownValue = knownMembers[key] else {
                    if value == .null {
                        nulls.append(childPath)
                        continue
                    }
                    // Free-form members (JSONValue dictionaries) re-encode with the same keys, so
                    // a key missing here really is unknown to the type.
                    return childPath
                }
                if let unknown = firstUnknownKey(value, known: knownValue, path: childPath, nulls: &nulls) { return unknown }
            }
            return nil
        case (.array(let rawElements), .array(let knownElements)):
            for (index, element) in rawElements.enumerated() where index < knownElements.count {
                if let unknown = firstUnknownKey(element, known: knownElements[index], path: path + [.index(index)], nulls: &nulls) { return unknown }
            }
            return nil
        default:
            return nil
        }
    }
}

extension Response {
    /// A JSON response encoding `value` (keys as its `CodingKeys` say; slashes unescaped).
    public static func json<T: Encodable>(_ value: T, status: Int = 200, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let bytes = (try? encoder.encode(value)) ?? Data("null".utf8)
        return .json(status: status, bytes: bytes, headers: headers)
    }
}
