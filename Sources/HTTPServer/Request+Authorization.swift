/// Credentials carried in request headers, read one way for every platform and the control plane.
extension Request {
    /// The token of `Authorization: Bearer <token>` (scheme case-insensitive, surrounding ASCII
    /// white space ignored); nil when the header is absent, of another scheme, or empty.
    public var bearerToken: String? {
        guard let authorization = headers["authorization"] else { return nil }
        let trimmed = authorization.trimmingASCIIWhitespace()
        guard trimmed.utf8.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        let token = trimmed.dropFirst(7).trimmingASCIIWhitespace()
        return token.isEmpty ? nil : String(token)
    }
}
