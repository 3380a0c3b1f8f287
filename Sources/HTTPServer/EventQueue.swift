import Dispatch

/// A serial queue that owns a set of connections, plus the scratch read buffer they share.
///
/// Connections are spread over a few of these (one per core); everything a connection does
/// happens on its queue, so its state needs no locks. The queue is also the task executor its
/// connections' handlers prefer: a handler starts and resumes on the queue that read its
/// request, so answering needs no thread hand-off (and no thread of Swift's cooperative pool,
/// which an in-process host such as a test suite may be blocking).
final class EventQueue: TaskExecutor, @unchecked Sendable { // `readBuffer` is only touched on `queue`
    let queue: DispatchQueue
    let readBuffer: UnsafeMutableRawBufferPointer
    /// The connections this queue owns, for the deadline sweep.
    private var connections: [Int: Connection] = [:]
    private var sweeper: DispatchSourceTimer?

    init(label: String, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit {
        sweeper?.cancel()
        readBuffer.deallocate()
    }

    /// Adds a connection to the deadline sweep. Call on `queue`.
    ///
    /// One repeating timer per queue replaces a timer per connection: re-arming a Dispatch timer
    /// wakes Dispatch's manager thread, which cost ~10% of a keep-alive request in profiles;
    /// a deadline is now a plain field write and the sweep checks it every `interval`.
    func register(_ connection: Connection, sweepInterval: Double) {
        connections[connection.id] = connection
        guard sweeper == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(max(0.005, min(0.25, sweepInterval)) * 1e9)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds), leeway: .milliseconds(5))
        timer.setEventHandler { [unowned self] in self.sweep() }
        sweeper = timer
        timer.resume()
    }

    /// Removes a closed connection. Call on `queue`.
    func unregister(_ connection: Connection) {
        connections.removeValue(forKey: connection.id)
    }

    private func sweep() {
        guard !connections.isEmpty else { return }
        let now = MonotonicClock.nanoseconds()
        for connection in Array(connections.values) { // a copy: closing unregisters
            if let deadline = connection.deadline, deadline <= now { connection.deadlinePassed() }
        }
    }

    /// Runs a job of a handler task on this queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
