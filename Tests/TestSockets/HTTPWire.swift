import Foundation

/// One HTTP/1.1 response as a test client read it off the wire.
public struct HTTPReply: Sendable {
    /// The status code.
    public var status: Int
    /// The reason phrase after the code ("" when there is none).
    public var reason: String
    /// The header fields, names lower-cased (the last of repeated names wins).
    public var headers: [String: String]
    /// The body, as framed by Content-Length.
    public var body: [UInt8]
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A reply with these parts.
    public init(status: Int, reason: String = "", headers: [String: String], body: [UInt8]) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }
}

/// The HTTP/1.1 text the test clients write, and where a head ends.
public enum HTTPWire {
    /// A request in origin or absolute form: `Host` first, then `headers` by name, then a
    /// Content-Length when there is a body (or the method is POST or PUT), then the body.
    public static func request(_ method: String, _ target: String, host: String, headers: [String: String] = [:], body: String = "") -> String {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.utf8.count)\r\n" }
        return head + "\r\n" + body
    }

    /// The index of the CRLF CRLF that ends the head in `bytes`; nil while it has not arrived.
    public static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
}

/// Bytes received and not yet read, from which whole responses are taken as they complete.
/// Each client feeds it from its own transport (a socket, a TLS session).
public struct HTTPResponseBuffer: Sendable {
    /// A status line that is no HTTP status line.
    public struct Malformed: Error {}

    /// What has arrived and not been taken.
    public private(set) var bytes: [UInt8] = []

    /// An empty buffer.
    public init() {}

    /// Adds bytes that arrived.
    public mutating func append<Bytes: Sequence<UInt8>>(_ more: Bytes) { bytes.append(contentsOf: more) }

    /// Takes everything buffered.
    public mutating func takeAll() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Takes the head and Content-Length body of the first response once both have arrived; nil
    /// while more bytes are needed. No body is read for `head` (an answer to HEAD), a 1xx or a 204,
    /// or for a 2xx when `tunnel` (an answer to CONNECT).
    public mutating func takeReply(head: Bool = false, tunnel: Bool = false) throws(Malformed) -> HTTPReply? {
        guard let end = HTTPWire.headEnd(bytes) else { return nil }
        var lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Malformed() }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodiless = head || status < 200 || status == 204 || (tunnel && (200..<300).contains(status))
        let length = bodiless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        let body = Array(bytes[(end + 4)..<(end + 4 + length)])
        bytes.removeFirst(end + 4 + length)
        return HTTPReply(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers, body: body)
    }
}
