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
        // String(format:) per byte went through CFString and cost as much as the hash of a 30 KB upload.
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
