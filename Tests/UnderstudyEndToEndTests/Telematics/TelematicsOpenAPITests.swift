import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Telematics OpenAPI")
struct TelematicsOpenAPITests {
    /// Records real exchanges against their documented operation.
    final class Recorder: @unchecked Sendable { // used from one test task only
        var seen: [(method: String, template: String, status: Int, headers: [String: String], body: Data)] = []
        let server: UnderstudyTestServer
        let projectID: String
        var token = ""

        init(server: UnderstudyTestServer, projectID: String) {
            self.server = server
            self.projectID = projectID
        }

        /// Calls `template` with `{id}` and the given parameters filled in.
        @discardableResult
        func call(
            _ method: String, _ template: String, _ values: [String: String] = [:], json: String? = nil,
            query: [(String, String)] = []
        ) async throws -> ClientResponse {
            var path = template.replacingOccurrences(of: "{id}", with: projectID)
            for (name, value) in values { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
            var headers: [String: String] = ["Authorization": "Bearer " + token]
            if path.hasPrefix("/api/") {
                path = "/telematics" + path
                // Echoed on every SDK answer, which the document must say (the validator checks sent headers against it).
                headers["X-Request-Id"] = "conformance-\(seen.count)"
            }
            if json != nil { headers["Content-Type"] = "application/json" }
            let response = try await server.client.send(ClientRequest(method: method, path: path, query: query, headers: headers, body: json.map { Data($0.utf8) }))
            seen.append((method, template, response.status, response.headers, response.body))
            return response
        }
    }

    @Test("every documented operation is exercised and every real response fits its schema")
    func conformance() async throws {
        // It sends what the SDK would not (an accepted batch again, to see the 200), so it may end with findings.
        try await TelematicsFixture.with(expectingFindings: true) { server, project, admin in
            let raw = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/openapi/telematics.json"))
            let document = try JSONValue.parse(raw.body)
            #expect(document["openapi"] == "3.1.0")
            let validator = OpenAPIValidator(document: document)
            let r = Recorder(server: server, projectID: project.id)
            let a = "/__admin/projects/{id}/telematics"

            // Control plane first: users, tokens, settings, catalogues, vehicles.
            try await r.call("POST", a + "/users", json: #"{"userId": 77, "userName": "Ana"}"#)
            try await r.call("GET", a + "/users")
            try await r.call("PATCH", a + "/users/{userId}", ["userId": "77"], json: #"{"userName": "Ana Silva"}"#)
            try await r.call("GET", a + "/users/{userId}", ["userId": "77"])
            try await r.call("GET", a + "/users/{userId}", ["userId": "404"])
            let minted = try await r.call("POST", a + "/tokens", json: #"{"userId": 77}"#)
            let pair = try minted.decode(TelematicsTokenPair.self)
            r.token = pair.token
            try await r.call("GET", a + "/tokens", query: [("userId", "77")])
            try await r.call("GET", a + "/settings")
            try await r.call("PATCH", a + "/settings", json: #"{"rotationGraceSeconds": 30}"#)
            try await r.call("PATCH", a + "/settings", json: #"{"nope": 1}"#)
            for kind in ["vehicle-types", "fuel-types", "add-reasons"] {
                try await r.call("GET", a + "/catalogues/" + kind)
                try await r.call("PUT", a + "/catalogues/" + kind, json: #"{"A": 1, "B": 2}"#)
            }
            try await r.call("GET", a + "/service-codes")
            try await r.call("PUT", a + "/service-codes", json: #"{"mode": "open"}"#)
            try await r.call("POST", a + "/vehicles", json: #"{"plate": "SEED-1", "type": 1, "fuelType": 1}"#)
            try await r.call("GET", a + "/vehicles")
            try await r.call("POST", a + "/vehicles/{vehicleId}/kilometers", ["vehicleId": "1"], json: #"{"kilometers": 100, "readAt": "2026-11-01T00:00:00Z"}"#)
            try await r.call("GET", a + "/vehicles/{vehicleId}/kilometers", ["vehicleId": "1"])

            // SDK routes.
            try await r.call("GET", "/api/v1/users/me")
            try await r.call("GET", "/api/v1/vehicles/types")
            try await r.call("GET", "/api/v1/vehicles/fuel-types")
            try await r.call("GET", "/api/v1/vehicles/add-reasons")
            try await r.call("GET", "/api/v1/vehicles/current")
            try await r.call("PUT", "/api/v1/vehicles/current", json: #"{"plate": "NEW-1", "internalPlate": "I1", "type": 1, "fuelType": 2, "addReason": 1}"#)
            try await r.call("PUT", "/api/v1/vehicles/current", json: #"{"plate": "seed 1"}"#)
            try await r.call("GET", "/api/v1/vehicles/current")
            try await r.call("POST", "/api/v1/vehicles/{vehicleId}/kilometers", ["vehicleId": "current"], json: #"{"kilometers": 150}"#)
            try await r.call("POST", "/api/v1/vehicles/{vehicleId}/kilometers", ["vehicleId": "current"], json: #"{"kilometers": 50}"#)
            try await r.call("POST", "/api/v1/vehicles/{vehicleId}/kilometers/corrections", ["vehicleId": "1"], json: #"{"kilometers": 140, "correctionCount": 1}"#)
            try await r.call("GET", "/api/v1/vehicles/{vehicleId}/estimated-mileage", ["vehicleId": "current"])
            try await r.call("GET", "/api/v1/vehicles/{vehicleId}/estimated-mileage", ["vehicleId": "2"])
            try await r.call("GET", "/api/v1/service-codes/{code}", ["code": "FLEET"])
            let samples = TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 30 * 60_000, count: 100, intervalMs: 3000)
            let batch = String(
                decoding: try JSONEncoder().encode(
                    TelematicsTelemetryBatch(
                        batchId: "6f1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11", samples: samples,
                        events: [TelematicsBatchEvent(type: "hardCornering", timestampMs: samples[50].timestampMs)])), as: UTF8.self)
            try await r.call("POST", "/api/v1/telemetry", json: batch)
            try await r.call("POST", "/api/v1/telemetry", json: batch)
            try await r.call("POST", "/api/v1/telemetry", json: #"{"samples": 3}"#)
            let attention = String(
                decoding: try JSONEncoder().encode([
                    "events": [
                        TelematicsAttentionEvent(
                            startTimestampMs: samples[10].timestampMs, confidence: 0.7,
                            latitude: 40.2, longitude: -8.4)
                    ]
                ]), as: UTF8.self)
            try await r.call("POST", "/api/v1/attention-events", json: attention)
            try await r.call("POST", "/api/v1/manual-events", json: #"{"id": "7a1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11", "type": "distraction", "timestamp": "2026-11-03T11:33:00Z"}"#)
            try await r.call("POST", "/api/v1/manual-events", json: #"{"id": "7a1d4c52-2b9e-4a51-9d2c-1f1d5a0c2b11", "type": "distraction", "timestamp": "2026-11-03T11:33:00Z"}"#)
            try await r.call("POST", "/api/v1/manual-events", json: #"{"type": "flying"}"#)
            try await r.call("POST", a + "/users/{userId}/process", ["userId": "77"])
            try await r.call("POST", a + "/trips", json: #"{"userId": 77, "startedAt": "2026-10-01T08:00:00Z", "endedAt": "2026-10-01T08:30:00Z", "distanceKm": 20}"#)
            try await r.call("POST", a + "/periods", json: #"{"userId": 77, "startedAt": "2026-10-02T08:00:00Z", "endedAt": null, "count": 2}"#)
            let trips = try await r.call("GET", "/api/v1/trips")
            let tripID = try trips.decode([TelematicsTripResume].self).first { $0.durationSec < 1000 }?.id ?? 0
            #expect(tripID > 0)
            try await r.call("GET", "/api/v1/trips", query: [("startTs", "2026-11-04T00:00:00Z"), ("endTs", "2026-11-03T00:00:00Z")])
            try await r.call("GET", "/api/v1/trips/{tripId}", ["tripId": String(tripID)], query: [("includeSamples", "true")])
            try await r.call("GET", "/api/v1/trips/{tripId}", ["tripId": "999"])
            try await r.call("GET", "/api/v1/metrics/summary", query: [("startTs", "2026-11-01T00:00:00Z")])
            try await r.call("GET", "/api/v1/metrics/activity-summary")
            try await r.call("GET", "/api/v1/telematics-periods", query: [("isProcessed", "true"), ("pageSize", "1")])
            try await r.call("GET", "/api/v1/telematics-periods/{periodId}", ["periodId": "1"])
            try await r.call("GET", "/api/v1/telematics-periods/{periodId}", ["periodId": "99"])
            try await r.call("GET", a + "/trips", query: [("userId", "77")])
            try await r.call("GET", a + "/trips/{tripId}", ["tripId": String(tripID)])
            try await r.call("GET", a + "/periods")
            try await r.call("GET", a + "/batches")
            try await r.call("GET", a + "/attention-events")
            try await r.call("GET", a + "/manual-events")

            // Token lifecycle last: refresh, expire, revoke, logout.
            try await r.call("POST", "/api/v1/auth/refresh", json: #"{"refreshToken": "\#(pair.refreshToken!)"}"#)
            try await r.call("POST", a + "/tokens/expire", json: #"{"token": "\#(pair.token)"}"#)
            try await r.call("POST", a + "/tokens/revoke", json: #"{"token": "\#(pair.refreshToken!)"}"#)
            try await r.call("POST", a + "/tokens/revoke", json: #"{"token": "nope"}"#)
            try await r.call("GET", "/api/v1/users/me")
            r.token = try await admin.mintTokens(userId: 77).token
            try await r.call("DELETE", "/api/v1/vehicles/current")
            try await r.call("POST", "/api/v1/auth/logout")

            var problems: [String] = []
            for exchange in r.seen {
                problems += validator.problems(method: exchange.method, path: exchange.template, status: exchange.status, headers: exchange.headers, body: exchange.body)
            }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            let covered = Set(r.seen.map { "\($0.method) \($0.template)" })
            let missing = validator.operations.map { "\($0.method) \($0.path)" }.filter { !covered.contains($0) }
            #expect(missing.isEmpty, "not exercised: \(missing)")
            #expect(r.seen.contains { $0.status >= 400 } && r.seen.contains { $0.status == 202 })
        }
    }
}
