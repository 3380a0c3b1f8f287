import COpenSSL
import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// The CA on disk: its files, their modes, reuse, reset, export and what a damaged file gives.
@Suite("Local certificate authority: files")
struct LocalCertificateAuthorityTests {
    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    @Test("first use creates the folder, a 0600 key file and a 0644 certificate file")
    func createsFiles() throws {
        let folder = CertificateInspection.temporaryFolder() + "/nested/data"
        let authority = try LocalCertificateAuthority(directory: folder)
        #expect(authority.certificatePath == folder + "/understudy-ca.pem")
        #expect(authority.keyPath == folder + "/understudy-ca.key")
        #expect(try mode(authority.keyPath) == 0o600)
        #expect(try mode(authority.certificatePath) == 0o644)
        let keyText = String(decoding: bytes(authority.keyPath), as: UTF8.self)
        #expect(keyText.contains("-----BEGIN PRIVATE KEY-----"))
        let certificateText = String(decoding: bytes(authority.certificatePath), as: UTF8.self)
        #expect(certificateText.hasPrefix("-----BEGIN CERTIFICATE-----") && !certificateText.contains("PRIVATE KEY"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
    }

    @Test("the CA certificate: subject, P-256 key, ECDSA-SHA256, 10 years, CA:TRUE pathlen 0, keyCertSign+cRLSign, SKI")
    func authorityCertificate() throws {
        let authority = try LocalCertificateAuthority(directory: CertificateInspection.temporaryFolder())
        let certificate = try #require(CertificateInspection.parse(pem: try authority.exportCertificate(as: .pem)))
        defer { X509_free(certificate) }
        let inspection = CertificateInspection(certificate: certificate)
        #expect(inspection.commonName?.hasPrefix("Understudy Local CA (") == true && inspection.commonName?.hasSuffix(")") == true)
        #expect(inspection.organisation == "Understudy")
        #expect(inspection.issuerCommonName == inspection.commonName)
        #expect(inspection.curveName == "prime256v1")
        #expect(inspection.signatureAlgorithm == NID_ecdsa_with_SHA256)
        let constraints = try #require(inspection.basicConstraints)
        #expect(constraints.isAuthority && constraints.pathLength == 0)
        #expect(inspection.isCritical(NID_basic_constraints) == true)
        #expect(inspection.isCritical(NID_key_usage) == true)
        #expect(inspection.keyUsage == UInt32(KU_KEY_CERT_SIGN | KU_CRL_SIGN))
        #expect(inspection.subjectKeyIdentifier?.count == 20)
        let validity = inspection.validity
        #expect((3_650...3_654).contains(validity.days), "\(validity.days) days")
        #expect((86_000...87_000).contains(validity.startedSecondsAgo), "notBefore \(validity.startedSecondsAgo) s ago")
        // 16 random bytes with the top bit clear: positive, at most 127 bits, at least 121 (first byte non-zero).
        #expect(!inspection.serial.negative && (121...127).contains(inspection.serial.bits), "\(inspection.serial)")
    }

    @Test("a second instance on the same folder reuses the CA: same certificate bytes, leaves verify across")
    func reuse() throws {
        let folder = CertificateInspection.temporaryFolder()
        let first = try LocalCertificateAuthority(directory: folder)
        let keyBefore = bytes(first.keyPath)
        let second = try LocalCertificateAuthority(directory: folder)
        #expect(try first.exportCertificate(as: .pem) == second.exportCertificate(as: .pem))
        #expect(try first.exportCertificate(as: .der) == second.exportCertificate(as: .der))
        #expect(bytes(second.keyPath) == keyBefore)
        let leaf = first.leaf(for: "api.warplink.app")
        #expect(CertificateInspection.verifies(leaf, against: try second.exportCertificate(as: .pem), host: "api.warplink.app"))
    }

    @Test("reset makes a new CA: new files, the old CA's leaves no longer verify, new ones do, the cache is emptied")
    func reset() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        let oldPEM = try authority.exportCertificate(as: .pem)
        let oldLeaf = authority.leaf(for: "api.asleep.ai")
        let oldDefault = authority.defaultIdentity
        #expect(authority.cachedLeafCount == 1)
        try authority.reset()
        let newPEM = try authority.exportCertificate(as: .pem)
        #expect(newPEM != oldPEM)
        #expect(bytes(authority.certificatePath) == newPEM)
        #expect(try mode(authority.keyPath) == 0o600)
        #expect(authority.cachedLeafCount == 0)
        #expect(CertificateInspection.verifies(oldLeaf, against: oldPEM, host: "api.asleep.ai"))
        #expect(!CertificateInspection.verifies(oldLeaf, against: newPEM, host: "api.asleep.ai"))
        #expect(!CertificateInspection.verifies(oldDefault, against: newPEM, host: "localhost"))
        let newLeaf = authority.leaf(for: "api.asleep.ai")
        #expect(newLeaf !== oldLeaf)
        #expect(CertificateInspection.verifies(newLeaf, against: newPEM, host: "api.asleep.ai"))
        #expect(CertificateInspection.verifies(authority.defaultIdentity, against: newPEM, host: "localhost"))
        // The reset CA is what the next start loads.
        #expect(try LocalCertificateAuthority(directory: folder).exportCertificate(as: .pem) == newPEM)
    }

    @Test("export: PEM is one certificate and no key; DER parses to the same certificate")
    func export() throws {
        let authority = try LocalCertificateAuthority(directory: CertificateInspection.temporaryFolder())
        let pem = try authority.exportCertificate(as: .pem)
        let text = String(decoding: pem, as: UTF8.self)
        #expect(text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 2)
        #expect(!text.contains("PRIVATE KEY"))
        let der = try authority.exportCertificate(as: .der)
        #expect(der.first == 0x30) // an ASN.1 SEQUENCE
        let fromDER = try #require(CertificateInspection.parse(der: der))
        defer { X509_free(fromDER) }
        let fromPEM = try #require(CertificateInspection.parse(pem: pem))
        defer { X509_free(fromPEM) }
        #expect(X509_cmp(fromDER, fromPEM) == 0)
    }

    @Test("a corrupt key file is an error naming that file, and the file is left alone")
    func corruptKey() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        try Data("-----BEGIN PRIVATE KEY-----\nnot base64 at all\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: authority.keyPath))
        let error = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        guard case .corrupt(let path, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == authority.keyPath)
        #expect(error?.description.contains("understudy-ca.key") == true)
        #expect(error?.description.contains("understudy ca reset") == true)
        #expect(String(decoding: bytes(authority.keyPath), as: UTF8.self).contains("not base64"))
        // reset recovers from the damage.
        try authority.reset()
        #expect(throws: Never.self) { _ = try LocalCertificateAuthority(directory: folder) }
    }

    @Test("a missing key beside a certificate, or a missing certificate beside a bare key, is `incomplete`")
    func halfPresent() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        let keyBytes = bytes(authority.keyPath)
        try FileManager.default.removeItem(atPath: authority.keyPath)
        let missingKey = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        #expect(missingKey == .incomplete(present: authority.certificatePath, missing: authority.keyPath))

        // A key file holding only the key (as the openssl tool writes it) needs the certificate file.
        let bareKey = String(decoding: keyBytes, as: UTF8.self).components(separatedBy: "-----BEGIN CERTIFICATE-----")[0]
        try Data(bareKey.utf8).write(to: URL(fileURLWithPath: authority.keyPath))
        try FileManager.default.removeItem(atPath: authority.certificatePath)
        let missingCertificate = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        #expect(missingCertificate == .incomplete(present: authority.keyPath, missing: authority.certificatePath))
    }

    @Test("a bare key with a garbage certificate file names the certificate; with another CA's certificate, both")
    func bareKeyProblems() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        let bareKey = String(decoding: bytes(authority.keyPath), as: UTF8.self).components(separatedBy: "-----BEGIN CERTIFICATE-----")[0]
        try Data(bareKey.utf8).write(to: URL(fileURLWithPath: authority.keyPath))
        #expect(throws: Never.self) { _ = try LocalCertificateAuthority(directory: folder) } // key + matching .pem is fine

        try Data("garbage".utf8).write(to: URL(fileURLWithPath: authority.certificatePath))
        let garbage = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        guard case .corrupt(let path, _)? = garbage else { Issue.record("\(String(describing: garbage))"); return }
        #expect(path == authority.certificatePath)

        let other = try LocalCertificateAuthority(directory: CertificateInspection.temporaryFolder())
        try Data(try other.exportCertificate(as: .pem)).write(to: URL(fileURLWithPath: authority.certificatePath))
        let mismatch = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        #expect(mismatch == .mismatched(certificate: authority.certificatePath, key: authority.keyPath))
    }

    @Test("a reset interrupted after the key file was replaced is repaired from the key file on the next load")
    func interruptedReset() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        let oldCertificate = bytes(authority.certificatePath)
        try authority.reset()
        let newPEM = try authority.exportCertificate(as: .pem)
        // The state a crash between the two renames leaves: new key file, old certificate file.
        try Data(oldCertificate).write(to: URL(fileURLWithPath: authority.certificatePath))
        let reloaded = try LocalCertificateAuthority(directory: folder)
        #expect(try reloaded.exportCertificate(as: .pem) == newPEM)
        #expect(bytes(authority.certificatePath) == newPEM)
    }

    @Test("a certificate file that is not a CA is refused with its name")
    func notAuthority() throws {
        let folder = CertificateInspection.temporaryFolder()
        let authority = try LocalCertificateAuthority(directory: folder)
        let leaf = authority.leaf(for: "example.test")
        let keyFile = try leaf.privateKeyPEM() + leaf.certificateChainPEM()
        try Data(keyFile.utf8).write(to: URL(fileURLWithPath: authority.keyPath))
        let error = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        guard case .corrupt(let path, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == authority.keyPath && reason.contains("not a CA"))
    }
}

/// Several instances (threads here, processes in life) opening a fresh folder at once.
@Suite("Local certificate authority: concurrent first use")
struct LocalCertificateAuthorityRaceTests {
    @Test("instances racing on a fresh folder all load one and the same CA")
    func racingCreation() throws {
        let folder = CertificateInspection.temporaryFolder("race")
        let racers = 16
        let exports = Mutex<[[UInt8]]>([])
        let ready = DispatchGroup(), finished = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        // Plain threads released together by one gate: the cooperative pool would run the racers
        // only two at a time on a small machine, hiding the race this test exists to catch.
        for _ in 0..<racers {
            ready.enter()
            finished.enter()
            Thread {
                ready.leave()
                gate.wait()
                if let pem = try? LocalCertificateAuthority(directory: folder).exportCertificate(as: .pem) {
                    exports.withLock { $0.append(pem) }
                }
                finished.leave()
            }.start()
        }
        ready.wait()
        for _ in 0..<racers { gate.signal() }
        finished.wait()
        let all = exports.withLock { $0 }.map { String(decoding: $0, as: UTF8.self) }
        #expect(all.count == racers)
        #expect(Set(all).count == 1, "\(Set(all).count) different CAs")
        #expect(FileManager.default.contents(atPath: folder + "/understudy-ca.pem").map { String(decoding: $0, as: UTF8.self) } == all.first)
    }
}
