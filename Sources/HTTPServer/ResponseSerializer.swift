import Foundation

/// Turns a `Response` into the exact bytes for the socket: one buffer, so one write.
public enum ResponseSerializer {
    /// The serialized head and body, and where the body starts (for truncation faults).
    public struct Output: Sendable {
        /// Head followed by body.
        public var bytes: [UInt8]
        /// Offset of the first body byte in `bytes`.
        public var bodyOffset: Int
    }

    /// Serializes `response` for a request with `method` (HEAD gets no body) on `version`.
    /// `keepAlive` decides the `Connection` header.
    public static func serialize(_ response: Response, method: HTTPMethod?, version: HTTPVersion, keepAlive: Bool) -> Output {
        // RFC 9110 §9.3.6: a 2xx to CONNECT starts the tunnel; it has no body and no framing headers.
        let opensTunnel = method == .connect && (200..<300).contains(response.status)
        let suppressBody = opensTunnel || HTTPStatus.hasNoBody(status: response.status, method: method)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(192 + response.headers.count * 32 + (suppressBody ? 0 : response.body.count))
        bytes.append(contentsOf: version.text.utf8)
        bytes.append(32)
        bytes.append(contentsOf: String(response.status).utf8)
        bytes.append(32)
        bytes.append(contentsOf: (opensTunnel && response.status == 200 ? "Connection Established" : HTTPStatus.reason(response.status)).utf8)
        bytes.append(contentsOf: [13, 10])
        var hasDate = false, hasServer = false
        for field in response.headers.fields {
            // Framing headers are ours to write; a handler's copy could contradict the body.
            if field.lowercasedName == "content-length" || field.lowercasedName == "connection" || field.lowercasedName == "transfer-encoding" { continue }
            if field.lowercasedName == "date" { hasDate = true }
            if field.lowercasedName == "server" { hasServer = true }
            appendField(&bytes, field.name, field.value)
        }
        if !hasDate {
            bytes.append(contentsOf: "Date: ".utf8)
            bytes.append(contentsOf: HTTPDate.now())
            bytes.append(contentsOf: [13, 10])
        }
        if !hasServer { appendField(&bytes, "Server", "Understudy") }
        if !(100..<200).contains(response.status) && response.status != 204 && !opensTunnel {
            appendField(&bytes, "Content-Length", String(response.body.count))
        }
        if opensTunnel {
            // The connection is the tunnel's now; whether it stays open is not ours to say.
        } else if !keepAlive {
            appendField(&bytes, "Connection", "close")
        } else if version == .http10 {
            appendField(&bytes, "Connection", "keep-alive")
        }
        bytes.append(contentsOf: [13, 10])
        let bodyOffset = bytes.count
        if !suppressBody { bytes.append(contentsOf: response.body) }
        return Output(bytes: bytes, bodyOffset: bodyOffset)
    }

    /// The interim response sent for `Expect: 100-continue`.
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static func appendField(_ bytes: inout [UInt8], _ name: String, _ value: String) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(58)
        bytes.append(32)
        // CR/LF in a value would let a handler split the response; drop them.
        for byte in value.utf8 where byte != 13 && byte != 10 { bytes.append(byte) }
        bytes.append(contentsOf: [13, 10])
    }
}
