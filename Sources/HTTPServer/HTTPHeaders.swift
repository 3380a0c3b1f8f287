/// An ordered list of header fields; names compare case-insensitively and repeats are kept.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    /// One header field as it appeared on the wire.
    public struct Field: Sendable, Equatable {
        /// The name as sent (case preserved for journalling).
        public var name: String
        /// The value with surrounding whitespace removed.
        public var value: String
        /// The lower-cased name, computed once so lookups do not lower-case on every call.
        public let lowercasedName: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
            self.lowercasedName = HTTPHeaders.lowercasedName(name)
        }
    }

    /// `name` in lower case. Header names are ASCII tokens and code asks for them in lower case
    /// already, so the common cases skip `String.lowercased()` (its Unicode path was 1.5% of a
    /// request in profiles): already lower case returns `name` itself, ASCII maps byte by byte.
    /// Both read the string's own storage where it has one: iterating `utf8` went through the
    /// unspecialised collection witness for every byte, half of this function's time in a resolve.
    static func lowercasedName(_ name: String) -> String {
        switch name.utf8.withContiguousStorageIfAvailable(letterCase) ?? letterCase(name.utf8) {
        case .lower: return name
        case .upper:
            return String(unsafeUninitializedCapacity: name.utf8.count) { buffer in
                name.utf8.withContiguousStorageIfAvailable { lowercase($0, into: buffer) } ?? lowercase(name.utf8, into: buffer)
            }
        case .beyondASCII: return name.lowercased()
        }
    }

    private enum LetterCase { case lower, upper, beyondASCII }

    /// Whether an ASCII name has any upper-case letter (or is not ASCII).
    private static func letterCase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> LetterCase {
        var found = LetterCase.lower
        for byte in bytes {
            if byte >= 0x80 { return .beyondASCII }
            if byte &- 0x41 < 26 { found = .upper }
        }
        return found
    }

    /// Copies ASCII `bytes` into `buffer` with A–Z lowered; returns how many it wrote.
    private static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes {
            buffer[count] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            count += 1
        }
        return count
    }

    /// The fields in wire order.
    public private(set) var fields: [Field]

    /// An empty header list.
    public init() { fields = [] }

    /// Headers from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        let key = Self.lowercasedName(name)
        return fields.first { $0.lowercasedName == key }?.value
    }

    /// All values of `name`, in order.
    public func values(for name: String) -> [String] {
        let key = Self.lowercasedName(name)
        return fields.filter { $0.lowercasedName == key }.map(\.value)
    }

    /// Whether any field named `name` exists.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping any existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Sets `Retry-After` to a whole number of seconds: the one writer of the header, so every
    /// answer that asks a client to wait (overload, injected 429/503, a spent rate window, a
    /// store that is reconnecting) spells it the same way.
    public mutating func setRetryAfter(_ seconds: Int) {
        set("Retry-After", String(seconds))
    }

    /// Gives the first field named `name` this value where it stands (dropping any others of
    /// that name), or appends one: keeps wire order for the journal.
    mutating func replaceFirst(_ name: String, with value: String) {
        let key = Self.lowercasedName(name)
        guard let first = fields.firstIndex(where: { $0.lowercasedName == key }) else {
            add(name, value)
            return
        }
        fields[first].value = value
        var index = fields.count - 1
        while index > first {
            if fields[index].lowercasedName == key { fields.remove(at: index) }
            index -= 1
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        let key = Self.lowercasedName(name)
        fields.removeAll { $0.lowercasedName == key }
    }

    /// Whether a comma-separated header (such as `Connection`) contains `token`, case-insensitively.
    public func containsToken(_ token: String, in name: String) -> Bool {
        let key = Self.lowercasedName(name)
        let wanted = Self.lowercasedName(token)
        for field in fields where field.lowercasedName == key {
            for part in field.value.utf8.split(separator: UInt8(ascii: ",")) where Self.equalsIgnoringASCIICase(part, wanted) {
                return true
            }
        }
        return false
    }

    /// Whether `part`, without surrounding spaces and tabs, is `lowercased` in any case.
    private static func equalsIgnoringASCIICase(_ part: Substring.UTF8View.SubSequence, _ lowercased: String) -> Bool {
        var trimmed = part[...]
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
        guard trimmed.count == lowercased.utf8.count else { return false }
        return zip(trimmed, lowercased.utf8).allSatisfy { pair in (pair.0 &- 0x41 < 26 ? pair.0 | 0x20 : pair.0) == pair.1 }
    }

    /// Iterates fields in wire order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Number of fields.
    public var count: Int { fields.count }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's optional whitespace).
    public func trimmingASCIIWhitespace() -> String {
        // Bytes, not scalars: both are ASCII, so no scalar can contain them, and every request
        // trims a few header values (the scalar view cost ~75 ns a call, this ~25).
        let text = Substring(self), utf8 = text.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while start < end {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        if start == utf8.startIndex, end == utf8.endIndex, let whole = self as? String { return whole }
        return String(text[start..<end])
    }
}
