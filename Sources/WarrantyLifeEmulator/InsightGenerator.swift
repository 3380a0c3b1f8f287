import EmulatorCore
import Foundation

/// Builds a plausible `InsightData` for a device from the project clock, in the device's time zone
/// (periods local, reward months UTC), so tests can ask for "some insights" without writing one.
enum InsightGenerator {
    /// The generator seed of an item: FNV-1a (64 bit) of its id's UTF-8 bytes, so the same item
    /// gets the same insights in every process (`hashValue` is randomised per process).
    static func seed(forItem id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// An `InsightData` for `now` in `timeZone`; the same seed gives the same ranks.
    static func generate(now: Date, timeZone: TimeZone, seed: UInt64) -> JSONValue {
        var generator = IDGenerator(seed: seed)
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")! // UTC is always a known zone
        func day(_ date: Date, _ calendar: Calendar) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04ld-%02ld-%02ld", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        func month(_ date: Date, _ calendar: Calendar) -> String {
            let parts = calendar.dateComponents([.year, .month], from: date)
            return String(format: "%04ld-%02ld", parts.year ?? 0, parts.month ?? 0)
        }
        func rank() -> JSONValue { .int(Int64(generator.int(in: 1...100))) }
        func history() -> JSONValue {
            let hour = local.component(.hour, from: now)
            let hourly: [JSONValue] = (0...min(hour, 3)).reversed().map { back in
                ["hour": .int(Int64(hour - back)), "date": .string(day(now, local)), "rank": rank(), "isProjected": .bool(back == 0)]
            }
            let daily: [JSONValue] = (0..<7).reversed().map { back in
                ["date": .string(day(now.addingTimeInterval(Double(-back) * 86_400), local)), "rank": rank(), "isProjected": .bool(back == 0)]
            }
            let weekStart = local.dateInterval(of: .weekOfYear, for: now)?.start ?? now
            let weekly: [JSONValue] = (0..<4).reversed().map { back in
                ["startDate": .string(day(weekStart.addingTimeInterval(Double(-back) * 7 * 86_400), local)), "rank": rank(), "isProjected": .bool(back == 0)]
            }
            let monthly: [JSONValue] = (0..<3).reversed().map { back in
                ["month": .string(month(local.date(byAdding: .month, value: -back, to: now) ?? now, local)), "rank": rank(), "isProjected": .bool(back == 0)]
            }
            return ["hourly": .array(hourly), "daily": .array(daily), "weekly": .array(weekly), "monthly": .array(monthly)]
        }
        func tip(_ key: String, _ value: String) -> JSONValue {
            [key: .string(value), "percentage": .double(Double(generator.int(in: 500...950)) / 10), "value": .double(Double(generator.int(in: 100...600)))]
        }
        let previousMonth = utc.date(byAdding: .month, value: -1, to: now) ?? now
        let nextMonth = utc.date(byAdding: .month, value: 1, to: now) ?? now
        return [
            "generatedAt": .string(Timestamp.format(now, fractionalSeconds: false)), "timeZone": .string(timeZone.identifier),
            "dropRank": history(), "batteryRank": history(),
            "coaching": ["generalHints": ["Use a case with raised edges."], "batteryHints": ["Avoid charging above 80% overnight."], "tipHints": []],
            "rewards": [
                "current": ["month": .string(month(now, utc)), "amount": 25.0], "projected": ["month": .string(month(nextMonth, utc)), "amount": 30.0],
                "history": [["month": .string(month(previousMonth, utc)), "amount": 20.0]],
            ],
            "tip": [
                "current": tip("date", day(now, local)), "daily": [tip("date", day(now, local))],
                "weekly": [tip("startDate", day(local.dateInterval(of: .weekOfYear, for: now)?.start ?? now, local))], "monthly": [tip("month", month(now, local))],
            ],
        ]
    }
}
