import EmulatorCore
import HTTPServer
import Testing

@Suite("Advertised endpoints: public URL, Host-derived URLs, fallback")
struct AdvertisedEndpointsTests {
    /// A server on 0.0.0.0 with every listener bound and a CA.
    private let everything = ServerAddresses(
        listenHost: "0.0.0.0", httpPort: 8080, httpsPort: 8443, proxyPort: 8888,
        caCertificatePath: "/data/understudy-ca.pem")

    @Test("the public URL wins over the Host and the listen address; HTTPS and the proxy keep its host")
    func publicURLWins() {
        var addresses = everything
        addresses.publicURL = PublicURL("http://192.168.1.50:8080/")
        #expect(addresses.publicURL?.origin == "http://192.168.1.50:8080")
        for listener in [ConnectionInfo.Listener.http, .https, .proxy] {
            let endpoints = addresses.advertised(forHost: "localhost:18080", listener: listener)
            #expect(
                endpoints
                    == AdvertisedEndpoints(
                        baseURL: "http://192.168.1.50:8080", httpsBaseURL: "https://192.168.1.50:8443",
                        proxyAddress: "192.168.1.50:8888", caCertificatePath: "/data/understudy-ca.pem",
                        caCertificateURL: "http://192.168.1.50:8080/__admin/ca.pem", isPublicURL: true))
        }
        #expect(addresses.advertised.baseURL == "http://192.168.1.50:8080")
    }

    @Test("an https public URL (a TLS-terminating front) is the base and the HTTPS URL alike")
    func httpsPublicURL() {
        var addresses = everything
        addresses.httpsPort = nil
        addresses.publicURL = PublicURL("HTTPS://Understudy.Example.com")
        let endpoints = addresses.advertised
        #expect(endpoints.baseURL == "https://understudy.example.com" && endpoints.httpsBaseURL == "https://understudy.example.com")
        #expect(endpoints.proxyAddress == "understudy.example.com:8888")
    }

    @Test("without a public URL the Host of the request is advertised, with the other ports on its host")
    func hostDerived() {
        let emulator = everything.advertised(forHost: "10.0.2.2:8080", listener: .http)
        #expect(emulator.baseURL == "http://10.0.2.2:8080" && emulator.httpsBaseURL == "https://10.0.2.2:8443")
        #expect(emulator.proxyAddress == "10.0.2.2:8888" && emulator.caCertificateURL == "http://10.0.2.2:8080/__admin/ca.pem")
        #expect(!emulator.isPublicURL)
        let container = everything.advertised(forHost: "LOCALHOST:18080", listener: .http)
        #expect(container.baseURL == "http://localhost:18080")
        let ipv6 = everything.advertised(forHost: "[::1]:8080", listener: .http)
        #expect(ipv6.baseURL == "http://[::1]:8080" && ipv6.httpsBaseURL == "https://[::1]:8443" && ipv6.proxyAddress == "[::1]:8888")
        // No port in Host: the client came through port 80 (a front), so none is added.
        #expect(everything.advertised(forHost: "understudy.local", listener: .http).baseURL == "http://understudy.local")
    }

    @Test("a request on the HTTPS port gets its Host as the HTTPS URL and the plain port on the same host")
    func overHTTPS() {
        let endpoints = everything.advertised(forHost: "localhost:9443", listener: .https)
        #expect(endpoints.httpsBaseURL == "https://localhost:9443" && endpoints.baseURL == "http://localhost:8080")
    }

    @Test("through the proxy, Host names the proxied target, so the listen address is advertised")
    func viaProxy() {
        #expect(everything.advertised(forHost: "api.warplink.app", listener: .proxy).baseURL == "http://127.0.0.1:8080")
    }

    @Test("a Host that is not plainly host[:port] is never reflected: the listen address is used")
    func garbageFallsBack() {
        let garbage = [
            "", " ", "a b", "evil.com/path", "x\r\nSet-Cookie: y", "host:99999", "host:0", "host:8o", "::1", "[::1",
            "[]", "[::1]x", "[zz::1]:80", "user@host", "%41.com", "exa'mple.com", "<script>", "a\"b", ".lead", "-lead",
            String(repeating: "a", count: 300), "[fe80::1%25eth0]:80", "host:80:80",
        ]
        for host in garbage {
            let endpoints = everything.advertised(forHost: host, listener: .http)
            #expect(endpoints.baseURL == "http://127.0.0.1:8080", "Host `\(host)` was reflected as \(endpoints.baseURL)")
            #expect(endpoints.proxyAddress == "127.0.0.1:8888")
        }
        #expect(everything.advertised(forHost: nil, listener: .http).baseURL == "http://127.0.0.1:8080")
    }

    @Test("the listen address: wildcards become 127.0.0.1, IPv6 literals get brackets, unbound listeners are nil")
    func listenAddress() {
        #expect(ServerAddresses(listenHost: "::", httpPort: 1).advertised.baseURL == "http://127.0.0.1:1")
        #expect(ServerAddresses(listenHost: "::1", httpPort: 2).advertised.baseURL == "http://[::1]:2")
        #expect(ServerAddresses(listenHost: "192.168.1.50", httpPort: 3).advertised.baseURL == "http://192.168.1.50:3")
        let bare = ServerAddresses(listenHost: "127.0.0.1", httpPort: 4).advertised
        #expect(bare.httpsBaseURL == nil && bare.proxyAddress == nil && bare.caCertificatePath == nil && bare.caCertificateURL == nil)
    }

    @Test("public URLs parse only as http(s) with a plain authority and nothing after it")
    func publicURLSyntax() {
        for good in ["http://192.168.1.50:8080", "http://10.0.2.2:8080/", "https://understudy.example.com", "http://[fd00::5]:8080", "http://docker_host:80"] {
            #expect(PublicURL(good) != nil, "\(good)")
        }
        for bad in [
            "192.168.1.50:8080", "ftp://host", "http://", "http://host/path", "http://host?x=1", "http://host#f", "http://u:p@host",
            "http://host:99999", "http://ho st", "http://host:8080//", "javascript:alert(1)",
        ] {
            #expect(PublicURL(bad) == nil, "\(bad)")
        }
        #expect(PublicURL("http://[FD00::5]:8080")?.origin == "http://[fd00::5]:8080")
        #expect(Authority("example.com.:443") == Authority("example.com:443"))
    }
}
