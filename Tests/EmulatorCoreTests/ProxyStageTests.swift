import EmulatorCore
import Foundation
import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request as the proxy port hands it over: CONNECT in authority form, or absolute form.
func proxied(
    _ method: HTTPMethod, _ target: String, host: String, absolute: Bool = false,
    connection: ConnectionInfo = ConnectionInfo(listener: .proxy)
) -> Request {
    var request = Request(method: method, target: target, headers: ["Host": host])
    request.connection = connection
    if absolute { request.absoluteFormScheme = "http" }
    return request
}

func proxyText(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

/// A loopback port bound but not listening: connecting to it is refused, and no other test can
/// take it while it is held (a closed port could be reused by a parallel test's server).
struct BoundPort {
    let fd: Int32
    let port: Int

    init() {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func release() { close(fd) }
}

@Suite("Proxy stage")
struct ProxyStageTests {
    @Test("the emulator knows which hosts it emulates from the platforms, naming none itself")
    func emulatedHosts() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        #expect(harness.emulator.emulates(host: "api.test.example"))
        #expect(!harness.emulator.emulates(host: "example.org") && !harness.emulator.emulates(host: "127.0.0.1"))
    }

    @Test("CONNECT to an emulated host: 443 is intercepted with TLS, 80 as plain HTTP, any other port is a 400 naming host and port")
    func connectEmulated() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let emulator = harness.emulator
        let tls = await emulator.respond(to: proxied(.connect, "api.test.example:443", host: "api.test.example:443"))
        #expect(tls.status == 200 && tls.delivery == .tunnel(.intercept(tls: true, authority: ProxyAuthority(host: "api.test.example", port: 443))))
        let plain = await emulator.respond(to: proxied(.connect, "API.test.example:80", host: "API.test.example:80"))
        #expect(plain.delivery == .tunnel(.intercept(tls: false, authority: ProxyAuthority(host: "api.test.example", port: 80))))
        let other = await emulator.respond(to: proxied(.connect, "api.test.example:8443", host: "api.test.example:8443"))
        #expect(other.status == 400 && other.delivery == .normal && proxyText(other).contains("api.test.example") && proxyText(other).contains("8443"))
    }

    @Test("CONNECT anywhere but the proxy port is a 405; inside an intercepted tunnel, a 400")
    func connectElsewhere() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let plainPort = await harness.emulator.respond(to: proxied(.connect, "api.test.example:443", host: "api.test.example:443", connection: .plain))
        #expect(plainPort.status == 405 && plainPort.delivery == .normal)
        let nested = await harness.emulator.respond(
            to: proxied(
                .connect, "example.org:443", host: "example.org:443",
                connection: ConnectionInfo(listener: .proxy, isSecure: true, tunnelAuthority: "api.test.example:443")))
        #expect(nested.status == 400 && nested.delivery == .normal)
    }

    @Test("refuse mode: CONNECT and absolute-form requests for other hosts get a 403 text naming the host; emulated hosts still pass")
    func refuse() async throws {
        let harness = try await Harness(proxy: ProxySettings(refusesUnknownHosts: true))
        defer { Task { await harness.stop() } }
        let connect = await harness.emulator.respond(to: proxied(.connect, "example.org:443", host: "example.org:443"))
        #expect(connect.status == 403 && proxyText(connect).contains("example.org:443") && connect.headers["content-type"]?.hasPrefix("text/plain") == true)
        let absolute = await harness.emulator.respond(to: proxied(.get, "/x", host: "example.org", absolute: true))
        #expect(absolute.status == 403 && proxyText(absolute).contains("example.org:80"))
        let emulated = await harness.emulator.respond(to: proxied(.get, "/items", host: "api.test.example", absolute: true))
        #expect(emulated.status == 401) // the test platform's own answer for no key: served, not refused
        let tunnel = await harness.emulator.respond(to: proxied(.connect, "api.test.example:443", host: "api.test.example:443"))
        #expect(tunnel.status == 200)
    }

    @Test("passthrough to a port nothing listens on is a 502 naming host and port; no upstream is left")
    func passthroughFailure() async throws {
        let harness = try await Harness(proxy: ProxySettings(allowsPrivateTargets: true))
        defer { Task { await harness.stop() } }
        let unused = BoundPort()
        defer { unused.release() }
        let port = unused.port
        let reply = await harness.emulator.respond(to: proxied(.connect, "127.0.0.1:\(port)", host: "127.0.0.1:\(port)"))
        #expect(reply.status == 502 && proxyText(reply).contains("127.0.0.1:\(port)"))
        #expect(harness.emulator.upstreams.upstreamCount == 0)
    }

    @Test("the journal records CONNECTs as platform `proxy`, and every proxied request's via and host")
    func journalFields() async throws {
        let harness = try await Harness(proxy: ProxySettings(refusesUnknownHosts: true))
        defer { Task { await harness.stop() } }
        let emulator = harness.emulator
        _ = await emulator.respond(to: proxied(.connect, "example.org:443", host: "example.org:443"))
        var inside = Request(method: .get, target: "/items", headers: ["Host": "api.test.example"])
        inside.connection = ConnectionInfo(listener: .proxy, isSecure: true, serverName: "api.test.example", tunnelAuthority: "api.test.example:443")
        _ = await emulator.respond(to: inside)
        _ = await emulator.respond(to: Request(method: .get, target: "/items", headers: ["Host": "api.test.example"]))
        let all = try await emulator.journal.query(project: nil, filter: JournalFilter()).entries
        let connect = all.first { $0.method == "CONNECT" }
        #expect(connect?.platform == "proxy" && connect?.path == "example.org:443" && connect?.status == 403)
        #expect(connect?.via == "proxy" && connect?.proxyHost == "example.org" && connect?.projectID == nil)
        let proxied = try await emulator.journal.query(project: nil, filter: JournalFilter(via: "proxy", proxyHost: "api.test.example")).entries
        #expect(proxied.count == 1 && proxied.first?.platform == "testing" && proxied.first?.path == "/testing/items")
        let direct = try await emulator.journal.query(project: nil, filter: JournalFilter(via: "direct")).entries
        #expect(direct.count == 1 && direct.first?.via == nil && direct.first?.proxyHost == nil)
    }
}
