import CZlib
import Foundation
import Testing

@testable import UnderstudyClient

/// The client's zlib-free gzip writer must produce streams a real inflater accepts.
@Suite("Stored-block gzip writer")
struct GzipStoredTests {
    @Test("zlib inflates what it writes back to the input: empty, one block, block-sized, several blocks")
    func roundTrip() throws {
        for size in [0, 1, 65_535, 65_536, 200_000] {
            let input = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            #expect(try Self.gunzip(GzipStored.wrap(input)) == input, "\(size) bytes")
        }
    }

    @Test("a flipped payload byte fails the stream's CRC")
    func crcChecked() {
        var stream = GzipStored.wrap(Data("telemetry".utf8))
        stream[stream.count - 10] ^= 0xff // inside the stored payload
        #expect(throws: InflateFailure.self) { try Self.gunzip(stream) }
    }

    struct InflateFailure: Error {}

    /// Inflates a gzip stream with system zlib (window bits 16 + 15: gzip header required).
    static func gunzip(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + 15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw InflateFailure() }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                buffer.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    output.append(target.baseAddress!, count: target.count - Int(stream.avail_out))
                }
            } while status == Z_OK
        }
        guard status == Z_STREAM_END else { throw InflateFailure() }
        return output
    }
}
