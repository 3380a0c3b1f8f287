import EmulatorCore
import Foundation
import TestSockets
import Testing
import UnderstudyClient
import UnderstudyTesting

@testable import UnderstudyServer

@Suite("Public URL and Host-derived URLs in project answers, OpenAPI and the banner")
struct PublicURLTests {
    private static let publicURL = "http://192.168.1.50:8080"

    /// Pretends the TLS listener, the proxy and the CA are up (their ports are advertised once bound).
    private static func bindOthers(_ server: UnderstudyTestServer, ca: String = "/data/understudy-ca.pem") {
        let services = server.server.emulator.services
        services.setBoundHTTPSPort(8443)
        services.setBoundProxyPort(8888)
        services.setCACertificatePath(ca)
    }

    private static func json(_ reply: (status: Int, body: Data)) throws -> JSONValue {
        #expect(reply.status == 200 || reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        return try JSONValue.parse(reply.body)
    }

    @Test("--public-url is in every advertised URL: project answers, sdkSettings, OpenAPI servers, the banner")
    func publicURLEverywhere() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.publicURL = Self.publicURL + "/" }) { server in
            Self.bindOthers(server)
            let demo = try await server.client.admin.project("demo").get()
            #expect(demo.baseURLs.values.allSatisfy { $0.hasPrefix(Self.publicURL + "/") } && demo.baseURLs.count == 4)
            #expect(demo.httpsBaseURLs["asleep"] == "https://192.168.1.50:8443/asleep")
            #expect(demo.sdkSettings["warplink"]?["apiEndpoint"] == Self.publicURL + "/warplink/v1")
            #expect(demo.sdkSettings["telematics"]?["baseURL"] == Self.publicURL + "/telematics")
            #expect(
                demo.proxy
                    == Project.Proxy(
                        address: "192.168.1.50:8888", caCertificatePath: "/data/understudy-ca.pem",
                        caCertificateURL: Self.publicURL + "/__admin/ca.pem"))
            #expect(demo.connections["warrantylife"]?.proxy == "192.168.1.50:8888")

            // A request under another Host changes nothing: the public URL wins.
            let port = server.server.http.port
            let viaEmulatorHost = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/projects/demo", host: "10.0.2.2:8080"))
            #expect(viaEmulatorHost["baseURLs"]?["warplink"] == .string(Self.publicURL + "/warplink"))
            let core = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/openapi.json", host: "10.0.2.2:8080"))
            #expect(core["servers"]?[0]?["url"] == .string(Self.publicURL))
            #expect(core["servers"]?[1]?["url"] == "https://192.168.1.50:8443")
            let platform = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/openapi/warrantylife.json", host: "localhost"))
            #expect(platform["servers"]?[0]?["url"] == .string(Self.publicURL + "/warrantylife"))

            let record = try #require(try await server.server.emulator.projects.list().first(where: \.isDemo))
            let banner = StartupBanner(
                project: record, platforms: server.server.emulator.platforms,
                addresses: server.server.emulator.services.addresses, lanAddresses: ["172.17.0.2"])
            #expect(banner.text.contains("HTTP:          \(Self.publicURL)  (public URL; listening on 127.0.0.1:"))
            #expect(banner.text.contains("apiEndpoint=\(Self.publicURL)/warplink/v1") && banner.text.contains("HTTPS:         https://192.168.1.50:8443"))
            #expect(banner.text.contains("use the proxy: 192.168.1.50:8888, trust /data/understudy-ca.pem"))
            #expect(!banner.text.contains("http://127.0.0.1") && !banner.text.contains("172.17.0.2"))
            let fields = Dictionary(uniqueKeysWithValues: banner.fields)
            #expect(fields["http"] == .string(Self.publicURL) && fields["publicURL"] == true && fields["proxy"] == "192.168.1.50:8888")
            #expect(fields["dashboard"] == .string(Self.publicURL + "/__admin/ui"))
        }
    }

    @Test("without a public URL, answers follow the Host the request was sent to (Android emulator, IPv6, containers)")
    func hostDerived() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            Self.bindOthers(server)
            let port = server.server.http.port
            let android = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/projects/demo", host: "10.0.2.2:8080"))
            #expect(android["baseURLs"]?["telematics"] == "http://10.0.2.2:8080/telematics")
            #expect(android["httpsBaseURLs"]?["warplink"] == "https://10.0.2.2:8443/warplink")
            #expect(android["sdkSettings"]?["warplink"]?["apiEndpoint"] == "http://10.0.2.2:8080/warplink/v1")
            #expect(android["sdkSettings"]?["asleep"]?["baseUrl"] == "http://10.0.2.2:8080/asleep")
            #expect(android["proxy"]?["address"] == "10.0.2.2:8888" && android["proxy"]?["caCertificateURL"] == "http://10.0.2.2:8080/__admin/ca.pem")
            #expect(android["connections"]?["asleep"]?["proxy"] == "10.0.2.2:8888")

            let ipv6 = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/projects", host: "[::1]:8080"))
            let listed = try #require(ipv6["projects"]?[0])
            #expect(listed["sdkSettings"]?["warplink"]?["apiEndpoint"] == "http://[::1]:8080/warplink/v1")
            #expect(listed["proxy"]?["address"] == "[::1]:8888")

            let created = try Self.json(RawClient.oneShot(port: port, "POST", "/__admin/projects", host: "localhost:18080", body: #"{"name":"container"}"#))
            #expect(created["baseURLs"]?["asleep"] == "http://localhost:18080/asleep")
            let reset = try Self.json(RawClient.oneShot(port: port, "POST", "/__admin/projects/demo/reset", host: "10.0.2.2:8080"))
            #expect(reset["baseURLs"]?["warplink"] == "http://10.0.2.2:8080/warplink")
            let openAPI = try Self.json(RawClient.oneShot(port: port, "GET", "/__admin/openapi/telematics.json", host: "10.0.2.2:8080"))
            #expect(openAPI["servers"]?[0]?["url"] == "http://10.0.2.2:8080/telematics")

            // The typed client reaches the server as 127.0.0.1:<port> and is told exactly that.
            let local = try await server.client.admin.project("demo").get()
            #expect(local.baseURLs["warplink"] == server.url.absoluteString + "/warplink")
        }
    }

    @Test("each SDK is told how it reaches Understudy: its base-URL setting, or the proxy and the CA")
    func connections() async throws {
        // Nothing but the plain port listens at first (the test binds the others by hand).
        try await UnderstudyTestServer.with(configure: {
            $0.httpsPort = nil; $0.proxyPort = nil
        }) { server in
            let before = try await server.client.admin.createProject(name: "off")
            #expect(before.httpsBaseURLs.isEmpty && before.proxy == Project.Proxy(address: nil, caCertificatePath: nil, caCertificateURL: nil))
            #expect(before.connections["warrantylife"]?.usesProxy == true && before.connections["warrantylife"]?.proxy == nil)

            Self.bindOthers(server)
            let project = try await server.client.admin.project(before.id).get()
            let warplink = try #require(project.connections["warplink"])
            #expect(!warplink.usesProxy && warplink.setting == "apiEndpoint" && warplink.value == project.sdkSettings["warplink"]?["apiEndpoint"])
            #expect(project.connections["telematics"]?.setting == "baseURL")
            let local = "127.0.0.1:8888"
            for (name, host) in [("warrantylife", "www.warrantylife.com"), ("asleep", "api.asleep.ai")] {
                let connection = try #require(project.connections[name])
                #expect(connection.usesProxy && connection.proxy == local && connection.realHosts?.first == host)
                #expect(connection.caCertificate == "/data/understudy-ca.pem" && connection.caCertificateURL == server.url.absoluteString + "/__admin/ca.pem")
            }
            // WarrantyLife's SDK takes exactly clientCode and apiKey; there is no base URL to paste.
            #expect(project.sdkSettings["warrantylife"] == ["clientCode": "wi", "apiKey": project.credential("warrantylife", "developerKey")])
        }
    }

    @Test("the banner gives base-URL settings or proxy advice per SDK, in text and JSON, within 100 columns")
    func banner() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let record = try #require(try await server.server.emulator.projects.list().first(where: \.isDemo))
            let addresses = ServerAddresses(
                listenHost: "0.0.0.0", httpPort: 8080, httpsPort: 8443, proxyPort: 8888,
                caCertificatePath: "/home/dev/understudy/data/understudy-ca.pem")
            let banner = StartupBanner(
                project: record, platforms: server.server.emulator.platforms, addresses: addresses,
                lanAddresses: ["192.168.1.50", "10.0.0.7"])
            let text = banner.text
            func section(_ platform: String) -> [Substring] {
                let lines = text.split(separator: "\n")
                guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(platform) ") }) else { return [] }
                return [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix(String(repeating: " ", count: 16)) }
            }
            let advice = "use the proxy: 127.0.0.1:8888, trust /home/dev/understudy/data/understudy-ca.pem"
            #expect(section("warrantylife").contains { $0.hasSuffix(advice) })
            #expect(section("warrantylife").contains { $0.contains("the SDK calls www.warrantylife.com over HTTPS") })
            #expect(section("asleep").contains { $0.hasSuffix(advice) } && section("asleep").contains { $0.contains("api.asleep.ai") })
            #expect(!section("warplink").isEmpty && !section("warplink").contains { $0.contains("proxy") })
            #expect(section("warplink").contains { $0.hasSuffix("apiEndpoint=http://127.0.0.1:8080/warplink/v1") })
            #expect(text.contains("HTTPS:         https://127.0.0.1:8443") && text.contains("Proxy:         127.0.0.1:8888"))
            #expect(text.contains("CA:            /home/dev/understudy/data/understudy-ca.pem"))
            #expect(text.contains("Other devices: http://192.168.1.50:8080  http://10.0.0.7:8080"))
            let wide = text.split(separator: "\n").filter { $0.count > 100 }
            #expect(wide.isEmpty, "lines over 100 columns: \(wide)")

            let fields = Dictionary(uniqueKeysWithValues: banner.fields)
            for name in ["warrantylife", "asleep"] {
                let connection = fields["platforms"]?[name]?["connection"]
                #expect(connection?["mode"] == "proxy" && connection?["proxy"] == "127.0.0.1:8888")
                #expect(connection?["caCertificate"] == "/home/dev/understudy/data/understudy-ca.pem")
            }
            #expect(fields["platforms"]?["warplink"]?["connection"]?["mode"] == "baseURL")
            #expect(fields["caCertificate"] == "/home/dev/understudy/data/understudy-ca.pem" && fields["https"] == "https://127.0.0.1:8443")
            #expect(fields["deviceURLs"] == ["http://192.168.1.50:8080", "http://10.0.0.7:8080"])

            // With nothing else bound the banner says so instead of advertising ports that do not listen.
            let bare = StartupBanner(project: record, platforms: server.server.emulator.platforms, addresses: ServerAddresses(httpPort: 8080)).text
            #expect(bare.contains("HTTPS:         off") && bare.contains("Proxy:         off") && bare.contains("use the proxy (it is off: start without --no-proxy)"))
            #expect(!bare.contains("Other devices") && bare.split(separator: "\n").allSatisfy { $0.count <= 100 })
        }
    }

    @Test("without a demo project the banner still gives the addresses and how to make a project; with many it shows three and counts the rest")
    func bannerWithoutDemo() async throws {
        try await UnderstudyTestServer.with { server in
            let platforms = server.server.emulator.platforms
            let addresses = ServerAddresses(httpPort: 8080)
            let empty = StartupBanner(projects: [], platforms: platforms, addresses: addresses)
            #expect(empty.text.contains("No project yet") && empty.text.contains("understudy projects create NAME"))
            #expect(empty.text.contains("Dashboard:     http://127.0.0.1:8080/__admin/ui") && empty.text.contains("HTTP:          http://127.0.0.1:8080"))
            #expect(empty.fields.first { $0.0 == "projects" }?.1 == .array([]))
            #expect(empty.text.split(separator: "\n").allSatisfy { $0.count <= 100 })
            for index in 0..<5 { _ = try await server.makeProject(name: "banner-\(index)") }
            let records = try await server.server.emulator.projects.list()
            #expect(records.count == 5 && !records.contains(where: \.isDemo))
            let text = StartupBanner(projects: records, platforms: platforms, addresses: addresses).text
            #expect(text.components(separatedBy: "is ready. Paste into each SDK:").count - 1 == 3)
            #expect(text.contains("…and 2 more projects") && !text.contains("No project yet"))
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
        }
    }

    @Test("the CA certificate is served publicly at /__admin/ca.pem, even when the control plane needs a token")
    func caCertificate() async throws {
        // No TLS listener, so no CA until the test sets a path.
        try await UnderstudyTestServer.with(configure: {
            $0.adminToken = "s3cret"; $0.httpsPort = nil; $0.proxyPort = nil
        }) { server in
            let port = server.server.http.port
            #expect(try RawClient.oneShot(port: port, "GET", "/__admin/ca.pem", host: "127.0.0.1").status == 404)
            let pem = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-ca-\(UUID().uuidString).pem")
            let contents = "-----BEGIN CERTIFICATE-----\nTUlJQ2ZEQ0NBZU9nQXdJQkFnSUJBREFO\n-----END CERTIFICATE-----\n"
            try contents.write(to: pem, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: pem) }
            server.server.emulator.services.setCACertificatePath(pem.path)
            let served = try RawClient.oneShot(port: port, "GET", "/__admin/ca.pem", host: "192.168.1.50:8080")
            #expect(served.status == 200 && String(decoding: served.body, as: UTF8.self) == contents)
            #expect(try RawClient.oneShot(port: port, "GET", "/__admin/projects", host: "127.0.0.1").status == 401)
        }
    }

    @Test("an unusable public URL is a usage error (exit 2), from the flag or the environment")
    func invalidPublicURL() async {
        for bad in ["192.168.1.50:8080", "http://192.168.1.50:8080/understudy", "ftp://host", "http://user@host:8080", "http://ho st"] {
            #expect(await UnderstudyCommand.main(["understudy", "--public-url", bad, "--no-https", "--no-proxy"], environment: [:]) == 2, "\(bad)")
        }
        #expect(await UnderstudyCommand.main(["understudy", "--no-https", "--no-proxy"], environment: ["UNDERSTUDY_PUBLIC_URL": "http://host?x"]) == 2)
    }
}
