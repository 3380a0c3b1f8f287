import EmulatorCore
import Foundation
import HTTPServer
import Testing

@testable import AsleepEmulator

@Suite("Asleep wire formats")
struct WireTests {
    let instant = Date(timeIntervalSince1970: 1_736_909_429) // 2025-01-15T02:50:29Z

    @Test("timestamps: data API with offsets in the requested zone, user API in UTC with Z, ids from UTC")
    func times() throws {
        #expect(WireTime.format(instant, in: WireTime.utc) == "2025-01-15T02:50:29+00:00")
        #expect(WireTime.format(instant, in: try WireTime.zone("Asia/Seoul")) == "2025-01-15T11:50:29+09:00")
        #expect(WireTime.format(instant, in: try WireTime.zone("America/St_Johns")) == "2025-01-14T23:20:29-03:30")
        #expect(WireTime.formatUTC(instant) == "2025-01-15T02:50:29Z")
        #expect(WireTime.compactUTC(instant) == "20250115025029")
        #expect(WireTime.name(try WireTime.zone(nil)) == "UTC")
        #expect(throws: AsleepError.invalidTimezone) { try WireTime.zone("Mars/Olympus") }
        #expect(WireTime.parseInstant("2025-01-15T02:50:29.750Z") == instant)
        #expect(WireTime.parseInstant("2025-01-15T11:50:29+09:00") == instant)
        #expect(WireTime.parseInstant("15/01/2025") == nil)
    }

    @Test("client instants: every RFC 3339 date-time, including offsets past ±18 h, lower-case t/z and long fractions")
    func rfc3339Instants() throws {
        #expect(WireTime.parseInstant("2025-01-15T02:50:29Z") == instant)
        #expect(WireTime.parseInstant("2025-01-15t02:50:29.999999z") == instant)
        #expect(WireTime.parseInstant("2025-01-15T21:50:29+19:00") == instant)
        #expect(WireTime.parseInstant("2025-01-14T03:49:29-23:01") == instant)
        #expect(WireTime.parseInstant("2025-01-15T11:50:29.5+09:00") == instant)
        #expect(WireTime.parseRFC3339("2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(WireTime.parseRFC3339("0000-01-01T00:00:00Z") == Date(timeIntervalSince1970: -62_167_219_200))
        for bad in [
            "2025-02-29T00:00:00Z", "2025-01-15 02:50:29Z", "2025-01-15T24:00:00Z", "2025-01-15T02:50:60Z",
            "2025-01-15T02:50:29+24:00", "2025-01-15T02:50:29.Z", "2025-01-15T02:50:29", "2025-01-15T02:50:29+0900x",
        ] {
            #expect(WireTime.parseRFC3339(bad) == nil, "\(bad)")
        }
    }

    @Test("query dates are strict calendar days")
    func days() {
        #expect(WireTime.parseDay("2024-02-29") != nil)
        #expect(WireTime.parseDay("2023-02-29") == nil)
        #expect(WireTime.parseDay("2026-1-01") == nil)
        #expect(WireTime.parseDay("2026-04-31") == nil)
        #expect(WireTime.parseDay("2026-01-02")! - WireTime.parseDay("2026-01-01")! == 1)
        #expect(WireTime.clock(86_400 + 3_725) == "01:02:05")
        #expect(AsleepService.averageClock([23 * 3600, 1 * 3600]) == 0)
    }

    @Test("a session's local day by hand: what a calendar in its zone names, as a day number")
    func handCountedDays() throws {
        // Query dates use the shared hand count, checked against the calendar in EmulatorCore's tests.
        for text in ["2026-12-05", "1970-01-01", "1582-10-04", "2026-02-29", "2026/01/05"] {
            #expect(WireTime.parseDay(text) == Timestamp.dayNumber(text), "\(text)")
        }
        // A session's local day, every 97 minutes over two years (DST changes included), in zones with
        // half- and quarter-hour offsets and on both sides of the date line, then around the epoch.
        let zones = try ["UTC", "Asia/Seoul", "America/Los_Angeles", "America/St_Johns", "Pacific/Chatham", "Pacific/Kiritimati", "Pacific/Pago_Pago"].map { try WireTime.zone($0) }
        var instants = stride(from: 1_735_689_600.0, to: 1_798_761_600.0, by: 97 * 60 + 0.5).map { Date(timeIntervalSince1970: $0) }
        instants += [-86_400.5, -1, -0.25, 0, 0.25, 86_399.75].map { Date(timeIntervalSince1970: $0) }
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for date in instants {
                let local = calendar.dateComponents([.year, .month, .day], from: date)
                let text = String(format: "%04d-%02d-%02d", local.year ?? 0, local.month ?? 0, local.day ?? 0)
                #expect(WireTime.dayNumber(date, in: zone) == WireTime.parseDay(text), "\(date) in \(zone.identifier)")
            }
        }
    }

    @Test("metadata validation follows the documented ranges")
    func metadata() throws {
        func check(_ json: String) -> String? {
            do { _ = try AsleepService.metadata(fromBody: Data(json.utf8), required: false, year: 2026); return nil } catch { return error.detail }
        }
        #expect(check(#"{"metadata":{"birth_year":1899}}"#) == "metadata.birth_year: must be between 1900 and 2026")
        #expect(check(#"{"metadata":{"birth_year":2027}}"#) != nil)
        #expect(check(#"{"metadata":{"birth_month":2,"birth_day":29,"birth_year":2024}}"#) == nil)
        #expect(check(#"{"metadata":{"birth_month":2,"birth_day":29,"birth_year":2100}}"#) != nil)
        #expect(check(#"{"metadata":{"height":300.0,"weight":0}}"#) == nil)
        #expect(check(#"{"metadata":{"height":true}}"#) == "metadata.height: must be a number")
        #expect(check(#"{"metadata":{"gender":"prefer_not_to_say"}}"#) == nil)
        #expect(check(#"{"metadata":[]}"#) == "metadata: must be an object")
        #expect(check(#"[1]"#) == "body: must be an object")
        #expect(check("") == nil)
        #expect(throws: AsleepError.self) { try AsleepService.metadata(fromBody: Data(), required: true, year: 2026) }
    }

    @Test("errors use the {\"detail\"} envelope, injected statuses carry the documented texts")
    func errors() throws {
        let platform = AsleepPlatform()
        let notFound = platform.errorResponse(for: .routeNotFound, requestID: "1")
        #expect(notFound.status == 404)
        #expect(try JSONValue.parse(notFound.body) == ["detail": "Not Found"])
        let tooLarge = platform.errorResponse(for: .unreadableRequest(.bodyTooLarge(limit: 1)), requestID: "1")
        #expect(tooLarge.status == 413)
        #expect(try JSONValue.parse(tooLarge.body)["detail"] == "HTTP length exceeded 16777216 bytes")
        #expect(try JSONValue.parse(platform.errorResponse(for: .injected(status: 403), requestID: "1").body)["detail"] == "Plan is expired")
        #expect(try JSONValue.parse(platform.errorResponse(for: .injected(status: 503), requestID: "1").body)["detail"] == "Service Unavailable")
        let unavailable = platform.errorResponse(for: .storageUnavailable, requestID: "1")
        #expect(unavailable.status == 503)
        #expect(try JSONValue.parse(unavailable.body) == ["detail": "Service Unavailable"])
        #expect(platform.pathPrefix(forHost: "test-api.asleep.ai") == "/asleep" && platform.pathPrefix(forHost: "asleep.ai") == nil)
    }

    @Test("settings validate their ranges and merge field by field")
    func settings() throws {
        var patch = AsleepSettings()
        patch.completionDelaySeconds = 30
        #expect(patch.validationProblem() != nil)
        patch.completionDelaySeconds = 0.5
        #expect(patch.validationProblem() == nil)
        let merged = try AsleepSettings.resolve(
            configuration: ["breathing": true, "tooShortChunks": 4], stored: ["completionDelaySeconds": 0.5],
            patch: ["tooShortChunks": nil])
        #expect(merged.breathingEnabled && merged.completionDelay == 0.5 && merged.maxSession == 86_400 && merged.tooShort == 10)
        #expect(throws: BodyError.self) { try AsleepSettings.resolve(configuration: [:], stored: ["strict": "yes"]) }
        #expect(AsleepService.identifierType("macAddress") == "MAC_ADDRESS" && AsleepService.identifierType("Serial") == "SERIAL")
        #expect(AsleepService.identifierType("imei") == nil)
        #expect(AsleepService.isValidCallbackURL("https://example.com/h") && !AsleepService.isValidCallbackURL("example.com/h"))
    }

    @Test("credentials are derived without extra generator draws")
    func credentials() {
        var first = IDGenerator(seed: 7), second = IDGenerator(seed: 7)
        let credentials = AsleepPlatform().makeCredentials(using: &first)
        _ = second.alphanumeric(40)
        #expect(first.next() == second.next())
        #expect(credentials["apiKey"]?.count == 40 && credentials["appId"]?.hasPrefix("app_") == true && credentials["appSecret"]?.hasPrefix("sec_") == true)
    }
}
