import COpenSSL

/// Where a `TLSServerContext` gets the certificate to present: one per SNI name, a default without SNI.
///
/// Called on event-loop threads during handshakes, so implementations must be thread-safe.
public protocol TLSCertificateSource: Sendable {
    /// Puts the certificate, chain and key for `serverName` (lower-cased; nil when the client sent
    /// no SNI) on the connection `ssl` (an `SSL *`); false when it could not (the handshake fails).
    func installCertificate(forServerName serverName: String?, on ssl: OpaquePointer) -> Bool
}

extension LocalCertificateAuthority: TLSCertificateSource {
    /// Installs the leaf minted for `serverName` (cached after the first handshake), or the
    /// default identity (localhost, the loopback addresses, the extra default names) without SNI.
    public func installCertificate(forServerName serverName: String?, on ssl: OpaquePointer) -> Bool {
        (serverName.map { leaf(for: $0) } ?? defaultIdentity).install(onConnection: ssl)
    }
}
