import COpenSSL

/// Builds and signs X.509 certificates: the self-signed local CA and the leaves it issues.
enum CertificateMinting {
    /// Seconds in a day, for validity arithmetic.
    static let day = 86_400
    /// The CA lasts ten years: long enough that a device set up once keeps working.
    static let authorityValidityDays = 3_652
    /// Leaves last 365 days after a start one day in the past. Apple requires TLS server
    /// certificates to be valid for at most 398 days (issued from September 2020 on; 825 days for
    /// user-trusted roots since iOS 13) and counts the span from notBefore, so 1 + 365 = 366 days
    /// keeps every leaf well inside the strictest rule; Chrome and Android apply the same limit to
    /// public roots and accept it for user CAs. Leaves are minted on each start, so short is free.
    static let leafValidityDays = 365
    /// notBefore is a day in the past, so a device whose clock runs a little behind still accepts.
    static let backdatedDays = 1

    /// A new EC P-256 key pair: fast to make (leaves are minted on event-loop threads) and accepted
    /// by every TLS client that matters. The caller owns the result.
    static func newKey() throws(CertificateAuthorityError) -> OpaquePointer {
        guard let key = understudy_ca_generate_p256_key() else { throw .openSSL("generate an EC P-256 key") }
        return key
    }

    /// A self-signed CA certificate for `key`. The caller owns the result.
    static func authority(key: OpaquePointer, commonName: String) throws(CertificateAuthorityError) -> OpaquePointer {
        let certificate = try start(publicKey: key, commonName: commonName, validityDays: authorityValidityDays)
        do throws(CertificateAuthorityError) {
            guard X509_set_issuer_name(certificate, X509_get_subject_name(certificate)) == 1 else { throw CertificateAuthorityError.openSSL("set the issuer") }
            try add(NID_basic_constraints, "critical,CA:TRUE,pathlen:0", to: certificate, issuer: certificate)
            try add(NID_key_usage, "critical,keyCertSign,cRLSign", to: certificate, issuer: certificate)
            try add(NID_subject_key_identifier, "hash", to: certificate, issuer: certificate)
            try sign(certificate, with: key)
            return certificate
        } catch {
            X509_free(certificate)
            throw error
        }
    }

    /// A leaf for `names` signed by the CA; the first name is the subject's CN. The caller owns the result.
    static func leaf(names: [CertificateName], key: OpaquePointer, issuer: OpaquePointer, issuerKey: OpaquePointer) throws(CertificateAuthorityError) -> OpaquePointer {
        precondition(!names.isEmpty, "a leaf covers at least one name")
        let certificate = try start(publicKey: key, commonName: names[0].description, validityDays: leafValidityDays)
        do throws(CertificateAuthorityError) {
            guard X509_set_issuer_name(certificate, X509_get_subject_name(issuer)) == 1 else { throw CertificateAuthorityError.openSSL("set the issuer") }
            // A leaf must not outlive its issuer (clients reject the chain otherwise).
            if let issuerEnd = X509_get0_notAfter(issuer), ASN1_TIME_compare(X509_get0_notAfter(certificate), issuerEnd) > 0 {
                guard X509_set1_notAfter(certificate, issuerEnd) == 1 else { throw CertificateAuthorityError.openSSL("set the end date") }
            }
            try add(NID_basic_constraints, "critical,CA:FALSE", to: certificate, issuer: issuer)
            try add(NID_key_usage, "critical,digitalSignature", to: certificate, issuer: issuer)
            try add(NID_ext_key_usage, "serverAuth", to: certificate, issuer: issuer)
            try add(NID_subject_alt_name, names.map(\.subjectAltNameEntry).joined(separator: ","), to: certificate, issuer: issuer)
            try add(NID_subject_key_identifier, "hash", to: certificate, issuer: issuer)
            try add(NID_authority_key_identifier, "keyid:always", to: certificate, issuer: issuer)
            try sign(certificate, with: issuerKey)
            return certificate
        } catch {
            X509_free(certificate)
            throw error
        }
    }

    /// Version 3, a random serial, the subject, the validity window and the public key.
    private static func start(publicKey: OpaquePointer, commonName: String, validityDays: Int) throws(CertificateAuthorityError) -> OpaquePointer {
        guard let certificate = X509_new() else { throw .openSSL("allocate a certificate") }
        do throws(CertificateAuthorityError) {
            guard X509_set_version(certificate, 2) == 1 else { throw CertificateAuthorityError.openSSL("set the version") } // 2 is v3
            try setRandomSerial(certificate)
            try name(X509_get_subject_name(certificate), commonName: commonName)
            guard X509_gmtime_adj(X509_getm_notBefore(certificate), -backdatedDays * day) != nil,
                X509_gmtime_adj(X509_getm_notAfter(certificate), validityDays * day) != nil
            else {
                throw CertificateAuthorityError.openSSL("set the validity")
            }
            guard X509_set_pubkey(certificate, publicKey) == 1 else { throw CertificateAuthorityError.openSSL("set the public key") }
            return certificate
        } catch {
            X509_free(certificate)
            throw error
        }
    }

    /// 16 random bytes, top bit clear so the INTEGER is positive (RFC 5280 §4.1.2.2) and first
    /// byte non-zero so the DER stays 16 bytes long.
    private static func setRandomSerial(_ certificate: OpaquePointer) throws(CertificateAuthorityError) {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { throw .openSSL("draw a random serial") }
        bytes[0] &= 0x7F
        if bytes[0] == 0 { bytes[0] = 0x01 }
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw .openSSL("draw a random serial") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else { throw .openSSL("set the serial") }
    }

    /// O=Understudy and, when it fits the 64-character limit of RFC 5280's ub-common-name, CN.
    /// Modern clients read only the SAN; the CN is for people reading the certificate.
    private static func name(_ name: OpaquePointer?, commonName: String) throws(CertificateAuthorityError) {
        guard let name else { throw .openSSL("reach the certificate's name") }
        guard X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, "Understudy", -1, -1, 0) == 1 else { throw .openSSL("set the organisation") }
        guard commonName.utf8.count <= 64 else { return }
        guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1 else { throw .openSSL("set the common name") }
    }

    private static func add(_ nid: Int32, _ value: String, to certificate: OpaquePointer, issuer: OpaquePointer) throws(CertificateAuthorityError) {
        guard understudy_ca_add_extension(certificate, issuer, nid, value) == 1 else { throw .openSSL("add the extension \(value)") }
    }

    private static func sign(_ certificate: OpaquePointer, with key: OpaquePointer) throws(CertificateAuthorityError) {
        guard X509_sign(certificate, key, EVP_sha256()) > 0 else { throw .openSSL("sign a certificate") }
    }
}
