import COpenSSL

/// Why the local certificate authority could not be loaded, made or used. Every file problem names
/// the file, so a user knows what to delete or restore.
public enum CertificateAuthorityError: Error, Equatable, CustomStringConvertible {
    /// A file exists but is not what it should be (unparseable PEM, a certificate that is no CA).
    case corrupt(path: String, reason: String)
    /// One file of the pair is there and the other is not.
    case incomplete(present: String, missing: String)
    /// The certificate and the key are each valid but do not belong together.
    case mismatched(certificate: String, key: String)
    /// The CA certificate is past its end date.
    case expired(path: String)
    /// Reading, writing, renaming or creating a folder failed.
    case io(path: String, reason: String)
    /// OpenSSL refused an operation (allocation, signing, encoding).
    case openSSL(operation: String, reason: String)
    /// A running server serves from this CA folder, so it cannot be replaced under it.
    case inUse(directory: String)

    /// What a person reads: the file, the problem and the remedy.
    public var description: String {
        let remedy = "run `understudy ca reset` to make a new CA (devices must then trust the new certificate)"
        switch self {
        case .corrupt(let path, let reason): return "\(path) is not usable: \(reason); \(remedy)"
        case .incomplete(let present, let missing): return "\(present) exists but \(missing) is missing; \(remedy)"
        case .mismatched(let certificate, let key): return "\(certificate) does not belong to the key in \(key); \(remedy)"
        case .expired(let path): return "the CA certificate \(path) has expired; \(remedy)"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .openSSL(let operation, let reason): return "OpenSSL could not \(operation): \(reason)"
        case .inUse(let directory):
            return "a running Understudy server uses the CA in \(directory) and would go on signing with it; "
                + "stop that server, run `understudy ca reset` again, then start it"
        }
    }

    /// The oldest queued OpenSSL error as text (the queue is then cleared so a later call on this
    /// thread does not report a stale error).
    static func drainOpenSSLErrors() -> String {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return "no detail" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// An `.openSSL` error for `operation` with OpenSSL's own reason.
    static func openSSL(_ operation: String) -> CertificateAuthorityError {
        .openSSL(operation: operation, reason: drainOpenSSLErrors())
    }
}
