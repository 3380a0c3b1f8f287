import COpenSSL
import Foundation
import HTTPServer

/// Reads certificates back with OpenSSL, the way a TLS client would, so the tests check what was
/// written into the certificate rather than what the minting code meant to write.
struct CertificateInspection {
    /// The certificate (`X509 *`), borrowed from its owner for the life of this value.
    let certificate: OpaquePointer

    /// A fresh folder path under the temporary directory (not created).
    static func temporaryFolder(_ label: String = "ca") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("understudy-\(label)-\(UUID().uuidString)").path
    }

    /// Parses PEM or DER bytes; the caller frees the result with X509_free.
    static func parse(pem: [UInt8]) -> OpaquePointer? {
        pem.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
    }

    /// Parses DER bytes; the caller frees the result with X509_free.
    static func parse(der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
    }

    /// Whether `leaf` (with `intermediates`) chains to `authorityPEM` for TLS server use, and covers
    /// `host` (a DNS name, checked with X509_check_host) or `address` (X509_check_ip_asc).
    static func verifies(_ leaf: TLSIdentity, against authorityPEM: [UInt8], host: String? = nil, address: String? = nil) -> Bool {
        guard let authority = parse(pem: authorityPEM) else { return false }
        defer { X509_free(authority) }
        guard let store = X509_STORE_new() else { return false }
        defer { X509_STORE_free(store) }
        // Strict mode checks what modern clients insist on (AKI present, CA extensions well formed).
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_X509_STRICT))
        guard X509_STORE_add_cert(store, authority) == 1, let context = X509_STORE_CTX_new() else { return false }
        defer { X509_STORE_CTX_free(context); ERR_clear_error() }
        guard X509_STORE_CTX_init(context, store, leaf.certificate, nil) == 1,
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER) == 1,
            X509_verify_cert(context) == 1
        else { return false }
        if let host, X509_check_host(leaf.certificate, host, host.utf8.count, 0, nil) != 1 { return false }
        if let address, X509_check_ip_asc(leaf.certificate, address, 0) != 1 { return false }
        return true
    }

    /// The subjectAltName entries as `DNS:name` and `IP:address`, in certificate order.
    var subjectAltNames: [String] {
        guard let raw = X509_get_ext_d2i(certificate, NID_subject_alt_name, nil, nil) else { return [] }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var result: [String] = []
        for index in 0..<understudy_ca_general_names_count(names) {
            guard let name = understudy_ca_general_names_value(names, index) else { continue }
            switch name.pointee.type {
            case GEN_DNS: result.append("DNS:" + Self.text(name.pointee.d.dNSName))
            case GEN_IPADD: result.append("IP:" + Self.address(name.pointee.d.iPAddress))
            default: result.append("other:\(name.pointee.type)")
            }
        }
        return result
    }

    /// Whether the extension `nid` is present and marked critical; nil when absent.
    func isCritical(_ nid: Int32) -> Bool? {
        let index = X509_get_ext_by_NID(certificate, nid, -1)
        guard index >= 0, let extensionEntry = X509_get_ext(certificate, index) else { return nil }
        return X509_EXTENSION_get_critical(extensionEntry) == 1
    }

    /// basicConstraints: whether CA, and the path length (-1 when none).
    var basicConstraints: (isAuthority: Bool, pathLength: Int)? {
        guard let raw = X509_get_ext_d2i(certificate, NID_basic_constraints, nil, nil) else { return nil }
        let constraints = raw.assumingMemoryBound(to: BASIC_CONSTRAINTS.self)
        defer { BASIC_CONSTRAINTS_free(constraints) }
        let pathLength = constraints.pointee.pathlen.map { Int(ASN1_INTEGER_get($0)) } ?? -1
        return (constraints.pointee.ca != 0, pathLength)
    }

    /// keyUsage bits (KU_*) and extendedKeyUsage bits (XKU_*), as OpenSSL computed them.
    var keyUsage: UInt32 { X509_get_key_usage(certificate) }
    /// The extended key usage bits.
    var extendedKeyUsage: UInt32 { X509_get_extended_key_usage(certificate) }

    /// Days from notBefore to notAfter, and seconds of notBefore before now (negative: in the future).
    var validity: (days: Int, startedSecondsAgo: Int) {
        var days: Int32 = 0, seconds: Int32 = 0
        ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(certificate), X509_get0_notAfter(certificate))
        var agoDays: Int32 = 0, agoSeconds: Int32 = 0
        ASN1_TIME_diff(&agoDays, &agoSeconds, X509_get0_notBefore(certificate), nil)
        return (Int(days) + (seconds > 0 ? 1 : 0), Int(agoDays) * 86_400 + Int(agoSeconds))
    }

    /// The subject's common name, or nil.
    var commonName: String? { Self.entry(X509_get_subject_name(certificate), NID_commonName) }
    /// The subject's organisation, or nil.
    var organisation: String? { Self.entry(X509_get_subject_name(certificate), NID_organizationName) }
    /// The issuer's common name, or nil.
    var issuerCommonName: String? { Self.entry(X509_get_issuer_name(certificate), NID_commonName) }

    /// The serial's size in bits and whether it is negative.
    var serial: (bits: Int32, negative: Bool) {
        guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nil) else { return (0, true) }
        defer { BN_free(number) }
        return (BN_num_bits(number), BN_is_negative(number) != 0)
    }

    /// The subject key identifier's bytes, or nil.
    var subjectKeyIdentifier: [UInt8]? { X509_get0_subject_key_id(certificate).map(Self.bytes) }
    /// The authority key identifier's key id bytes, or nil.
    var authorityKeyIdentifier: [UInt8]? { X509_get0_authority_key_id(certificate).map(Self.bytes) }

    /// The signature algorithm's NID (ecdsa-with-SHA256 expected).
    var signatureAlgorithm: Int32 { X509_get_signature_nid(certificate) }

    /// The public key's curve name (`prime256v1` for P-256), or nil.
    var curveName: String? {
        guard let key = X509_get0_pubkey(certificate) else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func entry(_ name: OpaquePointer?, _ nid: Int32) -> String? {
        guard let name else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = X509_NAME_get_text_by_NID(name, nid, &buffer, Int32(buffer.count))
        guard length >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func bytes(_ string: UnsafePointer<ASN1_STRING>) -> [UInt8] {
        guard let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    private static func text(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        guard let string else { return "" }
        return String(decoding: bytes(string), as: UTF8.self)
    }

    private static func address(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        guard let string else { return "" }
        let octets = bytes(string)
        var output = [CChar](repeating: 0, count: 64)
        let family = octets.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, octets, &output, socklen_t(output.count)) != nil else { return "?" }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
