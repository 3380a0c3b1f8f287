import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request on a raw socket to 127.0.0.1, with a `Host` the test chooses (URLSession
/// sets its own), answered in full before the server closes (`Connection: close`).
enum RawHTTP {
    /// What went wrong on the socket.
    enum Failure: Error { case connect, write, malformed(String) }

    /// The status and body of `method path` sent with `Host: host`.
    static func send(port: Int, _ method: String, _ path: String, host: String, body: String = "") throws -> (status: Int, body: Data) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.connect }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure.connect }
        let bodyBytes = Array(body.utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if !bodyBytes.isEmpty { head += "Content-Type: application/json\r\nContent-Length: \(bodyBytes.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + bodyBytes
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure.write }
            sent += written
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += chunk[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n"), let statusText = text.split(separator: " ", maxSplits: 2).dropFirst().first,
            let status = Int(statusText)
        else { throw Failure.malformed(text) }
        let headers = text[..<split.lowerBound].lowercased()
        guard !headers.contains("transfer-encoding: chunked") else { throw Failure.malformed("chunked answers are not read here") }
        let headerBytes = text[..<split.upperBound].utf8.count
        return (status, Data(received[headerBytes...]))
    }
}
