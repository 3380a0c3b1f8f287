import Foundation
import HTTPServer
import Testing

@testable import EmulatorCore

/// The host allow-list: which `Host` names the server answers to, and what the others get.
@Suite("Host allow-list")
struct HostAllowListTests {
    private func request(_ method: HTTPMethod = .get, _ target: String, host: String?, body: Data = Data()) -> Request {
        var fields = HTTPHeaders()
        if let host { fields.add("Host", host) }
        if !body.isEmpty { fields.add("Content-Type", "application/json") }
        return Request(method: method, target: target, headers: fields, body: body)
    }

    private func allowList(_ configured: [String] = [], publicURL: String? = nil, listenHost: String = "127.0.0.1") -> HostAllowList {
        let addresses = ServerAddresses(listenHost: listenHost, publicURL: publicURL.flatMap(PublicURL.init))
        return HostAllowList(configured: configured.compactMap(AllowedHostName.init), platforms: [TestPlatform()], addresses: { addresses })
    }

    @Test("IP literals, localhost and its subdomains, host.docker.internal and emulated hosts pass; other names do not")
    func builtInNames() {
        let list = allowList()
        let admitted = [
            "127.0.0.1", "127.0.0.1:8080", "10.0.2.2:8080", "192.168.1.50", "[::1]:8080", "[fe80::1]", "[::ffff:127.0.0.1]:80",
            "localhost", "LOCALHOST:8080", "localhost.", "app.localhost:3000", "host.docker.internal:8080",
            "api.test.example", "api.test.example:443",
            // A name whose last label is a number is an address to a browser (127.1 is 127.0.0.1), never a page's name.
            "127.1", "2130706433", "0x7f.1", "0X7F.1:80", "127.0.0.1.:8080",
        ]
        for host in admitted { #expect(list.admits(request(.get, "/__admin/projects", host: host)), "\(host)") }
        let refused = [
            "attacker.example", "attacker.example:8080", "ATTACKER.example", "127.0.0.1.nip.io", "localhost.attacker.example",
            "attacker.example.", "notlocalhost", "x.test.example", "host.docker.internal.evil", "0x7g", ":8080",
        ]
        for host in refused { #expect(!list.admits(request(.get, "/__admin/projects", host: host)), "\(host)") }
    }

    @Test("a request without Host (HTTP/1.0, which no browser sends) is answered")
    func noHost() {
        #expect(allowList().admits(request(.get, "/__admin/projects", host: nil)))
        #expect(allowList().admits(request(.get, "/__admin/projects", host: "")))
    }

    @Test("configured names: exact, or a domain with every name under it; the public URL's and the listen address's host")
    func configuredNames() {
        let list = allowList(
            ["phone.local", ".ngrok.example", "*.corp.example", "Understudy."],
            publicURL: "https://sandbox.example.org", listenHost: "devbox.lan")
        for host in [
            "phone.local:8080", "abc.ngrok.example", "ngrok.example", "a.b.corp.example", "corp.example", "understudy:8080",
            "sandbox.example.org", "devbox.lan:8080",
        ] {
            #expect(list.admits(request(.get, "/", host: host)), "\(host)")
        }
        for host in ["other.local", "phone.local.evil", "xngrok.example", "ngrok.example.evil", "corpxexample", "www.sandbox.example.org"] {
            #expect(!list.admits(request(.get, "/", host: host)), "\(host)")
        }
    }

    @Test("allowed host names parse strictly: no scheme, port, path or stray character")
    func allowedHostNameParsing() throws {
        #expect(AllowedHostName("Phone.Local") == AllowedHostName("phone.local."))
        let domain = try #require(AllowedHostName("*.example.com"))
        #expect(domain.includesSubdomains && domain.name == "example.com" && domain.description == ".example.com")
        #expect(AllowedHostName(".example.com") == domain)
        for bad in ["", ".", "*.", "http://phone.local", "phone.local:8080", "phone.local/x", "a..b", "-a.example", "[::1]", "exa mple", "*"] {
            #expect(AllowedHostName(bad) == nil, "\(bad)")
        }
    }

    @Test("in process: a foreign Host gets 421 naming --allowed-host, in the control plane's format or the platform's, journalled, nothing made")
    func refusedInProcess() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let create = await harness.emulator.respond(
            to: request(
                .post, "/__admin/projects", host: "attacker.example:8080",
                body: Data(#"{"id":"rebound","name":"x"}"#.utf8)))
        #expect(create.status == 421)
        let message = try JSONValue.parse(create.body)
        #expect(message["error"]?["code"]?.stringValue == "misdirected_request")
        #expect(message["error"]?["message"]?.stringValue?.contains("--allowed-host attacker.example") == true)
        let read = await harness.emulator.respond(to: request(.get, "/__admin/projects", host: "attacker.example"))
        #expect(read.status == 421 && !String(decoding: read.body, as: UTF8.self).contains("projects\""))
        // A platform path answers in that platform's own format.
        let sdk = await harness.emulator.respond(to: request(.get, "/testing/items", host: "attacker.example"))
        #expect(sdk.status == 421)
        #expect(try JSONValue.parse(sdk.body)["error"]?["code"]?.stringValue == "E421")
        // Nothing was created, and the refusals are in the journal with no project.
        #expect(try await harness.emulator.projects.list().isEmpty)
        let entries = try await harness.emulator.journal.query(project: nil, filter: JournalFilter(status: 421)).entries
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0.projectID == nil })
        #expect(Set(entries.map(\.platform)) == ["admin", "testing"])
        // The same requests under an allowed name are answered.
        #expect(await harness.emulator.respond(to: request(.get, "/__admin/projects", host: "localhost:8080")).status == 200)
    }

    @Test("in process: a configured name is answered")
    func configuredInProcess() async throws {
        let harness = try await Harness(allowedHosts: [try #require(AllowedHostName(".tunnel.example"))])
        defer { Task { await harness.stop() } }
        #expect(await harness.emulator.respond(to: request(.get, "/__admin/projects", host: "abc.tunnel.example")).status == 200)
        #expect(await harness.emulator.respond(to: request(.get, "/__admin/projects", host: "tunnel.example.evil")).status == 421)
        #expect(harness.emulator.admitsHost(request(.get, "/__admin/ui", host: "abc.tunnel.example")))
        #expect(!harness.emulator.admitsHost(request(.get, "/__admin/ui", host: "attacker.example")))
    }
}
