import COpenSSL
import Foundation

/// SHA-256 through OpenSSL.
public enum SHA256Digest {
    /// The digest of `data` as lower-case hex.
    public static func hex(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { raw in
            _ = COpenSSL.SHA256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
