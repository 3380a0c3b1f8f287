import COpenSSL

/// Where a `TLSServerContext` gets the certificate to present: one per SNI name, a default without SNI.
///
/// Called on event-loop threads during handshakes, so implementations must be thread-safe.
public protocol TLSCertificateSource: Sendable {
    /// Puts the certificate, chain and key for `serverName` (lower-cased; nil when the client sent
    /// no SNI) on the connection `ssl` (an `SSL *`), with `TLSCertificateInstaller`; false when it could not.
    func installCertificate(forServerName serverName: String?, on ssl: OpaquePointer) -> Bool
}

/// Installs a certificate and key on one TLS connection.
public enum TLSCertificateInstaller {
    /// Uses `certificate` (`X509 *`), `privateKey` (`EVP_PKEY *`) and the intermediate `chain` on `ssl`.
    ///
    /// OpenSSL takes its own references, so the caller may release its handles right after.
    public static func install(certificate: OpaquePointer, privateKey: OpaquePointer, chain: [OpaquePointer] = [], on ssl: OpaquePointer) -> Bool {
        guard SSL_use_certificate(ssl, certificate) == 1, SSL_use_PrivateKey(ssl, privateKey) == 1 else { return false }
        for link in chain where understudy_ssl_add1_chain_cert(ssl, link) != 1 { return false }
        return true
    }
}
