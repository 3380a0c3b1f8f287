import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CA's files on disk: whole-file reads, and writes through `AtomicFile` (temporary file
/// created exclusively with its final mode, fsync, rename), so the key is never readable by others
/// even for an instant and a crash leaves either the old file or the new one, never half of either.
enum CertificateAuthorityFiles {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(CertificateAuthorityError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            // A CA file is a few kilobytes; anything huge is not ours and must not exhaust memory.
            guard bytes.count + count <= 1_048_576 else { throw .corrupt(path: path, reason: "larger than 1 MiB") }
            bytes += buffer[0..<count]
        }
    }

    /// Replaces `path` with `bytes` atomically, the new file having permission bits `mode`
    /// exactly (see `AtomicFile`: a link at `path` is refused, never written through or replaced).
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(CertificateAuthorityError) {
        do {
            try AtomicFile.write(bytes, to: path, mode: mode, exactMode: true)
        } catch {
            throw .io(path: error.path, reason: error.reason)
        }
    }

    /// Throws, naming the path, when any of `paths` is a symbolic link.
    static func refuseLinks(at paths: [String]) throws(CertificateAuthorityError) {
        for path in paths {
            do { try AtomicFile.refuseSymbolicLink(at: path) } catch { throw .io(path: error.path, reason: error.reason) }
        }
    }

    /// Flushes the folder so the renames inside it survive a power cut.
    static func synchronizeFolder(_ folder: String) { AtomicFile.synchronizeDirectory(folder) }

    /// Runs `body` holding an exclusive lock on `folder`, so two processes (a server starting while
    /// `understudy ca export` runs) or two instances never both create a CA and mix their files.
    /// flock on the folder itself: no lock file to leave behind.
    static func withFolderLock<T>(_ folder: String, _ body: () throws(CertificateAuthorityError) -> T) throws(CertificateAuthorityError) -> T {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: folder, reason: "cannot open the folder: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) } // closing releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io(path: folder, reason: "cannot lock the folder: \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    /// Creates `folder` (and its parents) when missing.
    static func createFolder(_ folder: String) throws(CertificateAuthorityError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    #if canImport(Glibc)
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(descriptor, buffer, count) }
    #elseif canImport(Darwin)
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(descriptor, buffer, count) }
    #endif
}
