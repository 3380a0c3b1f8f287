import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file Understudy could not write, or would not write because a link was in the way.
public struct FileWriteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The path that failed: the target, or the temporary file beside it.
    public var path: String
    /// What was wrong, in words (`is a symbolic link; …`, `cannot create: Permission denied`).
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// Every file Understudy writes goes through here: exported bundles, the CA's key and
/// certificate, the journal's body segments and what the command line saves.
///
/// A file is never opened by a name someone else could have prepared. A replaced file is written
/// to a fresh temporary name in its own directory, chosen at random and created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` (a file or link already there is an error, never written
/// through), flushed, then renamed over the target, so a crash leaves the old file or the new one
/// whole. A symbolic link at the target is refused rather than replaced: the export directory may
/// be part of a repository anyone can commit a link to, and a link there is either a mistake or an
/// attack, neither of which a silent replacement would tell the user about. (A link put there
/// between the check and the rename is replaced by the rename itself, which never follows it.)
public enum AtomicFile {
    /// Flags for a file this process creates: it must not exist yet, not even as a link.
    static let exclusiveCreation = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC

    /// Replaces `path` with `data`; the new file has permission bits `mode` (narrowed by the
    /// umask unless `exactMode`, which a private key needs). `midWrite` runs halfway (a test seam).
    public static func write(
        _ data: Data, to path: String, mode: mode_t = 0o644, exactMode: Bool = false,
        midWrite: (() -> Void)? = nil
    ) throws(FileWriteError) {
        // `withUnsafeBytes` only rethrows untyped errors, so the typed one is carried out by hand.
        let failure = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> FileWriteError? in
            do throws(FileWriteError) { try write(buffer, to: path, mode: mode, exactMode: exactMode, midWrite: midWrite) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Replaces `path` with `bytes` (see `write(_:to:mode:exactMode:midWrite:)` for `Data`).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644, exactMode: Bool = false) throws(FileWriteError) {
        let failure = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> FileWriteError? in
            do throws(FileWriteError) { try write(buffer, to: path, mode: mode, exactMode: exactMode, midWrite: nil) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    private static func write(
        _ bytes: UnsafeRawBufferPointer, to path: String, mode: mode_t, exactMode: Bool,
        midWrite: (() -> Void)?
    ) throws(FileWriteError) {
        try refuseSymbolicLink(at: path)
        let temporary = directory(of: path) + "/" + temporaryName(for: fileName(of: path))
        let descriptor = try createExclusively(temporary, mode: mode)
        var failure: FileWriteError?
        let half = bytes.count / 2
        failure = writeAll(UnsafeRawBufferPointer(rebasing: bytes[..<half]), to: descriptor, path: temporary)
        if failure == nil {
            midWrite?()
            failure = writeAll(UnsafeRawBufferPointer(rebasing: bytes[half...]), to: descriptor, path: temporary)
        }
        // The umask may only have narrowed `mode`; fchmod states it exactly.
        if failure == nil, exactMode, fchmod(descriptor, mode) != 0 { failure = systemFailure("cannot set its mode", temporary) }
        if failure == nil, fsync(descriptor) != 0 { failure = systemFailure("cannot flush", temporary) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = systemFailure("cannot replace", path) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        synchronizeDirectory(directory(of: path))
    }

    /// Creates `path`, which must not exist (not even as a link), open for writing; the caller
    /// closes the descriptor. The error names the path and says when a link is in the way.
    public static func createExclusively(_ path: String, mode: mode_t) throws(FileWriteError) -> Int32 {
        let descriptor = open(path, exclusiveCreation, mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST, isSymbolicLink(path) { throw linkInTheWay(path) }
            throw systemFailure("cannot create", path, code: code)
        }
        return descriptor
    }

    /// Opens the existing file `path` with `flags` (`O_RDONLY`, `O_WRONLY`, `O_RDWR`), refusing a
    /// symbolic link; nil when there is no such file.
    public static func openExisting(_ path: String, flags: Int32) throws(FileWriteError) -> Int32? {
        let descriptor = open(path, flags | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            // Linux answers ELOOP, the BSDs (macOS) EMLINK or ELOOP, for a link under O_NOFOLLOW.
            if code == ELOOP || code == EMLINK, isSymbolicLink(path) { throw linkInTheWay(path) }
            throw systemFailure("cannot open", path, code: code)
        }
        return descriptor
    }

    /// Throws when `path` is a symbolic link (dangling or not); nothing there, or a regular file, passes.
    public static func refuseSymbolicLink(at path: String) throws(FileWriteError) {
        if isSymbolicLink(path) { throw linkInTheWay(path) }
    }

    /// Whether `path` itself (not what it points to) is a symbolic link.
    public static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether `path` is a regular file itself (a link to one is not).
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// A fresh name for the temporary file beside `name`: hidden (so no `*.json` glob takes it)
    /// and with 64 random bits, so nobody can place a file or link there beforehand.
    public static func temporaryName(for name: String) -> String {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "." + name + "." + String(repeating: "0", count: 16 - random.count) + random + ".partial"
    }

    /// Whether `name` is one of `temporaryName(for: target)`'s names (tests, clean-ups).
    public static func isTemporaryName(_ name: String, for target: String) -> Bool {
        name.hasPrefix("." + target + ".") && name.hasSuffix(".partial") && name.count == target.count + 26
    }

    /// Flushes `directory` so the renames inside it survive a power cut; best effort (the files
    /// themselves are already flushed).
    public static func synchronizeDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) -> FileWriteError? {
        var offset = 0
        while offset < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return systemFailure("cannot write", path) }
            offset += count
        }
        return nil
    }

    private static func linkInTheWay(_ path: String) -> FileWriteError {
        FileWriteError(path: path, reason: "is a symbolic link; Understudy writes no file through or over a link (remove it, or name the real file)")
    }

    private static func systemFailure(_ what: String, _ path: String, code: Int32 = errno) -> FileWriteError {
        FileWriteError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }

    #if canImport(Glibc)
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(descriptor, buffer, count) }
    #elseif canImport(Darwin)
    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(descriptor, buffer, count) }
    #endif
}
