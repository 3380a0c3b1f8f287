import EmulatorCore
import Foundation

#if canImport(CMalloc)
import CMalloc
#endif

/// How the server's heap is set up before it starts serving.
enum HeapSetup {
    /// Allocations of this size or more are mapped from the system and unmapped when freed.
    static let mappedFrom = 1_024 * 1_024

    /// Fixes glibc's mmap threshold at `mappedFrom`; false where that cannot be done.
    ///
    /// glibc starts the threshold at 128 KiB and raises it to the size of every larger mapped
    /// block freed, up to 32 MiB. The benchmark maps blocks of up to 15 MiB (`malloc_stats`), so
    /// after the first of them large buffers were carved from the arenas instead, the small
    /// long-lived blocks allocated among them kept those pages resident, and `malloc_trim` could
    /// not return them. The resident set at rest after each benchmark round
    /// then rose by 8–21 MiB with the live heap level; fixed at 1 MiB it stayed within half a MiB.
    /// The bodies the SDKs send (up to a 343 KB readings batch) stay below it: mapping each of
    /// those afresh cost a readings batch 7% more CPU with the threshold at 256 KiB.
    @discardableResult
    static func apply() -> Bool {
        #if canImport(CMalloc)
        return cmalloc_set_mmap_threshold(mappedFrom) == 1
        #else
        return false
        #endif
    }
}

/// When to hand freed heap back to the system: once the process has gone quiet after real work.
///
/// glibc's allocator keeps what a burst of requests freed in its per-thread arenas, so a server
/// that handled a load test kept 40–50 MB it no longer used, and its RSS rose from one load to
/// the next. `malloc_trim` returns that memory, but it walks every arena under their locks, so it
/// runs only when the last interval used almost no CPU, and only after enough work since the last
/// trim for there to be something to give back.
struct IdleTrimPolicy: Sendable {
    /// CPU seconds per second below which the process counts as idle.
    let idleShare: Double
    /// CPU seconds spent since the last trim before another is worth it.
    let workBetweenTrims: Double
    private var lastCPU: Double?
    private var cpuAtLastTrim = 0.0

    /// A policy with these thresholds (tests choose their own).
    init(idleShare: Double = 0.02, workBetweenTrims: Double = 0.5) {
        self.idleShare = idleShare
        self.workBetweenTrims = workBetweenTrims
    }

    /// Takes the process's CPU seconds so far, `interval` seconds after the previous reading;
    /// returns whether to trim now.
    mutating func observe(cpuSeconds: Double, interval: Double) -> Bool {
        defer { lastCPU = cpuSeconds }
        guard let last = lastCPU, interval > 0 else {
            cpuAtLastTrim = cpuSeconds
            return false
        }
        let quiet = (cpuSeconds - last) / interval < idleShare
        guard quiet, cpuSeconds - cpuAtLastTrim >= workBetweenTrims else { return false }
        cpuAtLastTrim = cpuSeconds
        return true
    }
}

/// Trims the heap when `IdleTrimPolicy` says so, checking every `interval` seconds on a utility
/// queue of its own. Only where the C library has `malloc_trim` (glibc); elsewhere it never starts.
final class IdleMemoryTrimmer {
    private let timer: DispatchSourceTimer?

    /// Starts checking; `onTrim` gets the resident bytes before and after each trim.
    init(interval: Double = 1, onTrim: @escaping @Sendable (_ before: Int?, _ after: Int?) -> Void = { _, _ in }) {
        #if canImport(CMalloc)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "understudy.memory-trim", qos: .utility))
        nonisolated(unsafe) var policy = IdleTrimPolicy() // only the timer's serial queue touches it
        timer.setEventHandler {
            guard policy.observe(cpuSeconds: ProcessUsage.cpuSeconds(), interval: interval) else { return }
            let before = ProcessUsage.residentBytes()
            _ = cmalloc_trim(0)
            onTrim(before, ProcessUsage.residentBytes())
        }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.resume()
        self.timer = timer
        #else
        timer = nil
        #endif
    }

    /// Stops checking.
    func cancel() { timer?.cancel() }
}
