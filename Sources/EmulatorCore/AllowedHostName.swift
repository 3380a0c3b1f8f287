/// A host name the server answers to besides its built-in ones (`--allowed-host`,
/// `allowedHosts`, `UNDERSTUDY_ALLOWED_HOSTS`): one name (`phone.local`), or — written
/// `.example.com` or `*.example.com` — a domain and every name under it, `example.com` included.
public struct AllowedHostName: Sendable, Equatable, CustomStringConvertible {
    /// The name, lower-cased, without a trailing dot or a leading `.` / `*.`.
    public let name: String
    /// Whether names under `name` match too.
    public let includesSubdomains: Bool

    /// Parses `text`; nil when it is not a plain host name (a scheme, a port, a path, a stray
    /// character), so a typo is reported at start instead of silently allowing nothing.
    public init?(_ text: String) {
        var rest = Substring(text.lowercased())
        var subdomains = false
        if rest.hasPrefix("*.") {
            rest = rest.dropFirst(2)
            subdomains = true
        } else if rest.hasPrefix(".") {
            rest = rest.dropFirst()
            subdomains = true
        }
        if rest.count > 1, rest.hasSuffix(".") { rest = rest.dropLast() }
        let bytes = Array(rest.utf8)
        guard !bytes.isEmpty, bytes.count <= 253, bytes.allSatisfy(Self.isNameByte),
            bytes.first != UInt8(ascii: "."), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "."),
            !rest.contains("..")
        else { return nil }
        name = String(rest)
        includesSubdomains = subdomains
    }

    /// Whether `host` (lower-cased, without port or trailing dot) is this name, or under it.
    public func matches(_ host: String) -> Bool {
        if host == name { return true }
        return includesSubdomains && host.hasSuffix(name) && host.utf8.dropLast(name.utf8.count).last == UInt8(ascii: ".")
    }

    /// The name as it would be configured: `.example.com` for a domain.
    public var description: String { includesSubdomains ? "." + name : name }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }
}
