import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Telematics bad input and faults")
struct TelematicsBadInputTests {
    /// Sends a raw SDK request with the given access token.
    static func send(
        _ server: UnderstudyTestServer, _ method: String, _ path: String, token: String?, body: Data? = nil,
        headers: [String: String] = [:], query: [(String, String)] = []
    ) async throws -> (Int, TelematicsErrorBody?) {
        var all = headers
        if let token { all["Authorization"] = "Bearer " + token }
        if body != nil, all["Content-Type"] == nil { all["Content-Type"] = "application/json" }
        let response = try await server.client.send(ClientRequest(method: method, path: "/telematics/api/v1" + path, query: query, headers: all, body: body))
        return (response.status, try? response.decode(TelematicsErrorBody.self))
    }

    @Test("malformed, unknown and missing tokens are 401 ACCESS_TOKEN_REJECTED in the platform's format")
    func badTokens() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 1)
            for token in [nil, "garbage", "tma_nosuchtenant_abc", String(pair.token.dropLast()) + (pair.token.hasSuffix("X") ? "Y" : "X"), pair.refreshToken] as [String?] {
                let (status, body) = try await Self.send(server, "GET", "/users/me", token: token)
                #expect(status == 401 && body?.code == "ACCESS_TOKEN_REJECTED" && body?.status == 401, "token \(token ?? "nil")")
            }
            let (status, body) = try await Self.send(server, "POST", "/auth/refresh", token: nil, body: Data("{}".utf8))
            #expect(status == 400 && body?.code == "INVALID_REQUEST")
            let unknown = try await Self.send(server, "POST", "/auth/refresh", token: nil, body: Data(#"{"refreshToken":"tmr_nope_nope"}"#.utf8))
            #expect(unknown.0 == 401 && unknown.1?.code == "REFRESH_TOKEN_REJECTED")
            let route = try await Self.send(server, "GET", "/nope", token: pair.token)
            #expect(route.0 == 404 && route.1?.code == "ROUTE_NOT_FOUND")
        }
    }

    @Test("bad manual events, dates, ranges, plates, kilometres and codes are 4xx with no state change")
    func badValues() async throws {
        // Codes of its own and kilometers without a vehicle are what the checks report.
        try await TelematicsFixture.with(expectingFindings: true) { server, _, admin in
            let token = try await admin.mintTokens(userId: 2).token
            for type in [#""teleport""#, "12", #""HARD_BRAKING""#, "null"] {
                let (status, body) = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": \#(type)}"#.utf8))
                #expect(status == 400 && body?.code == "INVALID_EVENT_TYPE", "type \(type)")
            }
            let upper = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": "HARD_BRAKING_HIGH_SPEED"}"#.utf8))
            let index = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": 11, "timestamp": "2026-11-03T11:00:00+01:00"}"#.utf8))
            #expect(upper.0 == 201 && index.0 == 201)
            let badTime = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": "speeding", "timestamp": "yesterday"}"#.utf8))
            #expect(badTime.0 == 400 && badTime.1?.code == "INVALID_DATE")
            // Numbers far out of range are refused, never trapped on.
            let huge = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": "speeding", "timestampMs": 1e30}"#.utf8))
            #expect(huge.0 == 400 && huge.1?.code == "INVALID_DATE")
            let hugeVehicle = try await Self.send(server, "POST", "/manual-events", token: token, body: Data(#"{"type": "speeding", "vehicleId": 1e300}"#.utf8))
            #expect(hugeVehicle.0 == 400)
            let hugePage = try await Self.send(server, "GET", "/telematics-periods", token: token, query: [("page", "99999999999999999")])
            #expect(hugePage.0 == 400)
            let hugeSample = try await Self.send(
                server, "POST", "/telemetry", token: token, body: Data(#"{"samples": [{"timestampMs": 1e300, "latitude": 1, "longitude": 1}]}"#.utf8))
            #expect(hugeSample.0 == 400 && hugeSample.1?.code == "INVALID_BATCH")
            let events = try await admin.manualEvents(userId: 2)["events"]?.array ?? []
            #expect(events.map { $0["type"] } == ["tripEnd", "hardBrakingHighSpeed"])

            let date = try await Self.send(server, "GET", "/trips", token: token, query: [("startTs", "last week")])
            #expect(date.0 == 400 && date.1?.code == "INVALID_DATE")
            let range = try await Self.send(server, "GET", "/metrics/summary", token: token, query: [("startTs", "2026-11-03T00:00:00Z"), ("endTs", "2026-11-02T00:00:00Z")])
            #expect(range.0 == 400 && range.1?.code == "INVALID_RANGE")
            let paging = try await Self.send(server, "GET", "/telematics-periods", token: token, query: [("page", "0")])
            #expect(paging.0 == 400 && paging.1?.code == "INVALID_REQUEST")
            let processed = try await Self.send(server, "GET", "/telematics-periods", token: token, query: [("isProcessed", "maybe")])
            #expect(processed.0 == 400)

            let plate = try await Self.send(server, "PUT", "/vehicles/current", token: token, body: Data(#"{"plate": "  ", "type": 1, "fuelType": 1}"#.utf8))
            #expect(plate.0 == 400 && plate.1?.code == "INVALID_PLATE")
            let fuel = try await Self.send(server, "PUT", "/vehicles/current", token: token, body: Data(#"{"plate": "X1", "type": 1, "fuelType": 99, "addReason": 1}"#.utf8))
            #expect(fuel.0 == 422 && fuel.1?.code == "UNKNOWN_FUEL_TYPE")
            let type = try await Self.send(server, "PUT", "/vehicles/current", token: token, body: Data(#"{"plate": "X1", "type": 9, "fuelType": 1}"#.utf8))
            #expect(type.0 == 422 && type.1?.code == "UNKNOWN_VEHICLE_TYPE")
            let reason = try await Self.send(server, "PUT", "/vehicles/current", token: token, body: Data(#"{"plate": "X1", "type": 1, "fuelType": 1, "addReason": 77}"#.utf8))
            #expect(reason.0 == 422 && reason.1?.code == "UNKNOWN_ADD_REASON")
            let wrongType = try await Self.send(server, "PUT", "/vehicles/current", token: token, body: Data(#"{"plate": "X1", "type": "car", "fuelType": 1}"#.utf8))
            #expect(wrongType.0 == 400 && wrongType.1?.code == "INVALID_REQUEST")
            let noVehicle = try await Self.send(server, "POST", "/vehicles/current/kilometers", token: token, body: Data(#"{"kilometers": 10}"#.utf8))
            #expect(noVehicle.0 == 404 && noVehicle.1?.code == "NO_CURRENT_VEHICLE")
            let noSuch = try await Self.send(server, "POST", "/vehicles/77/kilometers", token: token, body: Data(#"{"kilometers": 10}"#.utf8))
            #expect(noSuch.0 == 404 && noSuch.1?.code == "VEHICLE_NOT_FOUND")
            let current = try await Self.send(server, "GET", "/vehicles/current", token: token)
            #expect(current.0 == 404 && current.1?.code == "NO_CURRENT_VEHICLE")
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 2), deviceClock: { TelematicsFixture.epochDate })
            #expect(try await sdk.getVehicleTypes().count == 4) // nothing was created by the refused calls
            await #expect { try await sdk.setVehicle(plate: "X1") } throws: { TelematicsFixture.errorCode($0)! == (404, "VEHICLE_NOT_FOUND") }

            let attention = try await Self.send(
                server, "POST", "/attention-events", token: token,
                body: Data(
                    #"{"events": [{"id": "0b6c6a3e-3f6e-4a51-9d2c-1f1d5a0c2b11", "type": "phoneDistraction", "startTimestampMs": 1, "endTimestampMs": 10001, "confidence": 1.5, "detectorVersion": "x"}]}"#
                        .utf8))
            #expect(attention.0 == 400 && attention.1?.code == "INVALID_REQUEST")
            #expect(try await admin.attentionEvents()["events"]?.array?.isEmpty == true)
        }
    }

    @Test("broken, malformed, partial and oversized telemetry batches are refused whole")
    func badTelemetry() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let token = try await admin.mintTokens(userId: 3).token
            let brokenGzip = try await Self.send(server, "POST", "/telemetry", token: token, body: Data([0x1f, 0x8b, 8, 0, 1, 2, 3]), headers: ["Content-Encoding": "gzip"])
            #expect(brokenGzip.0 == 400 && brokenGzip.1?.traceId.isEmpty == false)
            let notJSON = try await Self.send(server, "POST", "/telemetry", token: token, body: Data("{samples:".utf8))
            #expect(notJSON.0 == 400 && notJSON.1?.code == "INVALID_BATCH")
            let partial = #"{"batchId": "b1", "samples": [{"timestampMs": 1762170000000, "latitude": 40, "longitude": -8}, {"timestampMs": 1762170001000, "latitude": 40}]}"#
            let missing = try await Self.send(server, "POST", "/telemetry", token: token, body: Data(partial.utf8))
            #expect(missing.0 == 400 && missing.1?.code == "INVALID_BATCH" && missing.1?.message.contains("samples.1") == true)
            let badEvent = #"{"samples": [], "events": [{"type": "teleport", "timestampMs": 1}]}"#
            #expect(try await Self.send(server, "POST", "/telemetry", token: token, body: Data(badEvent.utf8)).1?.code == "INVALID_BATCH")
            #expect(try await admin.batches()["batches"]?.array?.isEmpty == true)
            // Gzip is also recognised by its magic bytes when Content-Encoding is missing.
            let plain = try JSONEncoder().encode(TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 60_000, count: 3)))
            var gzip =
                Data([
                    0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 1, UInt8(plain.count & 0xff), UInt8(plain.count >> 8),
                    UInt8(~plain.count & 0xff), UInt8((~plain.count >> 8) & 0xff),
                ]) + plain
            var crc: UInt32 = 0xffff_ffff
            for byte in plain { crc ^= UInt32(byte); for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) } }
            crc = ~crc
            for shift in stride(from: 0, to: 32, by: 8) { gzip.append(UInt8((crc >> UInt32(shift)) & 0xff)) }
            for shift in stride(from: 0, to: 32, by: 8) { gzip.append(UInt8((UInt32(plain.count) >> UInt32(shift)) & 0xff)) }
            #expect(try await Self.send(server, "POST", "/telemetry", token: token, body: gzip).0 == 202)
            try await admin.updateSettings(["maxBatchBytes": 2_000])
            let big = TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs, count: 50))
            let oversized = try await Self.send(server, "POST", "/telemetry", token: token, body: try JSONEncoder().encode(big))
            #expect(oversized.0 == 413 && oversized.1?.code == "BATCH_TOO_LARGE")
            #expect(try await admin.batches()["batches"]?.array?.count == 1)
            // Every refused request is journalled with its status.
            let journal = try await server.client.admin.project(project.id).requests(JournalQuery(path: "/telematics/api/v1/telemetry"))
            #expect(journal.requests.map(\.status).sorted() == [202, 400, 400, 400, 400, 413])
        }
    }

    @Test("injected faults answer in the Telematics error format and change nothing")
    func faults() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let token = try await admin.mintTokens(userId: 4).token
            let header = try await Self.send(server, "GET", "/users/me", token: token, headers: ["X-Understudy-Fault": "status=503"])
            #expect(header.0 == 503 && header.1?.code == "SERVICE_UNAVAILABLE" && header.1?.status == 503)

            _ = try await server.client.admin.project(project.id).addFault(
                FaultRule(
                    match: .init(platform: "telematics", method: "POST", path: "/api/v1/telemetry"), action: .init(type: "status", status: 429, retryAfter: 7), times: 1))
            let batch = TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 60_000, count: 5))
            let body = try JSONEncoder().encode(batch)
            let limited = try await server.client.send(
                ClientRequest(
                    method: "POST", path: "/telematics/api/v1/telemetry",
                    headers: ["Authorization": "Bearer " + token, "Content-Type": "application/json"], body: body))
            #expect(limited.status == 429 && limited.headers["retry-after"] == "7")
            #expect(try limited.decode(TelematicsErrorBody.self).code == "RATE_LIMITED")
            #expect(try await admin.batches()["batches"]?.array?.isEmpty == true)
            // The SDK's retry, after the Retry-After, then goes through, once.
            _ = try await server.client.admin.project(project.id).advanceClock(by: 7)
            let retried = try await Self.send(server, "POST", "/telemetry", token: token, body: body)
            #expect(retried.0 == 202)
            let journal = try await server.client.admin.project(project.id).waitForRequests(JournalQuery(path: "/telematics/api/v1/telemetry"), count: 2)
            #expect(journal.requests.map(\.status).sorted() == [202, 429])
        }
    }
}
