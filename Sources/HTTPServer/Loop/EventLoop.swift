/// A thread (or serial queue) that owns a set of connections: it watches their sockets, runs their
/// handler tasks as their preferred executor, and sweeps their deadlines.
///
/// `Connection` talks to its loop only through this protocol, so the epoll loop (Linux) and the
/// Dispatch loop (everywhere) serve the same connections. Every method except `execute`, `enqueue`,
/// `inLoop`, `watchedCount` and `stop` is called on the loop itself.
protocol EventLoop: TaskExecutor, AnyObject, Sendable {
    /// Which implementation this is.
    var kind: EventLoopKind { get }
    /// Scratch space connections read into (one per loop: reads never overlap on a loop).
    var readBuffer: UnsafeMutableRawBufferPointer { get }
    /// Whether the caller is running on this loop.
    var inLoop: Bool { get }
    /// Runs `work` on the loop (soon, in order).
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Whether work other than the caller's is queued on the loop now (called on the loop).
    var hasQueuedWork: Bool { get }

    /// Starts watching a connection's socket for reads; `sweepInterval` (seconds) bounds deadline slack.
    func register(_ connection: Connection, sweepInterval: Double)
    /// Changes which readiness a connection waits for; with neither, its socket is not watched at all.
    func watch(_ connection: Connection, read: Bool, write: Bool)
    /// Stops watching a connection, then runs `release` (which closes or hands off the descriptor)
    /// once the loop no longer refers to it: at once on epoll, after the sources' cancel handlers on
    /// Dispatch. Closing any earlier lets a new socket reuse the number while it is still watched.
    func unregister(_ connection: Connection, then release: @escaping () -> Void)
    /// Connections whose sockets are watched right now (safe from any thread).
    var watchedCount: Int { get }
    /// How long the loop stayed busy between two waits for its sockets, so far (safe from any
    /// thread); nil for a loop that cannot tell (Dispatch runs its work without such waits).
    var busyStretches: LoopBusyStretches? { get }
    /// Every connection this loop owns.
    var ownedConnections: [Connection] { get }

    /// Watches a listening socket; `handler` runs on the loop whenever it is readable.
    func registerListener(_ fd: Int32, handler: @escaping () -> Void)
    /// Stops watching `fd` for `nanoseconds` (accept ran out of descriptors), then runs its handler again.
    func pauseListener(_ fd: Int32, for nanoseconds: UInt64)
    /// Stops watching and closes every listening socket of this loop.
    func closeListeners()

    /// Asks the loop to exit once its queued work is done; it is unusable afterwards.
    func stop()
}

/// Creates the loops a server runs on.
enum EventLoopFactory {
    /// `count` loops of `kind`.
    static func makeLoops(_ kind: EventLoopKind, count: Int) -> [any EventLoop] {
        (0..<max(1, count)).map { index in
            switch kind {
            case .epoll:
                #if os(Linux)
                return EpollEventLoop(index: index)
                #else
                preconditionFailure("the epoll loop exists only on Linux; EventLoopKind.available says so")
                #endif
            case .dispatch:
                return DispatchEventLoop(index: index)
            }
        }
    }
}

/// How long an event loop stayed busy at a stretch, from a wake-up to its next wait for sockets.
///
/// A busy loop reads none of its other connections: a request that arrives meanwhile waits in its
/// socket, and the server starts timing it only once it is read. A client that saw a slow answer
/// the server's own request timing does not show can look here for the rest of the wait.
public struct LoopBusyStretches: Sendable, Equatable {
    /// Stretches of `slowNanoseconds` (25 ms) or longer.
    public var slow = 0
    /// Stretches of `verySlowNanoseconds` (100 ms) or longer (also counted in `slow`).
    public var verySlow = 0
    /// The longest stretch, in nanoseconds.
    public var longestNanoseconds = 0

    /// What `slow` counts from: 25 ms.
    public static let slowNanoseconds: UInt64 = 25_000_000
    /// What `verySlow` counts from: 100 ms.
    public static let verySlowNanoseconds: UInt64 = 100_000_000

    /// Counts of zero.
    public init() {}

    /// The loops' figures together: counts added, the longest of the longest.
    static func + (a: Self, b: Self) -> Self {
        var sum = Self()
        sum.slow = a.slow + b.slow
        sum.verySlow = a.verySlow + b.verySlow
        sum.longestNanoseconds = max(a.longestNanoseconds, b.longestNanoseconds)
        return sum
    }
}
