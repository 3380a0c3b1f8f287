import CZlib
import Foundation

/// gzip/zlib coding over system zlib, with an output cap so a small bomb cannot fill memory.
/// Streaming inflation (for request bodies as they arrive) is `GzipInflater`.
public enum Gzip {
    /// Why inflating failed.
    public enum Failure: Error, Equatable, Sendable {
        /// The input is not a valid gzip or zlib stream (or is truncated).
        case corrupt
        /// Inflating would produce more than the allowed number of bytes.
        case tooLarge(limit: Int)
    }

    /// Inflates a gzip or zlib stream (header auto-detected), refusing to produce more than `limit` bytes.
    /// Concatenated gzip members are inflated one after another, as `gunzip` does.
    public static func decompress(_ input: Data, limit: Int) throws(Failure) -> Data {
        if input.isEmpty { throw .corrupt }
        let inflater = try GzipInflater()
        var output = Data()
        var failure: Failure?
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            do throws(Failure) {
                try inflater.inflate(raw, into: &output, limit: limit)
                try inflater.finish()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Compresses `input` as a gzip stream (used by tests, benchmarks and the client).
    public static func compress(_ input: Data, level: Int32 = Z_DEFAULT_COMPRESSION) -> Data {
        var stream = z_stream()
        // 15 + 16: maximum window with a gzip header; memory level 8 is zlib's default.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return Data() }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        var written = 0
        input.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            stream.next_in = UnsafeMutablePointer(mutating: raw.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(raw.count)
            output.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(bound)
                _ = deflate(&stream, Z_FINISH)
                written = bound - Int(stream.avail_out)
            }
        }
        return Data(output[0..<written])
    }
}
