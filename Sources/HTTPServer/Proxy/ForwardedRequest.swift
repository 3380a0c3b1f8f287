import Foundation

/// A request the proxy forwards to a host nobody emulates, as bytes for the real destination:
/// origin form, hop-by-hop fields dropped, `Connection: close` (one request per upstream
/// connection keeps the relay a plain byte copy), and the body as the parser decoded it.
public enum ForwardedRequest {
    /// Fields that describe one hop, never forwarded (RFC 9110 §7.6.1), plus the framing fields
    /// this serializer writes itself.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "content-length", "host",
    ]

    /// The bytes to send upstream for `request`.
    public static func bytes(for request: Request) -> [UInt8] {
        var dropped = hopByHop
        for value in request.headers.values(for: "connection") {
            for token in value.split(separator: ",") { dropped.insert(token.trimmingASCIIWhitespace().lowercased()) }
        }
        var head = "\(request.method.rawValue) \(request.target) HTTP/1.1\r\n"
        head += "Host: \(request.headers["host"] ?? "")\r\n"
        for field in request.headers where !dropped.contains(field.lowercasedName) {
            // The parser inflated a gzip or deflate body; it leaves in its decoded form.
            if field.lowercasedName == "content-encoding" && ["gzip", "x-gzip", "deflate"].contains(field.value.lowercased()) { continue }
            head += "\(field.name): \(field.value)\r\n"
        }
        if !request.body.isEmpty || [.post, .put, .patch].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + Array(request.body)
    }
}
