import COpenSSL
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client side of the tests' TLS: trusts exactly one CA, verifies the chain and the host name
/// (or IP) the way a phone does, offers ALPN. One context serves many connections.
public final class TLSClientContext: @unchecked Sendable { // configured in init, then only read (OpenSSL contexts are thread-safe)
    /// A context that could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String
    }

    /// The OpenSSL context (`SSL_CTX`).
    public let context: OpaquePointer

    /// A context trusting only the CA file at `caPath`; `version` pins one TLS version (min = max) when given.
    public convenience init(caPath: String, version: Int32? = nil) throws {
        try self.init(minVersion: version, maxVersion: version, verify: true) { context in
            guard SSL_CTX_load_verify_locations(context, caPath, nil) == 1 else { throw SetupError(description: "cannot load \(caPath)") }
        }
    }

    /// A context trusting only the CA certificate in `caPEM` (nil: one that verifies nothing),
    /// speaking TLS versions from `minVersion` to `maxVersion` (nil: OpenSSL's bound). A minimum
    /// below TLS 1.2 also drops the security level to 0, which the system policy would refuse.
    public convenience init(caPEM: String?, minVersion: Int32? = nil, maxVersion: Int32? = nil) throws {
        try self.init(minVersion: minVersion, maxVersion: maxVersion, verify: caPEM != nil) { context in
            guard let caPEM else { return }
            let bio = BIO_new(BIO_s_mem())!
            defer { BIO_free(bio) }
            _ = caPEM.withCString { BIO_puts(bio, $0) }
            guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else { throw SetupError(description: "no certificate in the PEM") }
            X509_STORE_add_cert(SSL_CTX_get_cert_store(context), certificate)
            X509_free(certificate)
        }
        if let minVersion, minVersion < TLS1_2_VERSION { // an old client for a version test
            SSL_CTX_set_security_level(context, 0)
            _ = SSL_CTX_set_cipher_list(context, "DEFAULT@SECLEVEL=0")
        }
    }

    /// A context with these version bounds whose trust store `trust` fills (it throws to refuse);
    /// with `verify` the peer's chain must check out.
    private init(minVersion: Int32?, maxVersion: Int32?, verify: Bool, trust: (OpaquePointer) throws -> Void) throws {
        context = SSL_CTX_new(TLS_client_method())!
        // A throw from here on runs deinit (every property is set), which frees the context.
        if let minVersion { _ = understudy_ssl_ctx_set_min_proto_version(context, minVersion) }
        if let maxVersion { _ = understudy_ssl_ctx_set_max_proto_version(context, maxVersion) }
        try trust(context)
        if verify { SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil) }
    }

    deinit { SSL_CTX_free(context) }

    /// A new client session (`SSL`, the caller frees it) sending `serverName` as SNI (nil: none),
    /// requiring the certificate to cover `verifyName` (a host name or an IP; nil: no name check),
    /// and offering `alpn` (empty: no ALPN).
    public func session(serverName: String?, verifyName: String?, alpn: [String] = ["http/1.1"]) -> OpaquePointer {
        let ssl = SSL_new(context)!
        if let serverName { _ = understudy_ssl_set_tlsext_host_name(ssl, serverName) }
        if let verifyName {
            var address = in6_addr()
            if inet_pton(AF_INET, verifyName, &address) == 1 || inet_pton(AF_INET6, verifyName, &address) == 1 {
                _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), verifyName)
            } else {
                _ = SSL_set1_host(ssl, verifyName)
            }
        }
        if !alpn.isEmpty {
            let wire = alpn.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            _ = SSL_set_alpn_protos(ssl, wire, UInt32(wire.count))
        }
        return ssl
    }
}
