import Foundation
import Testing

@testable import HTTPServer

private func post(_ path: String, body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
}

@Suite("Server-wide request body budget")
struct RequestBodyBudgetTests {
    @Test("bodies beyond the shared budget get 503 with Retry-After; the budget comes back when answered")
    func sharedBudget() {
        let budget = RequestBodyBudget(limit: 100)
        var first = ConnectionDriver(budget: budget)
        first.send(post("/a", body: String(repeating: "a", count: 80)))
        #expect(first.startedPaths == ["/a"] && budget.bytesInUse == 80) // held while the handler runs

        var second = ConnectionDriver(budget: budget)
        second.send(post("/b", body: String(repeating: "b", count: 40)))
        #expect(second.startedPaths == ["!server_busy"])
        second.echo()
        #expect(second.statuses == [503] && second.written.first?.retryAfter == "1")
        #expect(budget.bytesInUse == 80)

        first.echo()
        #expect(budget.bytesInUse == 0)
        var third = ConnectionDriver(budget: budget)
        third.send(post("/c", body: String(repeating: "c", count: 40)))
        #expect(third.startedPaths == ["/c"])
    }

    @Test("a body still arriving counts against the budget, and a closed connection gives its share back")
    func partialBodies() {
        let budget = RequestBodyBudget(limit: 100)
        var slow = ConnectionDriver(budget: budget)
        slow.send("POST /slow HTTP/1.1\r\nHost: t\r\nContent-Length: 90\r\n\r\n" + String(repeating: "s", count: 70))
        #expect(budget.bytesInUse == 70 && slow.started.isEmpty)
        var other = ConnectionDriver(budget: budget)
        other.send(post("/o", body: String(repeating: "o", count: 40)))
        #expect(other.startedPaths == ["!server_busy"])
        slow.peerCloses(.hangUp)
        #expect(slow.isClosed && budget.bytesInUse == 0)
    }

    @Test("an application's own Retry-After is kept")
    func keepsRetryAfter() {
        let budget = RequestBodyBudget(limit: 1)
        var connection = ConnectionDriver(budget: budget)
        connection.send(post("/x", body: "xy"))
        var response = Response.text("busy", status: 503)
        response.headers.set("Retry-After", "7")
        connection.answer(response)
        #expect(connection.written.first?.retryAfter == "7")
    }

    @Test("gzip is inflated as it arrives and refused as soon as it passes the limit")
    func streamingInflate() throws {
        let bomb = Array(Gzip.compress(Data(count: 8_000_000))) // about 8 KB that inflate to 8 MB
        var decoder = try RequestBodyDecoder(contentEncoding: "gzip", limit: 1_000_000)
        var consumed = 0
        var refused: HTTPRequestError?
        for start in stride(from: 0, to: bomb.count, by: 64) {
            let piece = bomb[start..<min(bomb.count, start + 64)]
            do { try decoder.append(piece) } catch { refused = error; break }
            consumed += piece.count
            #expect(decoder.heldByteCount <= 1_000_000)
        }
        #expect(refused == .bodyTooLarge(limit: 1_000_000))
        #expect(consumed < bomb.count / 2) // stopped early, not after inflating everything
    }
}
