import EmulatorCore
import Foundation
import Testing

@testable import TelematicsEmulator

@Suite("Telematics platform")
struct TelematicsPlatformTests {
    @Test("core failures answer in the platform's own error format")
    func errorFormat() throws {
        let platform = try TelematicsPlatform()
        let notFound = platform.errorResponse(for: .routeNotFound, requestID: "17")
        #expect(notFound.status == 404)
        let body = try JSONValue.parse(notFound.body)
        #expect(body == ["code": "ROUTE_NOT_FOUND", "message": "Not found", "status": 404, "traceId": "17"])
        #expect(notFound.headers["x-understudy-trace"] == "17")
        let limited = platform.errorResponse(for: .injected(status: 429), requestID: "1")
        #expect(try JSONValue.parse(limited.body)["code"] == "RATE_LIMITED")
    }

    @Test("tokens carry the tenant key; configured hosts are served unprefixed")
    func tenantsAndHosts() throws {
        #expect(TelematicsPlatform.tenant(of: "tma_abc123_SECRET") == "abc123")
        #expect(TelematicsPlatform.tenant(of: "tmr_abc123_SECRET") == "abc123")
        #expect(TelematicsPlatform.tenant(of: "garbage") == nil && TelematicsPlatform.tenant(of: "tma__x") == nil)
        // Parts are the non-empty runs between underscores, as `split(separator: "_")` makes them.
        func bySplit(_ token: String) -> String? {
            let parts = token.split(separator: "_")
            guard parts.count == 3, parts[0] == "tma" || parts[0] == "tmr", !parts[1].isEmpty else { return nil }
            return String(parts[1])
        }
        for token in [
            "tma_a_b", "tma__a_b", "_tma_a_b_", "tma_a_b_c", "tmx_a_b", "tma_a", "", "___", "tmr_x_y", "tma_é_b", "TMA_a_b",
            "tma_a_b_", "tmaa_b_c", "tm_a_b", "tma_a__b", "tma_\u{301}_b", "tma_a_\u{301}b", "tma_é\u{301}_b",
        ] {
            #expect(TelematicsPlatform.tenant(of: token) == bySplit(token), "\(token.debugDescription)")
        }
        let platform = try TelematicsPlatform(configuration: ["hosts": ["telematics.example.com"]])
        #expect(platform.pathPrefix(forHost: "telematics.example.com") == "/telematics")
        #expect(platform.pathPrefix(forHost: "other.example.com") == nil)
        var generator = IDGenerator(seed: 1)
        let credentials = platform.makeCredentials(using: &generator)
        #expect(credentials["tenantKey"]?.count == 10 && credentials["serviceCode"]?.count == 8)
    }
}

@Suite("Telematics rules")
struct TelematicsServiceTests {
    @Test("manual event types: camelCase, UPPER_SNAKE and the 0–11 index; nothing else")
    func manualTypes() {
        #expect(ManualEventType.allCases.count == 12)
        #expect(ManualEventType.parse("hardBrakingHighSpeed") == .hardBrakingHighSpeed)
        #expect(ManualEventType.parse("HARD_BRAKING_HIGH_SPEED") == .hardBrakingHighSpeed)
        #expect(ManualEventType.parse(.int(0)) == .abruptAccelerationHighSpeed && ManualEventType.parse(.int(11)) == .tripEnd)
        #expect(ManualEventType.parse(.int(12)) == nil && ManualEventType.parse("hardbrakinghighspeed") == nil)
        #expect(ManualEventType.parse("teleport") == nil && ManualEventType.parse(.null) == nil && ManualEventType.parse(.double(1.5)) == nil)
        #expect(ManualEventType.distraction.isDriving && !ManualEventType.walking.isDriving && !ManualEventType.tripStart.isDriving)
    }

    static func line(start: Int64, count: Int, stepMs: Int64 = 1000, metresPerStep: Double = 15) -> [Sample] {
        (0..<count).map { Sample(timestampMs: start + Int64($0) * stepMs, latitude: 40 + Double($0) * metresPerStep / 111_195, longitude: -8) }
    }

    @Test("segmentation splits at gaps and trip marks and drops short segments")
    func segmentation() {
        let first = Self.line(start: 0, count: 120) // 2 min, ≈ 1.8 km
        let second = Self.line(start: 120_000 + 400_000, count: 120) // after a 400 s gap
        let tiny = Self.line(start: 2_000_000, count: 30) // 30 s: too short
        let samples = first + second + tiny
        let segments = TripSegmenter(gapMs: 300_000, minDistanceKm: 0.3, minDurationMs: 60_000).segment(samples)
        #expect(segments.map(\.count) == [120, 120])
        // A tripEnd mark at 60 s ends the first trip early; samples until the next tripStart belong to none.
        let marked = TripSegmenter(gapMs: 300_000, minDistanceKm: 0, minDurationMs: 0).segment(first, starts: [90_000], ends: [60_000])
        #expect(marked.map(\.count) == [60, 30])
        #expect(marked[1].first?.timestampMs == 90_000)
    }

    @Test("metrics: haversine distance, speeds from samples or positions, speeding episodes and time")
    func metrics() {
        var samples = Self.line(start: 0, count: 61, stepMs: 1000, metresPerStep: 20) // 60 s at 72 km/h
        let plain = SampleMetrics(samples: samples)
        #expect(abs(plain.distanceKm - 1.2) < 0.01 && plain.durationSec == 60)
        #expect(abs(plain.maxSpeedKmh - 72) < 0.5 && abs(plain.avgSpeedKmh - 72) < 0.5)
        for index in 10..<20 { samples[index].speedLimitKmh = 50; samples[index].speedKmh = 72 }
        for index in 30..<35 { samples[index].speedLimitKmh = 50; samples[index].speedKmh = 72 }
        let speeding = SampleMetrics(samples: samples)
        #expect(speeding.speedingCount == 2 && speeding.speedingDurationSec == 15)
        #expect(SampleMetrics(samples: []).distanceKm == 0)
    }

    @Test("tally: overlapping attention windows count once, as their union; score is 100 − 5 per event")
    func tally() {
        let events = [
            DrivingEvent(type: "hardBrakingLowSpeed", timestampMs: 1, latitude: nil, longitude: nil, durationSec: nil, value: nil),
            DrivingEvent(type: "hardCornering", timestampMs: 2, latitude: nil, longitude: nil, durationSec: nil, value: nil),
        ]
        let tally = EventTally(events: events, attentionWindows: [(0, 10_000), (5_000, 15_000), (60_000, 70_000)], manualCount: 3)
        #expect(tally.hardBraking == 1 && tally.hardCornering == 1 && tally.manual == 3)
        #expect(tally.distraction == 2 && tally.distractionDurationSec == 25)
        #expect(tally.score(speedingEpisodes: 1) == 100 - 5 * 5)
        var many = EventTally()
        many.hardBraking = 40
        #expect(many.score(speedingEpisodes: 0) == 0)
        #expect(DrivingEventKind.specificType("hardBraking", speedKmh: 50, highSpeedKmh: 50) == "hardBrakingHighSpeed")
        #expect(DrivingEventKind.specificType("abruptAcceleration", speedKmh: nil, highSpeedKmh: 50) == "abruptAccelerationLowSpeed")
    }

    @Test("refresh decisions follow expiry, revocation, rotation grace and account state")
    func refresh() {
        typealias State = TelematicsService.RefreshTokenState
        let fresh = State(expires: 1000, revokedAt: nil, rotatedAt: nil, successorID: nil, userState: .active)
        #expect(TelematicsService.refresh(fresh, now: 10, grace: 60) == .rotate)
        #expect(TelematicsService.refresh(fresh, now: 1000, grace: 60) == .fail(.refreshTokenExpired))
        #expect(TelematicsService.refresh(nil, now: 10, grace: 60) == .fail(.refreshTokenRejected("The refresh token is not known.")))
        var revoked = fresh
        revoked.revokedAt = 5
        if case .fail(let error) = TelematicsService.refresh(revoked, now: 10, grace: 60) {
            #expect(error.code == "REFRESH_TOKEN_REJECTED")
        } else {
            Issue.record("revoked accepted")
        }
        var rotated = fresh
        rotated.rotatedAt = 100
        rotated.successorID = "next"
        #expect(TelematicsService.refresh(rotated, now: 160, grace: 60) == .replay(successorID: "next"))
        if case .fail(let error) = TelematicsService.refresh(rotated, now: 161, grace: 60) {
            #expect(error.code == "REFRESH_TOKEN_REJECTED")
        } else {
            Issue.record("reuse accepted")
        }
        var inactive = fresh
        inactive.userState = .inactive
        #expect(TelematicsService.refresh(inactive, now: 10, grace: 60) == .fail(.accountInactive))
    }

    @Test("telemetry parsing accepts the aliases and refuses incomplete samples")
    func parsing() throws {
        let body =
            #"[{"t": "2025-11-03T12:00:01Z", "lat": 40, "lon": -8, "speedKmh": 36, "accuracyM": 3}, {"timestampMs": 1762171200000, "latitude": 40.1, "longitude": -8, "speedMps": 10, "screenLocked": false}]"#
        let batch = try TelemetryParser.parseBatch(Data(body.utf8))
        #expect(batch.samples.map(\.timestampMs) == [1_762_171_200_000, 1_762_171_201_000]) // sorted by time
        #expect(batch.samples[0].speedKmh == 36 && batch.samples[0].phoneInUse == true && batch.samples[1].horizontalAccuracyM == 3)
        #expect(throws: TelematicsError.self) { try TelemetryParser.parseBatch(Data(#"{"samples": [{"lat": 1, "lon": 2}]}"#.utf8)) }
        #expect(throws: TelematicsError.self) { try TelemetryParser.parseBatch(Data(#"{"samples": [{"t": 1, "lat": 91, "lon": 2}]}"#.utf8)) }
        #expect(throws: TelematicsError.self) { try TelemetryParser.parseBatch(Data(#"{"samples": [], "vehicleId": "x"}"#.utf8)) }
        let event: JSONValue = [
            "id": "0B6C6A3E-3F6E-4A51-9D2C-1F1D5A0C2B11", "type": "PHONE_DISTRACTION", "startTimestampMs": 1000, "endTimestampMs": 11000,
            "confidence": 0.5, "latitude": nil, "detectorVersion": "d1",
        ]
        let parsed = try TelemetryParser.parseAttentionEvent(event, index: 0)
        #expect(parsed.id == "0b6c6a3e-3f6e-4a51-9d2c-1f1d5a0c2b11" && parsed.type == "phoneDistraction" && parsed.latitude == nil)
        #expect(throws: TelematicsError.self) { try TelemetryParser.parseAttentionEvent(["id": "x", "type": "phoneDistraction"], index: 0) }
    }

    @Test("date ranges: aliases, open bounds, bad dates and reversed ranges")
    func ranges() throws {
        let range = try TelematicsService.dateRange([("from", "2026-11-01T00:00:00+01:00")])
        #expect(range.start == Timestamp.parse("2026-10-31T23:00:00Z") && range.end == nil)
        #expect(throws: TelematicsError.invalidRange) { try TelematicsService.dateRange([("startTs", "2026-11-02T00:00:00Z"), ("endTs", "2026-11-01T00:00:00Z")]) }
        #expect(throws: TelematicsError.self) { try TelematicsService.dateRange([("endTs", "tomorrow")]) }
        #expect(TelematicsService.plateKey("aa-00 aa") == "AA00AA")
    }
}
