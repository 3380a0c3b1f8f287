import HTTPServer
import Testing

@Suite("Address scope and destination policy")
struct AddressScopeTests {
    /// Every spelling of a loopback, unspecified, private, link-local or otherwise non-public
    /// address that the resolver accepts, with the scope it must get.
    static let nonPublic: [(String, AddressScope)] = [
        ("127.0.0.1", .loopback), ("127.1", .loopback), ("2130706433", .loopback), ("0x7f000001", .loopback),
        ("0177.0.0.1", .loopback), ("0x7f.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback), ("[::1]", .loopback),
        ("::ffff:127.0.0.1", .loopback), ("[::ffff:7f00:1]", .loopback), ("::127.0.0.1", .loopback), ("64:ff9b::7f00:1", .loopback),
        ("2002:7f00:1::1", .loopback),
        ("0.0.0.0", .unspecified), ("0", .unspecified), ("::", .unspecified), ("0.1.2.3", .unspecified),
        ("10.0.0.1", .privateNetwork), ("167772161", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.50", .privateNetwork), ("0xc0a80132", .privateNetwork), ("::ffff:10.1.2.3", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal), ("fec0::1", .uniqueLocal),
        ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
        ("240.0.0.1", .reserved), ("255.255.255.255", .reserved),
    ]

    static let global = [
        "8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.1.1",
        "192.167.1.1", "11.0.0.1", "2001:4860:4860::8888", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::1",
    ]

    @Test("every spelling of loopback, unspecified, private, link-local, CGNAT, multicast and reserved addresses is classified as such")
    func nonPublicSpellings() throws {
        for (text, scope) in Self.nonPublic {
            let address = try #require(NetworkAddress(literal: text), "\(text) did not parse")
            #expect(address.scope == scope, "\(text) → \(address) is \(address.scope), wanted \(scope)")
            #expect(!address.scope.isGlobal)
        }
    }

    @Test("public addresses, next to the private ranges' edges, are global")
    func publicAddresses() throws {
        for text in Self.global {
            let address = try #require(NetworkAddress(literal: text), "\(text) did not parse")
            #expect(address.scope == .global, "\(text) is \(address.scope)")
        }
    }

    @Test("literals are read as the resolver reads them; names are not literals")
    func literals() {
        #expect(NetworkAddress(literal: "2130706433")?.description == "127.0.0.1")
        #expect(NetworkAddress(literal: "0x7f000001")?.description == "127.0.0.1")
        #expect(NetworkAddress(literal: "127.1")?.description == "127.0.0.1")
        #expect(NetworkAddress(literal: "0177.0.0.1")?.description == "127.0.0.1")
        #expect(NetworkAddress(literal: "[::ffff:127.0.0.1]")?.description == "::ffff:127.0.0.1")
        #expect(NetworkAddress(literal: "fe80::1%25eth0") != nil)
        for name in ["localhost", "api.asleep.ai", "", "1.2.3.4.5", "[::1", "0x1g"] {
            #expect(NetworkAddress(literal: name) == nil, "\(name) parsed as a literal")
        }
    }

    @Test("localhost resolves to loopback addresses only")
    func localhostResolves() {
        let addresses = NetworkAddress.resolve("localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.scope == .loopback }, "\(addresses)")
    }

    @Test("the policy refuses every non-public address unless private targets are allowed, and this machine's own ports always")
    func policy() throws {
        let publicOnly = DestinationPolicy(allowsPrivate: false, ownPorts: [8888])
        let anywhere = DestinationPolicy(allowsPrivate: true, ownPorts: [8888])
        let interfaces: () -> Set<NetworkAddress> = { [NetworkAddress(ipv4: 192, 168, 1, 50), NetworkAddress(ipv4: 127, 0, 0, 1)] }
        for (text, scope) in Self.nonPublic {
            let address = try #require(NetworkAddress(literal: text))
            #expect(publicOnly.verdict(address, port: 443, interfaces: interfaces) == .privateAddress(scope), "\(text)")
            #expect(anywhere.verdict(address, port: 443, interfaces: interfaces) == .allowed, "\(text)")
        }
        for text in ["127.0.0.1", "127.1", "0.0.0.0", "::1", "::ffff:127.0.0.1", "192.168.1.50", "::ffff:192.168.1.50"] {
            let address = try #require(NetworkAddress(literal: text))
            #expect(anywhere.verdict(address, port: 8888, interfaces: interfaces) == .ownListener, "\(text)")
            #expect(publicOnly.verdict(address, port: 8888, interfaces: interfaces) == .ownListener, "\(text)")
        }
        // Another machine on the network, on the same port number, is not this server.
        let neighbour = try #require(NetworkAddress(literal: "192.168.1.51"))
        #expect(anywhere.verdict(neighbour, port: 8888, interfaces: interfaces) == .allowed)
        let outside = try #require(NetworkAddress(literal: "8.8.8.8"))
        #expect(publicOnly.verdict(outside, port: 8888, interfaces: interfaces) == .allowed)
        // This machine's public address is still this machine.
        #expect(publicOnly.verdict(outside, port: 8888, interfaces: { [outside] }) == .ownListener)
    }
}
