import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IMF-fixdate for the `Date` header, formatted at most once per second for the whole process.
public enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: [UInt8])>((-1, []))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current date as `Sun, 06 Nov 1994 08:49:37 GMT`, as bytes ready to copy into a response head.
    public static func now() -> [UInt8] {
        let second = time(nil)
        return cache.withLock { cached in
            if cached.second == second { return cached.text }
            let text = Array(format(epochSeconds: second).utf8)
            cached = (second, text)
            return text
        }
    }

    /// Formats epoch seconds as an IMF-fixdate.
    public static func format(epochSeconds: Int) -> String {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
