import COpenSSL
import Foundation
import Testing

@testable import HTTPServer

/// Leaves minted by the local CA: what they contain, whom they verify for, the default identity,
/// garbage names and the cache.
@Suite("Local certificate authority: leaves")
struct LeafCertificateTests {
    private static func authority(defaultNames: [String] = [], cacheCapacity: Int = 1_024) throws -> LocalCertificateAuthority {
        try LocalCertificateAuthority(directory: CertificateInspection.temporaryFolder("leaf"), defaultNames: defaultNames, cacheCapacity: cacheCapacity)
    }

    @Test(
        "every platform host gets a leaf that verifies against the exported CA with the hostname check on",
        arguments: ["api.warplink.app", "aplnk.to", "api.asleep.ai", "test-api.asleep.ai", "www.warrantylife.com", "telematics.example.com"])
    func platformHosts(host: String) throws {
        let authority = try Self.authority()
        let leaf = authority.leaf(for: host)
        let ca = try authority.exportCertificate(as: .pem)
        #expect(CertificateInspection.verifies(leaf, against: ca, host: host))
        #expect(!CertificateInspection.verifies(leaf, against: ca, host: "other.example.com"))
        #expect(CertificateInspection(certificate: leaf.certificate).subjectAltNames == ["DNS:\(host)"])
    }

    @Test("a leaf's extensions: CA:FALSE and digitalSignature critical, serverAuth, SAN, SKI and AKI, ≤ 397 days")
    func extensions() throws {
        let authority = try Self.authority()
        let leaf = authority.leaf(for: "api.warplink.app")
        let inspection = CertificateInspection(certificate: leaf.certificate)
        let constraints = try #require(inspection.basicConstraints)
        #expect(!constraints.isAuthority)
        #expect(inspection.isCritical(NID_basic_constraints) == true)
        #expect(inspection.keyUsage == UInt32(KU_DIGITAL_SIGNATURE))
        #expect(inspection.isCritical(NID_key_usage) == true)
        #expect(inspection.extendedKeyUsage == UInt32(XKU_SSL_SERVER))
        #expect(inspection.isCritical(NID_ext_key_usage) == false)
        #expect(inspection.isCritical(NID_subject_alt_name) == false)
        #expect(inspection.commonName == "api.warplink.app" && inspection.organisation == "Understudy")
        #expect(inspection.curveName == "prime256v1" && inspection.signatureAlgorithm == NID_ecdsa_with_SHA256)
        #expect(!inspection.serial.negative && inspection.serial.bits > 120)

        let ca = try #require(CertificateInspection.parse(pem: try authority.exportCertificate(as: .pem)))
        defer { X509_free(ca) }
        let authoritySKI = try #require(CertificateInspection(certificate: ca).subjectKeyIdentifier)
        #expect(inspection.authorityKeyIdentifier == authoritySKI)
        #expect(inspection.subjectKeyIdentifier != nil && inspection.subjectKeyIdentifier != authoritySKI)
        #expect(inspection.issuerCommonName == CertificateInspection(certificate: ca).commonName)

        let validity = inspection.validity
        #expect(validity.days <= 397, "\(validity.days) days")
        #expect(validity.days >= 365, "\(validity.days) days")
        #expect(validity.startedSecondsAgo > 0, "notBefore must be in the past for clients whose clock lags")
        #expect(leaf.chain.count == 1 && X509_cmp(leaf.chain[0], ca) == 0)
    }

    @Test("two leaves for different names have different keys and serials")
    func distinctLeaves() throws {
        let authority = try Self.authority()
        let first = authority.leaf(for: "a.example.test"), second = authority.leaf(for: "b.example.test")
        #expect(EVP_PKEY_eq(first.privateKey, second.privateKey) != 1)
        #expect(ASN1_INTEGER_cmp(X509_get0_serialNumber(first.certificate), X509_get0_serialNumber(second.certificate)) != 0)
    }

    @Test("a wildcard leaf covers one label below its base and nothing else")
    func wildcard() throws {
        let authority = try Self.authority()
        let leaf = authority.leaf(for: "*.aplnk.to")
        let ca = try authority.exportCertificate(as: .pem)
        #expect(CertificateInspection(certificate: leaf.certificate).subjectAltNames == ["DNS:*.aplnk.to"])
        #expect(CertificateInspection.verifies(leaf, against: ca, host: "demo.aplnk.to"))
        #expect(!CertificateInspection.verifies(leaf, against: ca, host: "aplnk.to"))
        #expect(!CertificateInspection.verifies(leaf, against: ca, host: "a.b.aplnk.to"))
    }

    @Test("IP literals get an IP SAN: IPv4, IPv6 with or without brackets, in canonical form")
    func addresses() throws {
        let authority = try Self.authority()
        let ca = try authority.exportCertificate(as: .pem)
        let v4 = authority.leaf(for: "10.0.2.2")
        #expect(CertificateInspection(certificate: v4.certificate).subjectAltNames == ["IP:10.0.2.2"])
        #expect(CertificateInspection.verifies(v4, against: ca, address: "10.0.2.2"))
        #expect(!CertificateInspection.verifies(v4, against: ca, address: "10.0.2.3"))
        let v6 = authority.leaf(for: "[2001:DB8:0:0::1]")
        #expect(CertificateInspection(certificate: v6.certificate).subjectAltNames == ["IP:2001:db8::1"])
        #expect(CertificateInspection.verifies(v6, against: ca, address: "2001:db8::1"))
        #expect(authority.leaf(for: "2001:db8::1") === v6, "the same address in another spelling shares the leaf")
    }

    @Test("names are normalised: case and a trailing dot do not make a new leaf")
    func normalisation() throws {
        let authority = try Self.authority()
        let leaf = authority.leaf(for: "API.Asleep.AI.")
        #expect(CertificateInspection(certificate: leaf.certificate).subjectAltNames == ["DNS:api.asleep.ai"])
        #expect(authority.leaf(for: "api.asleep.ai") === leaf)
        #expect(authority.cachedLeafCount == 1)
    }

    @Test("the default identity covers localhost, 127.0.0.1, ::1 and the extra names, and verifies for each")
    func defaultIdentity() throws {
        let authority = try Self.authority(defaultNames: ["192.168.1.50", "Dev.Example.Test", "not a name", "localhost"])
        let identity = authority.defaultIdentity
        #expect(
            CertificateInspection(certificate: identity.certificate).subjectAltNames
                == ["DNS:localhost", "IP:127.0.0.1", "IP:::1", "IP:192.168.1.50", "DNS:dev.example.test"])
        let ca = try authority.exportCertificate(as: .pem)
        #expect(CertificateInspection.verifies(identity, against: ca, host: "localhost"))
        #expect(CertificateInspection.verifies(identity, against: ca, host: "dev.example.test"))
        for address in ["127.0.0.1", "::1", "192.168.1.50"] {
            #expect(CertificateInspection.verifies(identity, against: ca, address: address), "\(address)")
        }
        #expect(authority.leaf(for: "LOCALHOST") === identity)
        #expect(authority.leaf(for: "127.0.0.1") === identity)
        #expect(authority.cachedLeafCount == 0)
    }

    @Test(
        "garbage names get the default identity and are never minted or cached",
        arguments: [
            "", ".", "..", "a b", "exa mple.com", "-bad.example", "bad-.example", "x..y", "*", "*.com", "a.*.example",
            "*x.example.com", "1.2.3", "999.1.1.1", "fe80::1%eth0", "[::1", "ex\u{0}ample.com", "exämple.com",
            "under_score.example", "a,DNS:evil.example", "a:b", String(repeating: "a", count: 64) + ".example",
            String(repeating: "abcdefgh.", count: 29) + "com",
        ])
    func garbage(name: String) throws {
        let authority = try Self.authority()
        #expect(authority.leaf(for: name) === authority.defaultIdentity)
        #expect(authority.cachedLeafCount == 0)
    }

    @Test("the longest valid name (253 bytes, 63-byte labels) is minted; its CN is left out, the SAN carries it")
    func longestName() throws {
        let label = String(repeating: "a", count: 63)
        let name = [label, label, label, String(repeating: "b", count: 61)].joined(separator: ".")
        #expect(name.utf8.count == 253)
        let authority = try Self.authority()
        let leaf = authority.leaf(for: name)
        #expect(leaf !== authority.defaultIdentity)
        #expect(CertificateInspection(certificate: leaf.certificate).commonName == nil)
        #expect(CertificateInspection.verifies(leaf, against: try authority.exportCertificate(as: .pem), host: name))
    }

    @Test("the cache keeps at most its capacity, dropping the least recently used name")
    func cacheBound() throws {
        let authority = try Self.authority(cacheCapacity: 4)
        let first = authority.leaf(for: "n0.example.test")
        let second = authority.leaf(for: "n1.example.test")
        _ = authority.leaf(for: "n2.example.test")
        _ = authority.leaf(for: "n3.example.test")
        #expect(authority.cachedLeafCount == 4)
        #expect(authority.leaf(for: "n0.example.test") === first) // now the most recently used
        for index in 4..<20 {
            _ = authority.leaf(for: "n\(index).example.test")
            #expect(authority.cachedLeafCount <= 4)
        }
        #expect(authority.cachedLeafCount == 4)
        #expect(authority.leaf(for: "n1.example.test") !== second, "evicted, so minted again")
        // An evicted identity still holds its own references: it keeps verifying.
        #expect(CertificateInspection.verifies(second, against: try authority.exportCertificate(as: .pem), host: "n1.example.test"))
    }

    @Test("the LRU order itself: a lookup refreshes an entry, an insert into a full cache drops the oldest")
    func leastRecentlyUsedOrder() {
        var cache = LeastRecentlyUsedCache<String, Int>(capacity: 2)
        cache.insert(1, for: "a")
        cache.insert(2, for: "b")
        #expect(cache.value(for: "a") == 1)
        cache.insert(3, for: "c")
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        cache.insert(4, for: "c") // replacing keeps the count
        #expect(cache.count == 2 && cache.value(for: "c") == 4)
    }

    @Test("many threads asking for the same new names at once all get verifying leaves, and one per name is cached")
    func concurrentMinting() async throws {
        let authority = try Self.authority()
        let ca = try authority.exportCertificate(as: .pem)
        let names = (0..<8).map { "c\($0).example.test" }
        let verified = await withTaskGroup(of: Bool.self) { group in
            for round in 0..<64 {
                let name = names[round % names.count]
                group.addTask { CertificateInspection.verifies(authority.leaf(for: name), against: ca, host: name) }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(verified == 64)
        #expect(authority.cachedLeafCount == names.count)
        for name in names { #expect(authority.leaf(for: name) === authority.leaf(for: name)) }
    }

    @Test("an identity installs on an SSL_CTX and on an SSL, replacing the context's certificate and chain")
    func install() throws {
        let authority = try Self.authority()
        let context = try #require(SSL_CTX_new(TLS_server_method()))
        defer { SSL_CTX_free(context) }
        #expect(authority.defaultIdentity.install(onContext: context))
        let ssl = try #require(SSL_new(context))
        defer { SSL_free(ssl) }
        #expect(SSL_get_certificate(ssl).map { X509_cmp($0, authority.defaultIdentity.certificate) } == 0)
        let leaf = authority.leaf(for: "api.warplink.app")
        #expect(leaf.install(onConnection: ssl))
        #expect(SSL_get_certificate(ssl).map { X509_cmp($0, leaf.certificate) } == 0)
        #expect(SSL_check_private_key(ssl) == 1)
        let pem = try leaf.certificateChainPEM()
        #expect(pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
        #expect(try leaf.privateKeyPEM().hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }
}
