import Foundation

#if canImport(CMalloc)
import CMalloc
#endif

/// What the whole process uses — its resident set, CPU time and heap — read where the metrics
/// scrape and the idle heap trim need it.
public enum ProcessUsage {
    /// The allocator's view of the heap: what the program holds and what the allocator keeps
    /// from the system to serve it. Their difference is freed memory not yet handed back.
    public struct Heap: Sendable, Equatable {
        /// Bytes in live allocations.
        public var inUseBytes: Int
        /// Bytes of arena and mmapped memory the allocator holds, live allocations included.
        public var heldBytes: Int
    }

    /// User plus system CPU seconds of the whole process.
    public static func cpuSeconds() -> Double {
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
    public static func residentBytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    /// The heap as glibc's allocator counts it, over all its arenas; nil with another allocator.
    /// It walks every arena's free lists under their locks: for a scrape, not a request path.
    public static func heap() -> Heap? {
        #if canImport(CMalloc)
        var inUse = 0, held = 0
        guard cmalloc_usage(&inUse, &held) == 1 else { return nil }
        return Heap(inUseBytes: inUse, heldBytes: held)
        #else
        return nil
        #endif
    }
}
