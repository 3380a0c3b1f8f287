import EmulatorCore
import Foundation
import Testing

/// Zone names as devices send them: every tz database name, on Linux as on macOS.
@Suite("Time zone names")
struct TimeZoneNamesTests {
    private static let june = Date(timeIntervalSince1970: 1_780_000_000) // 2026-05-28, northern summer

    @Test("canonical names and backward aliases resolve with their real offsets")
    func namesDevicesSend() throws {
        let expected: [(String, Int)] = [
            ("Asia/Kolkata", 19_800), ("Asia/Calcutta", 19_800), ("US/Eastern", -14_400), ("America/New_York", -14_400),
            ("Etc/UTC", 0), ("UTC", 0), ("Europe/Kyiv", 10_800), ("Asia/Kathmandu", 20_700), ("Australia/Adelaide", 34_200),
        ]
        for (name, offset) in expected {
            let zone = try #require(TimeZoneNames.zone(name), "\(name) is refused")
            #expect(zone.secondsFromGMT(for: Self.june) == offset, "\(name)")
            #expect(TimeZoneNames.isValid(name))
        }
    }

    @Test("abbreviations, made-up names and empty text are no zone names")
    func notZoneNames() {
        for name in ["PST", "CEST", "Not/AZone", "Mars/Olympus", "", "asia/kolkata", "Asia/Kolkata "] {
            #expect(!TimeZoneNames.isValid(name), "\(name) is accepted")
        }
    }

    @Test("the list is the tz database's: hundreds of names, sorted, without duplicates, all resolvable here")
    func theList() {
        #expect(TimeZoneNames.all.count > 550)
        #expect(TimeZoneNames.all == TimeZoneNames.all.sorted())
        #expect(Set(TimeZoneNames.all).count == TimeZoneNames.all.count)
        let unresolved = TimeZoneNames.all.filter { TimeZone(identifier: $0) == nil }
        #expect(unresolved.isEmpty, "this system's Foundation cannot resolve \(unresolved)")
        #expect(TimeZoneNames.resolvable.contains("Asia/Kolkata"))
    }
}
