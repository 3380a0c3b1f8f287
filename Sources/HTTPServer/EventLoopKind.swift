/// Which event loop implementation serves a server's connections.
public enum EventLoopKind: String, Sendable, Equatable, CaseIterable {
    /// epoll on a thread per loop (Linux only): one wake-up per keep-alive request.
    case epoll
    /// Dispatch read and write sources (kqueue on macOS, epoll under libdispatch on Linux).
    case dispatch

    /// The loops this build can run.
    public static var available: [EventLoopKind] {
        #if os(Linux)
        return [.epoll, .dispatch]
        #else
        return [.dispatch]
        #endif
    }

    /// epoll on Linux, Dispatch elsewhere.
    public static var platformDefault: EventLoopKind {
        #if os(Linux)
        return .epoll
        #else
        return .dispatch
        #endif
    }
}
