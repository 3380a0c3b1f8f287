import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CA's files on disk: whole-file reads, and writes that are atomic (temporary file, fsync,
/// rename) and create the file with its final mode, so the key is never readable by others even
/// for an instant and a crash leaves either the old file or the new one, never half of either.
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

    /// Replaces `path` with `bytes` atomically, the new file having permission bits `mode`.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(CertificateAuthorityError) {
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // O_EXCL: never write through a file or link someone else placed at the temporary name.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .io(path: temporary, reason: "cannot create: \(String(cString: strerror(errno)))") }
        var failure: CertificateAuthorityError?
        var offset = 0
        while failure == nil, offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { failure = .io(path: temporary, reason: "cannot write: \(String(cString: strerror(errno)))") } else { offset += count }
        }
        // The umask may only have narrowed `mode`; fchmod states it exactly (0644 stays readable).
        if failure == nil, fchmod(descriptor, mode) != 0 { failure = .io(path: temporary, reason: "cannot set its mode: \(String(cString: strerror(errno)))") }
        if failure == nil, fsync(descriptor) != 0 { failure = .io(path: temporary, reason: "cannot flush: \(String(cString: strerror(errno)))") }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = .io(path: path, reason: "cannot replace: \(String(cString: strerror(errno)))") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Flushes the folder so the renames inside it survive a power cut.
    static func synchronizeFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return } // best effort: the files themselves are already flushed
        fsync(descriptor)
        close(descriptor)
    }

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
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(descriptor, buffer, count) }
    #elseif canImport(Darwin)
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(descriptor, buffer, count) }
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(descriptor, buffer, count) }
    #endif
}
