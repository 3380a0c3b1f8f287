#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an `accept` failure means for the listener.
enum AcceptPolicy {
    /// How the accept loop goes on after a failure.
    enum Reaction: Equatable {
        /// Try again at once (interrupted, or that one connection died in the backlog).
        case retry
        /// Nothing to accept now; wait for the next readiness event.
        case wait
        /// Out of descriptors or memory: the pending connection stays in the backlog and the
        /// listener stays readable, so watching it on would spin the loop. Stop watching it for
        /// `nanoseconds`, then try again.
        case pause(nanoseconds: UInt64)
    }

    /// How long accepting pauses when descriptors run out.
    static let pauseNanoseconds: UInt64 = 100_000_000

    /// The reaction to `accept` failing with `code`.
    static func reaction(toErrno code: Int32) -> Reaction {
        switch code {
        case EINTR, ECONNABORTED, EPROTO, EPERM: return .retry
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .pause(nanoseconds: pauseNanoseconds)
        default: return .wait
        }
    }
}

/// The soft limit on open descriptors, before and after `HTTPServer.raiseOpenFileLimit()`.
public struct OpenFileLimit: Sendable, Equatable {
    /// The soft limit found at start.
    public var previous: UInt64
    /// The soft limit now in force.
    public var current: UInt64
    /// The hard limit (the most the soft limit can be raised to).
    public var hard: UInt64
}

extension HTTPServer {
    /// Raises this process's soft RLIMIT_NOFILE to its hard limit (each connection costs a
    /// descriptor; the default soft limit of 1,024 is a few hundred keep-alive clients) and
    /// says what it did, for the log.
    @discardableResult
    public static func raiseOpenFileLimit() -> OpenFileLimit {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return OpenFileLimit(previous: 0, current: 0, hard: 0) }
        let previous = UInt64(limit.rlim_cur)
        // Darwin reports an unlimited hard limit that setrlimit refuses; OPEN_MAX is its real ceiling.
        #if canImport(Darwin)
        let target = min(limit.rlim_max, rlim_t(OPEN_MAX))
        #else
        let target = limit.rlim_max
        #endif
        if limit.rlim_cur < target {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resourceNoFile, &raised) == 0 { limit = raised }
        }
        return OpenFileLimit(previous: previous, current: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    #if os(Linux)
    private static var resourceNoFile: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    #else
    private static var resourceNoFile: Int32 { RLIMIT_NOFILE }
    #endif
}
