import EmulatorCore
import Foundation
import HTTPServer
import Testing

/// `request` with `Proxy-Authorization: Basic base64(credentials)`.
private func authorized(_ request: Request, _ credentials: String) -> Request {
    var request = request
    request.headers.add("Proxy-Authorization", "Basic " + Data(credentials.utf8).base64EncodedString())
    return request
}

@Suite("Proxy access: targets, password, listening scope")
struct ProxyAccessTests {
    @Test("passthrough refuses loopback in any spelling and private targets with a 403 naming --proxy-allow-private; nothing is dialled")
    func privateTargetsRefused() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let unused = BoundPort()
        defer { unused.release() }
        for host in ["127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0.0.0.0", "0", "[::1]", "[::ffff:127.0.0.1]"] {
            let reply = await harness.emulator.respond(to: proxied(.connect, "\(host):\(unused.port)", host: "\(host):\(unused.port)"))
            #expect(reply.status == 403 && proxyText(reply).contains("--proxy-allow-private"), "\(host): \(reply.status) \(proxyText(reply))")
            let absolute = await harness.emulator.respond(to: proxied(.get, "/x", host: "\(host):\(unused.port)", absolute: true))
            #expect(absolute.status == 403 && proxyText(absolute).contains("--proxy-allow-private"), "\(host): \(absolute.status)")
        }
        #expect(harness.emulator.upstreams.upstreamCount == 0)
    }

    @Test("a CONNECT to the server's own plain port is served in process, never dialled, even with private targets allowed")
    func ownPortIntercepted() async throws {
        let harness = try await Harness(proxy: ProxySettings(allowsPrivateTargets: true))
        defer { Task { await harness.stop() } }
        let port = try #require(URL(string: harness.baseURL)?.port)
        for host in ["127.0.0.1", "127.1", "0x7f000001", "localhost", "[::ffff:127.0.0.1]"] {
            let reply = await harness.emulator.respond(to: proxied(.connect, "\(host):\(port)", host: "\(host):\(port)"))
            guard case .tunnel(.intercept(tls: false, _)) = reply.delivery else {
                Issue.record("\(host):\(port) got \(reply.status) \(reply.delivery)")
                continue
            }
        }
        // Absolute form: the ordinary pipeline answers it (the test platform's 401 for no key), nothing is relayed.
        let absolute = await harness.emulator.respond(to: proxied(.get, "/testing/items", host: "127.0.0.1:\(port)", absolute: true))
        #expect(absolute.status == 401 && absolute.delivery == .normal)
        #expect(harness.emulator.upstreams.upstreamCount == 0)
    }

    @Test("with a password, every CONNECT and absolute-form request without it gets 407 and Proxy-Authenticate; any user with the password passes")
    func password() async throws {
        let harness = try await Harness(proxy: ProxySettings(refusesUnknownHosts: true, password: "s3cret"))
        defer { Task { await harness.stop() } }
        let emulator = harness.emulator
        let connect = proxied(.connect, "api.test.example:443", host: "api.test.example:443")
        let absolute = proxied(.get, "/items", host: "api.test.example", absolute: true)
        for request in [connect, absolute, authorized(connect, "me:wrong"), authorized(connect, "s3cret"), authorized(absolute, "me:s3cre")] {
            let reply = await emulator.respond(to: request)
            #expect(reply.status == 407 && reply.headers["proxy-authenticate"] == "Basic realm=\"understudy\"", "\(request.headers)")
            #expect(proxyText(reply).contains("--proxy-password"))
        }
        var bearer = connect
        bearer.headers.add("Proxy-Authorization", "Bearer s3cret")
        #expect(await emulator.respond(to: bearer).status == 407)
        #expect(await emulator.respond(to: authorized(connect, "anyone:s3cret")).status == 200)
        #expect(await emulator.respond(to: authorized(connect, ":s3cret")).status == 200)
        #expect(await emulator.respond(to: authorized(absolute, "phone:s3cret")).status == 401) // served: the test platform's own answer
        // Inside an intercepted tunnel and on the plain port, nobody asks for it.
        var inside = Request(method: .get, target: "/items", headers: ["Host": "api.test.example"])
        inside.connection = ConnectionInfo(listener: .proxy, isSecure: true, tunnelAuthority: "api.test.example:443")
        #expect(await emulator.respond(to: inside).status == 401)
        #expect(await emulator.respond(to: Request(method: .get, target: "/testing/items", headers: ["Host": "127.0.0.1"])).status == 401)
    }

    @Test("a password given as user:password needs that user")
    func userAndPassword() async throws {
        let harness = try await Harness(proxy: ProxySettings(password: "dev:s3cret"))
        defer { Task { await harness.stop() } }
        let connect = proxied(.connect, "api.test.example:443", host: "api.test.example:443")
        #expect(await harness.emulator.respond(to: authorized(connect, "dev:s3cret")).status == 200)
        #expect(await harness.emulator.respond(to: authorized(connect, "other:s3cret")).status == 407)
        #expect(await harness.emulator.respond(to: authorized(connect, "dev:s3cret:x")).status == 407)
    }

    @Test("beyond loopback without a password, passthrough is refused naming both ways out; emulated hosts are still intercepted")
    func beyondLoopbackNeedsPassword() async throws {
        let harness = try await Harness(proxy: ProxySettings(allowsPrivateTargets: true), listensBeyondLoopback: true)
        defer { Task { await harness.stop() } }
        let unused = BoundPort()
        defer { unused.release() }
        let reply = await harness.emulator.respond(to: proxied(.connect, "127.0.0.1:\(unused.port)", host: "127.0.0.1:\(unused.port)"))
        #expect(reply.status == 403 && proxyText(reply).contains("--proxy-password") && proxyText(reply).contains("--host 127.0.0.1"))
        let emulated = await harness.emulator.respond(to: proxied(.connect, "api.test.example:443", host: "api.test.example:443"))
        #expect(emulated.status == 200)

        let withPassword = try await Harness(proxy: ProxySettings(allowsPrivateTargets: true, password: "pw"), listensBeyondLoopback: true)
        defer { Task { await withPassword.stop() } }
        let passed = await withPassword.emulator.respond(to: authorized(proxied(.connect, "127.0.0.1:\(unused.port)", host: "127.0.0.1:\(unused.port)"), "u:pw"))
        #expect(passed.status == 502) // dialled: nothing listens there
    }
}
