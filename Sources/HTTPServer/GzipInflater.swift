import CZlib
import Foundation

/// A streaming gzip/zlib inflater over system zlib: input arrives in pieces, output is capped.
///
/// A class because a `z_stream` points into state zlib allocated for it and must be ended exactly
/// once; copying one would share that state.
final class GzipInflater {
    private var stream = z_stream()
    private var started = false // some input was inflated
    private var ended = false // the last member ended at the end of the input so far
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Prepares an inflater that accepts gzip and zlib headers.
    init() throws(Gzip.Failure) {
        // 15 + 32: maximum window, and accept both gzip and zlib headers.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt
        }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `input`, appending to `output`; fails as soon as `output` would pass `limit` bytes.
    /// Concatenated gzip members are inflated one after another, as `gunzip` does.
    func inflate(_ input: UnsafeRawBufferPointer, into output: inout Data, limit: Int) throws(Gzip.Failure) {
        guard let base = input.baseAddress, input.count > 0 else { return }
        if ended {
            // Another gzip member follows the one that ended with the previous piece.
            guard inflateReset(&stream) == Z_OK else { throw .corrupt }
            ended = false
        }
        started = true
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        defer { stream.next_in = nil; stream.avail_in = 0 } // `input` is only borrowed
        let chunkSize = chunk.count
        while true {
            let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(chunkSize)
                return CZlib.inflate(&stream, Z_NO_FLUSH)
            }
            let produced = chunkSize - Int(stream.avail_out)
            if output.count + produced > limit { throw .tooLarge(limit: limit) }
            output.append(contentsOf: chunk[0..<produced])
            switch status {
            case Z_STREAM_END:
                if stream.avail_in == 0 {
                    ended = true
                    return
                }
                guard inflateReset(&stream) == Z_OK else { throw .corrupt }
            case Z_OK:
                // Out of input with room left in the output: everything so far is inflated.
                if stream.avail_in == 0 && produced < chunkSize { return }
            case Z_BUF_ERROR:
                // No progress possible: fine when the input is used up, corrupt otherwise.
                if stream.avail_in == 0 { return }
                throw .corrupt
            default:
                throw .corrupt
            }
        }
    }

    /// Checks that the input ended where a member ends (not mid-stream).
    func finish() throws(Gzip.Failure) {
        if started && !ended { throw .corrupt }
    }
}
