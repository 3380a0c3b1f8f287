/// The event loop the caller runs on, as code outside the server may use it: to run work once the
/// loop has run what is queued on it now (the end of its turn).
///
/// A handler's work is queued on its connection's loop, so the handlers started by one wake-up
/// run one after another before anything queued behind them: work handed to `afterQueuedWork`
/// meets every one of them (the database gathers their writes into one transaction that way).
public struct LoopTurn: Sendable {
    private let loop: any EventLoop

    /// Identifies the loop (one value per loop for its whole life).
    public var id: ObjectIdentifier { ObjectIdentifier(loop) }

    /// Whether anything besides the caller waits on the loop now: false means no other work of
    /// this turn can join work handed to `afterQueuedWork` (always true on the Dispatch loop,
    /// which cannot tell).
    public var hasQueuedWork: Bool { loop.hasQueuedWork }

    /// Runs `work` on the loop after everything queued on it now.
    public func afterQueuedWork(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

    /// The loop running the caller; nil off the server's loops.
    public static var current: LoopTurn? {
        #if os(Linux)
        if let loop = EpollEventLoop.current { return LoopTurn(loop: loop) }
        #endif
        return DispatchEventLoop.current.map { LoopTurn(loop: $0) }
    }
}
