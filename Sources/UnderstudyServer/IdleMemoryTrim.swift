#if canImport(CMallocTrim)
import CMallocTrim
#endif
import Foundation

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
        #if canImport(CMallocTrim)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "understudy.memory-trim", qos: .utility))
        nonisolated(unsafe) var policy = IdleTrimPolicy() // only the timer's serial queue touches it
        timer.setEventHandler {
            guard policy.observe(cpuSeconds: Self.processCPUSeconds(), interval: interval) else { return }
            let before = Self.residentBytes()
            _ = cmalloc_trim(0)
            onTrim(before, Self.residentBytes())
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

    /// User plus system CPU seconds of the whole process.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage) // an enum in glibc's headers, a macro elsewhere
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's resident set in bytes, from `/proc/self/statm`; nil where there is none.
    static func residentBytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}
