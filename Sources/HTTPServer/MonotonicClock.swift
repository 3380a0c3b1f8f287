#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic time for durations and timeouts (never goes backwards, unlike the wall clock).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point.
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Milliseconds elapsed since `start` (a value of `nanoseconds()`).
    public static func millisecondsSince(_ start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1_000_000
    }
}
