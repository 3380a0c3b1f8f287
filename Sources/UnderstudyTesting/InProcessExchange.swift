import Foundation
import HTTPServer
import UnderstudyClient
import UnderstudyServer

/// A test server's router mode: a client request becomes the bytes a live client would send,
/// is read by the server's own request reader (framing, body limit, content coding), answered by
/// the application the HTTP server runs, and handed back — everything but the socket and the
/// event loop.
struct InProcessExchange: Sendable {
    /// The server whose application answers.
    let server: UnderstudyServer
    /// The server's root URL (for `Host`, as a live client would send it).
    let url: URL

    /// Answers `request` for `target` (path and query from the root, as on the wire).
    @Sendable func send(_ target: String, _ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        let body = request.body ?? Data()
        var head = "\(request.method) \(target) HTTP/1.1\r\n"
        // A test may name another host (a platform's real one, say), as URLSession would send it.
        if !request.headers.keys.contains(where: { $0.lowercased() == "host" }) {
            head += "Host: \(url.host ?? "127.0.0.1")\(url.port.map { ":\($0)" } ?? "")\r\n"
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) where name.lowercased() != "content-length" {
            head += "\(name): \(value)\r\n"
        }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        var reader = HTTPRequestReader(limits: HTTPParserLimits(maxBodyBytes: server.configuration.maxBodyBytes), remoteAddress: "127.0.0.1")
        reader.feed(Array(head.utf8) + Array(body), now: MonotonicClock.nanoseconds())
        let response: Response
        switch reader.next() {
        case .request(let parsed)?: response = await server.application.respond(to: parsed)
        case .failure(let error, let parsedHead)?: response = await server.application.respond(to: error, head: parsedHead)
        case .continueExpected?, nil: throw .transport(code: -1, message: "the request could not be framed in process")
        }
        switch response.delivery {
        case .normal: break
        case .hang(let seconds):
            // A live client sees nothing until its timeout; the server closes after `seconds`.
            let wait = min(seconds, request.timeout ?? 30)
            try? await Task.sleep(nanoseconds: UInt64(max(0, wait) * 1_000_000_000)) // checked: a fault's bounded seconds
            throw .transport(code: -1001, message: "The request timed out.")
        case .reset, .closeAfterHeaders, .truncateBody, .tunnel:
            throw .transport(code: -1005, message: "The network connection was lost.")
        }
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.lowercasedName] = field.value }
        let noBody = request.method == "HEAD" || response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
        return ClientResponse(status: response.status, headers: headers, body: noBody ? Data() : response.body)
    }
}
