/// Credentials carried in request headers, read one way for every platform and the control plane.
extension Request {
    /// The token of `Authorization: Bearer <token>` (scheme case-insensitive, surrounding ASCII
    /// white space ignored); nil when the header is absent, of another scheme, or empty.
    public var bearerToken: String? {
        guard let authorization = headers["authorization"] else { return nil }
        let utf8 = authorization.utf8
        // Byte by byte when the value is ASCII (every token is): the Character-based version
        // cost ~0.4 µs a call, and a request asks up to three times.
        guard !utf8.contains(where: { $0 >= 0x80 }) else { return Self.bearerToken(unicode: authorization) }
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var index = utf8.startIndex, end = utf8.endIndex
        while index < end, isBlank(utf8[index]) { index = utf8.index(after: index) }
        while index < end, isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        for letter in "bearer".utf8 {
            guard index < end, utf8[index] | 0x20 == letter else { return nil } // ASCII case folding of letters
            index = utf8.index(after: index)
        }
        guard index < end, utf8[index] == 0x20 else { return nil }
        while index < end, isBlank(utf8[index]) { index = utf8.index(after: index) }
        return index < end ? String(authorization[index..<end]) : nil
    }

    /// `bearerToken` for a value with non-ASCII bytes, by Characters (a combining mark after the
    /// scheme's space makes it no longer `bearer `).
    static func bearerToken(unicode authorization: String) -> String? {
        let trimmed = authorization.trimmingASCIIWhitespace()
        guard trimmed.utf8.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).trimmingASCIIWhitespace()
        return token.isEmpty ? nil : String(token)
    }
}
