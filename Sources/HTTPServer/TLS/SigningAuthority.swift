import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CA certificate and its private key, loaded from or written to their two files.
///
/// File layout: `understudy-ca.pem` holds the certificate; `understudy-ca.key` (mode 0600) holds
/// the private key followed by the same certificate. The key file is written first and is the
/// commit point: a crash after it is replaced but before the `.pem` is leaves a key file that
/// still knows its certificate, and the next load rewrites the `.pem` from it. A key file with no
/// certificate inside (a CA someone made with the openssl tool) is accepted when the `.pem`
/// beside it matches the key.
final class SigningAuthority: @unchecked Sendable {
    /// The CA certificate (`X509 *`), owned.
    let certificate: OpaquePointer
    /// The CA private key (`EVP_PKEY *`), owned.
    let key: OpaquePointer

    private init(certificate: OpaquePointer, key: OpaquePointer) {
        self.certificate = certificate
        self.key = key
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }

    /// The CA in the two files, or a new one written there when neither exists.
    static func loadOrCreate(certificatePath: String, keyPath: String) throws(CertificateAuthorityError) -> SigningAuthority {
        let keyBytes = try CertificateAuthorityFiles.read(keyPath)
        let certificateBytes = try CertificateAuthorityFiles.read(certificatePath)
        guard let keyBytes else {
            if certificateBytes == nil { return try create(certificatePath: certificatePath, keyPath: keyPath) }
            throw .incomplete(present: certificatePath, missing: keyPath)
        }
        guard let key = PEMCoding.privateKey(fromPEM: keyBytes) else {
            throw .corrupt(path: keyPath, reason: "no readable unencrypted private key in it")
        }
        if let embedded = PEMCoding.certificate(fromPEM: keyBytes) {
            let authority = SigningAuthority(certificate: embedded, key: key)
            guard X509_check_private_key(embedded, key) == 1 else {
                ERR_clear_error()
                throw .corrupt(path: keyPath, reason: "its certificate does not belong to its key")
            }
            try authority.validate(path: keyPath)
            try authority.repairCertificateFile(certificatePath, current: certificateBytes)
            return authority
        }
        guard let certificateBytes else {
            EVP_PKEY_free(key)
            throw .incomplete(present: keyPath, missing: certificatePath)
        }
        guard let certificate = PEMCoding.certificate(fromPEM: certificateBytes) else {
            EVP_PKEY_free(key)
            throw .corrupt(path: certificatePath, reason: "no readable PEM certificate in it")
        }
        let authority = SigningAuthority(certificate: certificate, key: key)
        guard X509_check_private_key(certificate, key) == 1 else {
            ERR_clear_error()
            throw .mismatched(certificate: certificatePath, key: keyPath)
        }
        try authority.validate(path: certificatePath)
        return authority
    }

    /// A new CA written over whatever the two files held.
    static func create(certificatePath: String, keyPath: String) throws(CertificateAuthorityError) -> SigningAuthority {
        // Both names are checked before either is written: a link at the certificate's name must
        // not leave a new key behind without its certificate.
        try CertificateAuthorityFiles.refuseLinks(at: [keyPath, certificatePath])
        let key = try CertificateMinting.newKey()
        let certificate: OpaquePointer
        do throws(CertificateAuthorityError) {
            certificate = try CertificateMinting.authority(key: key, commonName: "Understudy Local CA (\(hostName()))")
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        let authority = SigningAuthority(certificate: certificate, key: key)
        let certificatePEM = try PEMCoding.pem(certificate: certificate)
        try CertificateAuthorityFiles.write(try PEMCoding.pem(privateKey: key) + certificatePEM, to: keyPath, mode: 0o600)
        try CertificateAuthorityFiles.write(certificatePEM, to: certificatePath, mode: 0o644)
        CertificateAuthorityFiles.synchronizeFolder(folder(of: keyPath))
        return authority
    }

    /// Refuses a certificate that cannot sign leaves or whose time is up.
    private func validate(path: String) throws(CertificateAuthorityError) {
        defer { ERR_clear_error() }
        guard X509_check_ca(certificate) >= 1 else { throw .corrupt(path: path, reason: "the certificate is not a CA certificate") }
        if X509_cmp_current_time(X509_get0_notAfter(certificate)) < 0 { throw .expired(path: path) }
    }

    /// Rewrites the `.pem` when it is missing or holds another certificate than the key file's:
    /// what an interrupted create or reset leaves. A `.pem` that is not PEM at all is no crash of
    /// ours (writes are atomic), so it is reported rather than overwritten.
    private func repairCertificateFile(_ path: String, current: [UInt8]?) throws(CertificateAuthorityError) {
        let expected = try PEMCoding.der(certificate: certificate)
        if let current {
            guard let onDisk = PEMCoding.certificate(fromPEM: current) else {
                throw .corrupt(path: path, reason: "no readable PEM certificate in it")
            }
            defer { X509_free(onDisk) }
            if try PEMCoding.der(certificate: onDisk) == expected { return }
        }
        try CertificateAuthorityFiles.write(try PEMCoding.pem(certificate: certificate), to: path, mode: 0o644)
    }

    /// The folder part of a file path.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// This machine's name, for a CA subject people can tell apart when several machines' CAs are
    /// installed on one device.
    private static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : String(name.prefix(40)) // the CN limit is 64 characters
    }
}
