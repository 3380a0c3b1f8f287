import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The Telematics wire takes any ISO 8601 time: with or without a fraction or an offset (none
/// means UTC), or a date alone (its midnight, UTC).
@Suite("Telematics time formats")
struct TelematicsTimeFormatTests {
    @Test("a time without an offset is UTC and a date is its midnight: manual events, trip ranges and telemetry take both")
    func timesWithoutOffset() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let token = try await admin.mintTokens(userId: 2).token
            let stamps = ["2026-11-03T11:00:00", "2026-11-03T11:00:00.25", "2026-11-03", "2026-11-03T11:00:00+01:00"]
            for stamp in stamps {
                let (status, error) = try await TelematicsBadInputTests.send(
                    server, "POST", "/manual-events", token: token, body: Data(#"{"type": "speeding", "timestamp": "\#(stamp)"}"#.utf8))
                #expect(status == 201, "\(stamp): \(error?.code ?? "")")
            }
            let events = try await admin.manualEvents(userId: 2)["events"]?.array ?? []
            let times = Set(events.compactMap { $0["timestamp"]?.string })
            for expected in ["2026-11-03T11:00:00.000000Z", "2026-11-03T11:00:00.250000Z", "2026-11-03T00:00:00.000000Z", "2026-11-03T10:00:00.000000Z"] {
                #expect(times.contains(expected), "\(expected) not among \(times)")
            }
            for query in [[("startTs", "2026-11-03T00:00:00"), ("endTs", "2026-11-04")], [("from", "2026-11-03"), ("to", "2026-11-04T12:30:00.5")]] {
                #expect(try await TelematicsBadInputTests.send(server, "GET", "/trips", token: token, query: query).0 == 200, "\(query)")
            }
            let samples =
                #"{"samples": [{"timestamp": "2026-11-03T10:00:00", "latitude": 40, "longitude": -8}, "#
                + #"{"timestamp": "2026-11-03T10:00:01.5", "latitude": 40, "longitude": -8}]}"#
            let upload = try await TelematicsBadInputTests.send(server, "POST", "/telemetry", token: token, body: Data(samples.utf8))
            #expect((200..<300).contains(upload.0), "\(upload.1?.code ?? "") \(upload.1?.message ?? "")")
            // Still refused: text that is no ISO 8601 time.
            for stamp in ["yesterday", "2026-13-03", "11:00:00", "2026-11-03T11:00:00 UTC"] {
                let (status, error) = try await TelematicsBadInputTests.send(
                    server, "POST", "/manual-events", token: token, body: Data(#"{"type": "speeding", "timestamp": "\#(stamp)"}"#.utf8))
                #expect(status == 400 && error?.code == "INVALID_DATE", "\(stamp) answered \(status)")
            }
        }
    }
}
