import COpenSSL

/// PEM and DER encoding of certificates and keys through OpenSSL memory BIOs.
enum PEMCoding {
    /// The PEM text of a certificate (`X509 *`).
    static func pem(certificate: OpaquePointer) throws(CertificateAuthorityError) -> [UInt8] {
        try withMemoryBIO("encode a certificate") { bio in PEM_write_bio_X509(bio, certificate) == 1 }
    }

    /// The unencrypted PKCS#8 PEM text of a private key (`EVP_PKEY *`).
    static func pem(privateKey: OpaquePointer) throws(CertificateAuthorityError) -> [UInt8] {
        try withMemoryBIO("encode a private key") { bio in
            PEM_write_bio_PrivateKey(bio, privateKey, nil, nil, 0, nil, nil) == 1
        }
    }

    /// The DER bytes of a certificate.
    static func der(certificate: OpaquePointer) throws(CertificateAuthorityError) -> [UInt8] {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { throw .openSSL("encode a certificate as DER") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        guard written == length else { throw .openSSL("encode a certificate as DER") }
        return bytes
    }

    /// The first certificate in PEM text, or nil when there is none (other PEM blocks are skipped).
    /// The caller owns the result.
    static func certificate(fromPEM bytes: [UInt8]) -> OpaquePointer? {
        defer { ERR_clear_error() } // "no start line" when absent is an answer, not an error to keep
        return withReadBIO(bytes) { PEM_read_bio_X509($0, nil, nil, nil) }
    }

    /// The first private key in PEM text, or nil. Encrypted keys are refused rather than prompting
    /// on the terminal (OpenSSL's default with no password callback). The caller owns the result.
    static func privateKey(fromPEM bytes: [UInt8]) -> OpaquePointer? {
        defer { ERR_clear_error() }
        return withReadBIO(bytes) { PEM_read_bio_PrivateKey($0, nil, { _, _, _, _ in 0 }, nil) }
    }

    private static func withReadBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) -> T?) -> T? {
        bytes.withUnsafeBytes { raw -> T? in
            guard let base = raw.baseAddress, let bio = BIO_new_mem_buf(base, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    private static func withMemoryBIO(_ operation: String, _ write: (OpaquePointer) -> Bool) throws(CertificateAuthorityError) -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL(operation) }
        defer { BIO_free(bio) }
        guard write(bio) else { throw .openSSL(operation) }
        var contents: UnsafePointer<CChar>?
        let length = understudy_ca_bio_contents(bio, &contents)
        guard length > 0, let contents else { throw .openSSL(operation) }
        return contents.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }
}
