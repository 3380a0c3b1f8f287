import Foundation
import HTTPServer
import Testing

/// The CA's files are written through `AtomicFile`: a link at the key's or the certificate's name
/// is refused, naming it, and whatever it points at is left alone.
@Suite("Local certificate authority: links in the folder")
struct CertificateAuthorityLinkTests {
    private func folderWithVictim() throws -> (folder: String, victim: String) {
        let folder = CertificateInspection.temporaryFolder("ca-links")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let victim = folder + "/victim"
        try Data("the victim's own bytes".utf8).write(to: URL(fileURLWithPath: victim))
        return (folder, victim)
    }

    @Test("a dangling link at the key's name: creating the CA fails naming the key file, and nothing is created through it")
    func danglingKeyLink() throws {
        let (folder, _) = try folderWithVictim()
        let key = folder + "/" + LocalCertificateAuthority.keyFileName
        try FileManager.default.createSymbolicLink(atPath: key, withDestinationPath: folder + "/key-through-the-link")
        let error = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority(directory: folder) }
        guard case .io(let path, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == key && reason.contains("symbolic link"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/key-through-the-link"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: key)) == folder + "/key-through-the-link")
    }

    @Test("`ca reset` over a link at the certificate's name fails naming it; the file it points at keeps its bytes")
    func resetOverCertificateLink() throws {
        let (folder, victim) = try folderWithVictim()
        let certificate = folder + "/" + LocalCertificateAuthority.certificateFileName
        try FileManager.default.createSymbolicLink(atPath: certificate, withDestinationPath: victim)
        let error = #expect(throws: CertificateAuthorityError.self) { _ = try LocalCertificateAuthority.resetFiles(in: folder) }
        #expect(error?.description.contains(certificate) == true && error?.description.contains("symbolic link") == true, "\(String(describing: error))")
        #expect(FileManager.default.contents(atPath: victim) == Data("the victim's own bytes".utf8))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: certificate)) == victim)
        // Both names are checked first: no key is left behind without its certificate.
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + LocalCertificateAuthority.keyFileName))
    }
}
