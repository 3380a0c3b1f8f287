import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running server's claim on a CA folder: a shared `flock` on `understudy-ca.in-use` held for
/// the server's lifetime (the kernel drops it when the process ends, even on `kill -9`). `ca
/// reset` in another process asks `isClaimed` and refuses, since the server would go on signing
/// with the old CA while devices were told to trust the new one; the reset holds the lock
/// exclusively while it writes, so a server starting meanwhile waits and loads the new CA.
public final class CertificateAuthorityUse: Sendable {
    /// The lock file's name inside the CA folder (empty; it stays behind).
    public static let fileName = "understudy-ca.in-use"

    private let descriptor: Int32

    /// Claims `directory` (creating it and the lock file when missing) until this value is released.
    public init(directory: String) throws(CertificateAuthorityError) {
        try CertificateAuthorityFiles.createFolder(directory)
        let path = Self.path(directory)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        while flock(descriptor, LOCK_SH) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw .io(path: path, reason: "cannot lock: \(String(cString: strerror(errno)))")
            }
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) } // closing releases the lock

    /// Runs `body` while no server claims `directory`, keeping servers from claiming it until
    /// `body` returns; `.inUse` when a server already does.
    static func withoutClaims<T>(_ directory: String, _ body: () throws(CertificateAuthorityError) -> T) throws(CertificateAuthorityError) -> T {
        try CertificateAuthorityFiles.createFolder(directory)
        let path = Self.path(directory)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) } // closing releases the lock
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { throw .inUse(directory: directory) }
            guard errno == EINTR else { throw .io(path: path, reason: "cannot lock: \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    private static func path(_ directory: String) -> String {
        directory.hasSuffix("/") ? directory + fileName : "\(directory)/\(fileName)"
    }
}
