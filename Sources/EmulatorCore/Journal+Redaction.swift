import Foundation
import HTTPServer
import Storage
import Synchronization

/// Building journal entries: which headers and body fields are secrets, and how they are redacted.
extension Journal {

    private static let secretHeaders: Set<String> = [
        "authorization", "x-api-key", "x-wl-developer-key", "cookie", "set-cookie", "x-understudy-admin-token", "proxy-authorization",
    ]

    /// Headers as the JSON object the journal stores, `{"name":"value"}` by lowercase name in
    /// name order, and the bytes its names and values count for the journal's bound. A repeated
    /// name is joined with `, ` (`joiningRepeats`) or keeps its last value; `redacting` cuts
    /// secrets to their last 4 characters.
    ///
    /// Written straight from the fields: a dictionary and a `JSONValue` tree per header map were
    /// a third of what building an entry cost, in hashing and allocations.
    static func headerObject(_ headers: HTTPHeaders, redacting: Bool, joiningRepeats: Bool) -> (json: String, bytes: Int) {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count)
        for field in headers {
            let secret = redacting && secretHeaders.contains(field.lowercasedName)
            fields.append((field.lowercasedName, secret ? redact(field.value) : field.value))
        }
        fields.sort { $0.name < $1.name } // stable: repeats keep their order
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(fields.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 6 })
        var bytes = 0, index = 0
        while index < fields.count {
            let name = fields[index].name
            var value = fields[index].value
            index += 1
            while index < fields.count && fields[index].name == name {
                value = joiningRepeats ? value + ", " + fields[index].value : fields[index].value
                index += 1
            }
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONValue.writeString(value, into: &out)
            bytes += name.utf8.count + value.utf8.count
        }
        out.append(UInt8(ascii: "}"))
        return (String(decoding: out, as: UTF8.self), bytes)
    }

    /// `Bearer wl_test_abcd…` → `Bearer [redacted …abcd]`: enough to tell keys apart, not to reuse them.
    public static func redact(_ value: String) -> String {
        // Keys and tokens are ASCII, where bytes are characters: searching and cutting by
        // character, and lower-casing the scheme, were a twelfth of what the journal spent on
        // an app-config request. Anything else takes the character-wise way.
        redactASCII(value) ?? redactByCharacter(value)
    }

    /// `redact(_:)` character by character: for any value, and the reference the byte-wise way is
    /// tested against.
    static func redactByCharacter(_ value: String) -> String {
        var scheme = ""
        var secret = Substring(value)
        if let space = value.firstIndex(of: " "), ["bearer", "basic", "token"].contains(value[..<space].lowercased()) {
            scheme = String(value[..<space]) + " "
            secret = value[value.index(after: space)...]
        }
        return scheme + "[redacted …\(secret.suffix(4))]"
    }

    /// `redact(_:)` of an ASCII value, byte by byte; nil for any other value, and for one with a
    /// carriage return (`\r\n` is one character).
    private static func redactASCII(_ value: String) -> String? {
        var value = value
        return value.withUTF8 { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
            var start = 0
            if let space = bytes.firstIndex(of: UInt8(ascii: " ")), isAuthScheme(UnsafeBufferPointer(rebasing: bytes[..<space])) { start = space + 1 }
            // The scheme as written and its space, then the secret's last four characters.
            let tail = max(start, bytes.count - 4)
            let marker: StaticString = "[redacted …"
            let count = start + marker.utf8CodeUnitCount + (bytes.count - tail) + 1
            return String(unsafeUninitializedCapacity: count) { out in
                var at = 0
                func put(_ part: UnsafeBufferPointer<UInt8>) {
                    _ = UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(from: part)
                    at += part.count
                }
                put(UnsafeBufferPointer(rebasing: bytes[..<start]))
                put(UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount))
                put(UnsafeBufferPointer(rebasing: bytes[tail...]))
                out[at] = UInt8(ascii: "]")
                return at + 1
            }
        }
    }

    /// Whether ASCII `word` is `bearer`, `basic` or `token` in any letter case.
    private static func isAuthScheme(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        func matches(_ scheme: StaticString) -> Bool {
            word.count == scheme.utf8CodeUnitCount
                && zip(word, UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)).allSatisfy { $0 | 0x20 == $1 }
        }
        return matches("bearer") || matches("basic") || matches("token")
    }

    /// A body as the journal stores it, cut at its capture cap: text when the bytes are UTF-8,
    /// else the bytes themselves.
    ///
    /// Binary bodies used to be stored as their `base64:` text, a third larger: for a 30 KB
    /// binary upload the encoding, the extra pages written into the log and the file, and the
    /// extra pages read back to free them at eviction were a tenth of the request. Which of the
    /// two a stored body is follows from its bytes, so entries written before read as they did:
    /// what is not UTF-8 was stored raw (`journalText(stored:)`).
    enum StoredBody: Sendable, Equatable, SQLBindable {
        /// UTF-8 text, with `password`-like fields redacted.
        case text(String)
        /// The bytes of a body that is not UTF-8 (a BLOB; `bytea` on PostgreSQL).
        case bytes(Data)

        /// What it binds as: TEXT or BLOB.
        var sqlValue: SQLValue {
            switch self {
            case .text(let text): .text(text)
            case .bytes(let bytes): .blob(bytes)
            }
        }

        /// The bytes it takes in the database, as the journal's byte bound counts them.
        var storedCount: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .bytes(let bytes): bytes.count
            }
        }

        /// As the journal shows it: the text, or `base64:` and the bytes in base64.
        var journalText: String {
            switch self {
            case .text(let text): text
            case .bytes(let bytes): "base64:" + bytes.base64EncodedString()
            }
        }
    }

    /// A body as journal text: UTF-8 as is (JSON `password`-like fields redacted), binary as base64, cut at `cap` bytes.
    public static func bodyText(_ body: Data, cap: Int) -> String? { storedBody(body, cap: cap)?.journalText }

    /// A body as it is stored: UTF-8 text (secrets redacted) or the bytes, cut at `cap` bytes; nil when empty.
    static func storedBody(_ body: Data, cap: Int) -> StoredBody? {
        guard !body.isEmpty else { return nil }
        let slice = body.prefix(cap)
        if let text = String(validating: slice, as: UTF8.self) {
            guard mentionsSecret(slice) else { return .text(text) }
            if body.count <= cap, let json = try? JSONValue.parse(body) {
                return .text(String(decoding: redactSecrets(json).encoded(), as: UTF8.self))
            }
            return .text(redactForm(text))
        }
        // Uncut, the body's own storage is shared: copying a 30 KB upload here (and faulting in
        // the copy's fresh pages) was 3% of the request. A cut body is copied so that the rest of
        // it is not held until the entry is written.
        return .bytes(slice.count == body.count ? body : Data(slice))
    }

    /// A stored body read back as journal text: UTF-8 bytes were stored as text (a `base64:`
    /// text included, as entries before raw storage hold it); any other bytes were stored raw.
    static func journalText(stored: Data) -> String {
        String(validating: stored, as: UTF8.self) ?? "base64:" + stored.base64EncodedString()
    }

    /// Whether the bytes contain `password` or `secret` in any letter case (a byte scan: this runs
    /// for every journalled body, and Foundation's case-insensitive search is slow).
    static func mentionsSecret(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            let buffer = raw.bindMemory(to: UInt8.self)
            guard buffer.count >= 6 else { return false }
            // One comparison per byte until a `p` or an `s` (either case): a per-position loop over
            // both needles cost a tenth of every 20 KB JSON answer.
            func matches(_ needle: StaticString, at start: Int) -> Bool {
                let count = needle.utf8CodeUnitCount
                guard start + count <= buffer.count else { return false }
                for offset in 1..<count {
                    let byte = buffer[start + offset]
                    if (byte >= 65 && byte <= 90 ? byte + 32 : byte) != needle.utf8Start[offset] { return false }
                }
                return true
            }
            // Eight bytes at a time past words with no p/P/s/S in them (most of a JSON body): the
            // byte loop alone was a seventh of journalling a 43 KB trip list.
            func mayStartNeedle(_ word: UInt64) -> Bool {
                let folded = word | 0x2020_2020_2020_2020
                return hasZeroByte(folded ^ 0x7070_7070_7070_7070) || hasZeroByte(folded ^ 0x7373_7373_7373_7373)
            }
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let last = buffer.count - 6
            var start = 0
            while start <= last {
                if start + 8 <= buffer.count, !mayStartNeedle(base.loadUnaligned(fromByteOffset: start, as: UInt64.self)) {
                    start += 8
                    continue
                }
                switch buffer[start] | 0x20 { // only P/p become `p`, only S/s become `s`
                case UInt8(ascii: "p"): if matches("password", at: start) { return true }
                case UInt8(ascii: "s"): if matches("secret", at: start) { return true }
                default: break
                }
                start += 1
            }
            return false
        }
    }

    /// Whether any byte of `word` is zero (exact: no byte is reported that is not zero).
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// `a=1&password=x` → `a=1&password=[redacted]` (form bodies, such as a login).
    static func redactForm(_ text: String) -> String {
        guard text.contains("="), !text.contains("\n") else { return text }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let key = pair[..<equals].lowercased()
            return key.contains("password") || key.contains("secret") ? "\(pair[..<equals])=[redacted]" : String(pair)
        }.joined(separator: "&")
    }

    private static func redactSecrets(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.reduce(into: [:]) { out, member in
                    let key = member.key.lowercased()
                    if key.contains("password") || key.contains("secret"), case .string = member.value {
                        out[member.key] = "[redacted]"
                    } else {
                        out[member.key] = redactSecrets(member.value)
                    }
                })
        case .array(let elements): return .array(elements.map(redactSecrets))
        default: return value
        }
    }
}
