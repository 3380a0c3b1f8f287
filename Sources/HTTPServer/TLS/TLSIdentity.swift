import COpenSSL

/// A leaf certificate, the issuer certificates sent after it, and the leaf's private key, ready
/// for an OpenSSL server connection or context.
///
/// Immutable after creation; OpenSSL's reference-counted `X509`/`EVP_PKEY` objects may be shared
/// by any number of connections on any thread (installing takes a reference, never a copy), so an
/// identity is `Sendable`. The identity owns one reference to each object and frees it in `deinit`;
/// a connection that installed it keeps its own references, so dropping the identity (say, the
/// cache evicting it) never pulls a certificate from under a live handshake.
public final class TLSIdentity: @unchecked Sendable {
    /// The leaf certificate (`X509 *`). Borrowed: up-ref it to keep it beyond this identity.
    public let certificate: OpaquePointer
    /// The issuer certificates (`X509 *`) sent after the leaf, nearest first: the local CA.
    public let chain: [OpaquePointer]
    /// The leaf's private key (`EVP_PKEY *`). Borrowed, like `certificate`.
    public let privateKey: OpaquePointer
    /// The names the certificate covers, in its subjectAltName.
    public let names: [CertificateName]

    /// Takes ownership of one reference to each of `certificate`, `chain` and `privateKey`.
    init(certificate: OpaquePointer, chain: [OpaquePointer], privateKey: OpaquePointer, names: [CertificateName]) {
        self.certificate = certificate
        self.chain = chain
        self.privateKey = privateKey
        self.names = names
    }

    deinit {
        X509_free(certificate)
        for issuer in chain { X509_free(issuer) }
        EVP_PKEY_free(privateKey)
    }

    /// Installs this identity on one connection (`SSL *`), replacing the certificate, key and chain
    /// it inherited from its context: what a servername (SNI) callback does. Returns false when
    /// OpenSSL refuses (the handshake should then fail with an internal-error alert).
    public func install(onConnection ssl: OpaquePointer) -> Bool {
        defer { ERR_clear_error() }
        guard SSL_use_certificate(ssl, certificate) == 1, SSL_use_PrivateKey(ssl, privateKey) == 1 else { return false }
        // SSL_new copied the context's chain into this connection; the leaf's own chain replaces it.
        guard understudy_ca_ssl_clear_chain_certs(ssl) == 1 else { return false }
        return chain.allSatisfy { understudy_ca_ssl_add1_chain_cert(ssl, $0) == 1 }
    }

    /// Installs this identity on a fresh context (`SSL_CTX *`) as the certificate its connections
    /// start with (the default identity, served when a client sends no SNI).
    public func install(onContext context: OpaquePointer) -> Bool {
        defer { ERR_clear_error() }
        guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, privateKey) == 1 else { return false }
        return chain.allSatisfy { understudy_ca_ssl_ctx_add1_chain_cert(context, $0) == 1 }
    }

    /// The leaf then its chain as PEM, the layout nginx's `ssl_certificate` and curl expect.
    public func certificateChainPEM() throws -> String {
        var text: [UInt8] = []
        for certificate in [certificate] + chain { text += try PEMCoding.pem(certificate: certificate) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The leaf certificate's DER bytes.
    public func certificateDER() throws -> [UInt8] {
        try PEMCoding.der(certificate: certificate)
    }

    /// The leaf's private key as unencrypted PKCS#8 PEM, for a TLS server run beside Understudy
    /// (a benchmark's nginx). Leaf keys live in memory only; Understudy never writes this to disk.
    public func privateKeyPEM() throws -> String {
        String(decoding: try PEMCoding.pem(privateKey: privateKey), as: UTF8.self)
    }
}
