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

    init(label: String, readBufferSize: Int = 64 * 1024) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    /// Runs a job of a handler task on this queue.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
