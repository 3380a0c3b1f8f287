import Dispatch
import Synchronization

/// An event loop on one serial Dispatch queue: a read source per connection (and a write source
/// while its output is blocked), a read source per listener, and one repeating timer that sweeps
/// deadlines. Portable: kqueue is under it on macOS, libdispatch's own epoll thread on Linux.
///
/// What it costs, counted with strace on Linux: libdispatch watches every source from its one
/// manager thread, which for a keep-alive request wakes for the socket, sizes the input (ioctl),
/// wakes a worker to drain this queue (futex), and is woken again (eventfd) to re-arm the one-shot
/// registration (epoll_ctl): about 11 system calls and three thread wake-ups where the epoll loop
/// makes 3 calls and one. Suspending and resuming a source adds no system call. A handler task
/// that awaits nothing runs to completion in the same drain: its job is queued behind the read
/// that started it, on the same queue, with no thread hop.
final class DispatchEventLoop: EventLoop, @unchecked Sendable {
    // Confined to `queue`: `watches`, `listeners`, `timer`, `sweepNanoseconds`, the contents of
    // `readBuffer`, and every `Watch` and `Listener`. Shared: `queue`, `key` (immutable), `watched`.

    /// One connection's sources. Dispatch's rules shape it: a suspended source must be resumed
    /// before it can finish cancelling (and before it is released), and the descriptor may close
    /// only once every source on it has run its cancel handler; until then libdispatch still
    /// holds the descriptor number, and a new socket that got the same number would be confused
    /// with the old one.
    private final class Watch: @unchecked Sendable { // confined to the loop's queue
        let connection: Connection
        let read: DispatchSourceRead
        var reading = true
        var write: DispatchSourceWrite?
        var writing = false
        var watched: Bool { reading || writing }

        init(connection: Connection, read: DispatchSourceRead) {
            self.connection = connection
            self.read = read
        }
    }

    /// A listening socket's source, and whether accepting is paused (the source is suspended).
    private final class Listener: @unchecked Sendable { // confined to the loop's queue
        let source: DispatchSourceRead
        let accept: () -> Void
        var paused = false

        init(source: DispatchSourceRead, accept: @escaping () -> Void) {
            self.source = source
            self.accept = accept
        }
    }

    /// Runs a closure once `count` cancel handlers have reported (on the loop's queue).
    private final class CancelCountdown: @unchecked Sendable { // confined to the loop's queue
        private var remaining: Int
        private let then: () -> Void

        init(count: Int, then: @escaping () -> Void) {
            remaining = count
            self.then = then
        }

        func sourceCancelled() {
            remaining -= 1
            if remaining == 0 { then() }
        }
    }

    let readBuffer: UnsafeMutableRawBufferPointer
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()
    /// Which loop a queue belongs to, for `LoopTurn.current` (weak: the queue must not keep its loop).
    private static let ownerKey = OwnerKey()
    private struct OwnerKey: @unchecked Sendable { // immutable; declared Sendable by some Dispatch versions only
        let key = DispatchSpecificKey<Owner>()
    }
    private final class Owner: @unchecked Sendable { // written once, before the queue runs anything
        weak var loop: DispatchEventLoop?
    }
    private var watches: [Int32: Watch] = [:]
    private var listeners: [Int32: Listener] = [:]
    private let watched = Atomic<Int>(0)
    private var timer: DispatchSourceTimer?
    private var sweepNanoseconds: UInt64 = 250_000_000

    /// Dispatch.
    var kind: EventLoopKind { .dispatch }

    init(index: Int, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: "understudy.http.loop.\(index)", qos: .userInitiated)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
        queue.setSpecific(key: key, value: true)
        let owner = Owner()
        owner.loop = self
        queue.setSpecific(key: Self.ownerKey.key, value: owner)
    }

    /// The loop whose queue runs the caller, if any.
    static var current: DispatchEventLoop? { DispatchQueue.getSpecific(key: ownerKey.key)?.loop }

    deinit {
        timer?.cancel() // a timer the server never stopped would otherwise fire for ever
        readBuffer.deallocate()
    }

    // MARK: - Scheduling work

    /// Whether the caller is running on this loop's queue.
    var inLoop: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// Runs `work` on the loop's queue (soon, in order).
    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Always true: a Dispatch queue does not tell what is queued on it.
    var hasQueuedWork: Bool { true }

    /// Runs a job of a handler task on the loop's queue. From the queue itself (a handler that
    /// starts or resumes without awaiting anything) this wakes no thread: the draining worker
    /// picks the job up after the current item.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Asks the loop to stop sweeping; work already queued still runs (cancel handlers close sockets).
    func stop() {
        queue.async { [self] in
            timer?.cancel()
            timer = nil
        }
    }

    // MARK: - Connections (on the queue)

    func register(_ connection: Connection, sweepInterval: Double) {
        sweep(every: ConnectionConfiguration.nanoseconds(max(0.005, min(0.25, sweepInterval))))
        let read = DispatchSource.makeReadSource(fileDescriptor: connection.fileDescriptor, queue: queue)
        let watch = Watch(connection: connection, read: read)
        // The handlers hold the watch strongly; cancelling frees them, which ends the cycle.
        // A hang-up reaches the handler as a readable socket whose read fails or ends; `readable`
        // needs no separate flag for it, because the source only runs while the machine reads.
        read.setEventHandler { watch.connection.readable(hangUp: false) }
        watches[connection.fileDescriptor] = watch
        read.resume()
        watched.add(1, ordering: .relaxed)
    }

    /// Changes which readiness a connection waits for by suspending and resuming its sources (a
    /// write source exists only once output first blocked). With neither, nothing is delivered:
    /// a suspended source holds its event until it is resumed, so a peer that resets while its
    /// handler runs wakes no one.
    func watch(_ connection: Connection, read: Bool, write: Bool) {
        guard let watch = watches[connection.fileDescriptor] else { return }
        let wasWatched = watch.watched
        if read != watch.reading {
            watch.reading = read
            if read { watch.read.resume() } else { watch.read.suspend() }
        }
        if write != watch.writing {
            watch.writing = write
            if write { writeSource(of: watch).resume() } else { watch.write?.suspend() }
        }
        if wasWatched != watch.watched { watched.add(watch.watched ? 1 : -1, ordering: .relaxed) }
    }

    private func writeSource(of watch: Watch) -> DispatchSourceWrite {
        if let write = watch.write { return write }
        let write = DispatchSource.makeWriteSource(fileDescriptor: watch.connection.fileDescriptor, queue: queue)
        write.setEventHandler { watch.connection.writable() }
        watch.write = write
        return write
    }

    /// Cancels the connection's sources and runs `release` (which closes the descriptor) once
    /// Dispatch has let go of it: after the last cancel handler, on the queue.
    func unregister(_ connection: Connection, then release: @escaping () -> Void) {
        guard let watch = watches.removeValue(forKey: connection.fileDescriptor) else {
            release()
            return
        }
        if watch.watched { watched.subtract(1, ordering: .relaxed) }
        let countdown = CancelCountdown(count: watch.write == nil ? 1 : 2, then: release)
        // Cancelled before resumed: a suspended source's pending event then never reaches its handler.
        watch.read.setCancelHandler { countdown.sourceCancelled() }
        watch.read.cancel()
        if !watch.reading { watch.read.resume() }
        if let write = watch.write {
            write.setCancelHandler { countdown.sourceCancelled() }
            write.cancel()
            if !watch.writing { write.resume() }
        }
    }

    /// Connections whose sources are resumed right now.
    var watchedCount: Int { watched.load(ordering: .relaxed) }

    /// Nil: the queue runs sources and work without a wait of its own to time stretches from.
    var busyStretches: LoopBusyStretches? { nil }

    /// Every connection this loop owns (on the queue).
    var ownedConnections: [Connection] { watches.values.map(\.connection) }

    // MARK: - Listeners (on the queue)

    /// Watches a listening socket; `handler` runs on the queue when it is readable.
    func registerListener(_ fd: Int32, handler: @escaping () -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let listener = Listener(source: source, accept: handler)
        source.setEventHandler { listener.accept() } // freed when the source is cancelled
        listeners[fd] = listener
        source.resume()
    }

    /// Suspends a listener's source for `nanoseconds` (accept ran out of descriptors), then
    /// resumes it and tries to accept again.
    func pauseListener(_ fd: Int32, for nanoseconds: UInt64) {
        guard let listener = listeners[fd], !listener.paused else { return }
        listener.paused = true
        listener.source.suspend()
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) { [weak self] in
            // The listener may have been closed meanwhile, and its number reused by another one.
            guard let self, self.listeners[fd] === listener, listener.paused else { return }
            listener.paused = false
            listener.source.resume()
            listener.accept()
        }
    }

    /// Cancels every listener's source; each socket closes in its cancel handler.
    func closeListeners() {
        for (fd, listener) in listeners {
            listener.source.setCancelHandler { Socket.close(fd) }
            listener.source.cancel()
            if listener.paused { listener.source.resume() }
        }
        listeners = [:]
    }

    // MARK: - Deadlines

    /// One repeating timer per loop; rescheduled only when the interval changes, never per request.
    private func sweep(every nanoseconds: UInt64) {
        if timer != nil && nanoseconds == sweepNanoseconds { return }
        sweepNanoseconds = nanoseconds
        let timer = self.timer ?? makeTimer()
        let interval = DispatchTimeInterval.nanoseconds(Int(nanoseconds))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(nanoseconds / 10)))
    }

    private func makeTimer() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.sweepDeadlines() }
        self.timer = timer
        timer.resume()
        return timer
    }

    private func sweepDeadlines() {
        guard !watches.isEmpty else { return }
        let now = MonotonicClock.nanoseconds()
        for watch in Array(watches.values) { // a copy: closing unregisters
            if let deadline = watch.connection.deadline, deadline <= now { watch.connection.tick(now: now) }
        }
    }
}
