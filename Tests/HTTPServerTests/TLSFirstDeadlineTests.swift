import Testing

@testable import HTTPServer

@Suite("TLS connection deadlines")
struct TLSFirstDeadlineTests {
    private func configuration(handshake: Bool) -> ConnectionConfiguration {
        var configuration = ConnectionConfiguration(headerTimeout: 3, idleTimeout: 60)
        configuration.startsWithHandshake = handshake
        return configuration
    }

    @Test("a connection that starts with a handshake gets the header timeout first, and is closed when it passes")
    func stalledHandshake() {
        var connection = ConnectionDriver(configuration: configuration(handshake: true))
        #expect(connection.deadline == connection.now + 3_000_000_000)
        connection.advance(seconds: 2.9)
        #expect(!connection.isClosed)
        connection.advance(seconds: 0.2)
        #expect(connection.closed == .orderly && connection.written.isEmpty) // nothing to answer: no request began
    }

    @Test("a plain connection still starts on the idle timeout; after a TLS request the idle timeout applies between requests")
    func laterDeadlines() {
        let plain = ConnectionDriver(configuration: configuration(handshake: false))
        #expect(plain.deadline == plain.now + 60_000_000_000)
        var secure = ConnectionDriver(configuration: configuration(handshake: true))
        secure.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n")
        secure.echo()
        #expect(secure.statuses == [200] && secure.deadline == secure.now + 60_000_000_000)
    }
}
