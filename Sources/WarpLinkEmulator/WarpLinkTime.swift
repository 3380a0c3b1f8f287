import EmulatorCore
import Foundation

/// Millisecond timestamps that survive a store-and-read round trip.
///
/// `Timestamp.format` truncates to milliseconds, and a parsed `…640Z` can come back as
/// `…639999…`, so formatting what was read could print `.639`. Rounding to the nearest
/// millisecond first and nudging inside it makes format(parse(format(x))) == format(x).
public enum WarpLinkTime {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond.
    public static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Timestamp.format(Date(timeIntervalSince1970: milliseconds / 1000 + 0.000_2))
    }
}
