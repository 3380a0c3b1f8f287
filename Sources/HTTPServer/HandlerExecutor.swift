import Foundation

/// Runs request handlers on threads of its own instead of Swift's cooperative pool.
///
/// The cooperative pool has one thread per core (two here). An in-process server shares it with
/// whatever else the process runs: a test suite that blocks a pool thread on a socket would
/// otherwise starve every handler until its own read times out. Handler tasks prefer this
/// executor, so they keep running whatever the host process does.
public final class HandlerExecutor: TaskExecutor, @unchecked Sendable { // `jobs`/`head` are guarded by `condition`
    /// The process-wide executor, one thread per core (at least two).
    public static let shared = HandlerExecutor(threads: max(2, ProcessInfoCores.count))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    /// Starts `threads` worker threads that live as long as the process.
    public init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "understudy.handlers.\(index)"
            thread.start()
        }
    }

    /// Queues a job; a worker runs it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 4096 {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
