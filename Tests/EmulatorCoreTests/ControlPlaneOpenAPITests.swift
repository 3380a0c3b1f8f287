import EmulatorCore
import Foundation
import Testing

@Suite("Control-plane OpenAPI document")
struct ControlPlaneOpenAPITests {
    @Test("every documented operation is exercised and every real response fits the document")
    func conformance() async throws {
        let harness = try await Harness()
        let document = try #require(try await harness.call("GET", "/__admin/openapi.json").json)
        #expect(document["openapi"] == "3.1.0")
        let validator = OpenAPIValidator(document: document)
        var exercised = Set<String>()
        var problems: [String] = []

        func check(_ method: String, _ template: String, _ path: String, json: JSONValue? = nil, expect status: Int) async throws -> Harness.Reply {
            let reply = try await harness.call(method, path, json: json)
            exercised.insert("\(method) \(template)")
            if reply.status != status { problems.append("\(method) \(path): expected \(status), got \(reply.status) \(String(decoding: reply.body, as: UTF8.self))") }
            problems += validator.problems(method: method, path: template, status: reply.status, body: reply.body)
            return reply
        }

        _ = try await check("GET", "/__admin/health", "/__admin/health", expect: 200)
        _ = try await check("GET", "/__admin/metrics", "/__admin/metrics", expect: 200)
        _ = try await check("GET", "/__admin/ready", "/__admin/ready", expect: 200)
        _ = try await check("GET", "/__admin/openapi.json", "/__admin/openapi.json", expect: 200)
        _ = try await check("GET", "/__admin/openapi/{document}", "/__admin/openapi/testing.json", expect: 200)
        _ = try await check("GET", "/__admin/openapi/{document}", "/__admin/openapi/nope.json", expect: 404)
        let preflight = try await check("OPTIONS", "/__admin/openapi.json", "/__admin/openapi.json", expect: 204)
        #expect(preflight.headers["access-control-allow-origin"] == "*" && preflight.headers["access-control-allow-methods"] == "GET, OPTIONS")
        _ = try await check("OPTIONS", "/__admin/openapi/{document}", "/__admin/openapi/testing.json", expect: 204)
        #expect(try await harness.call("GET", "/__admin/openapi/testing.json").headers["access-control-allow-origin"] == "*")
        _ = try await check("GET", "/__admin/ca.pem", "/__admin/ca.pem", expect: 404)
        harness.emulator.services.setCACertificatePath("/nonexistent/understudy-ca.pem")
        _ = try await check("GET", "/__admin/ca.pem", "/__admin/ca.pem", expect: 503)
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).pem")
        try Data("-----BEGIN CERTIFICATE-----\nTUlJ\n-----END CERTIFICATE-----\n".utf8).write(to: pem)
        defer { try? FileManager.default.removeItem(at: pem) }
        harness.emulator.services.setCACertificatePath(pem.path)
        let served = try await check("GET", "/__admin/ca.pem", "/__admin/ca.pem", expect: 200)
        let written = try Data(contentsOf: pem)
        #expect(served.headers["content-type"] == "application/x-pem-file" && served.body == written)
        let created = try await check("POST", "/__admin/projects", "/__admin/projects", json: ["name": "doc", "seed": 9], expect: 201)
        let id = created.json?["id"]?.stringValue ?? ""
        _ = try await check("POST", "/__admin/projects", "/__admin/projects", json: ["name": 1], expect: 400)
        _ = try await check("POST", "/__admin/projects", "/__admin/projects", json: ["seed": 9], expect: 409)
        _ = try await check("GET", "/__admin/projects", "/__admin/projects", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}", "/__admin/projects/\(id)", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}", "/__admin/projects/missing", expect: 404)
        _ = try await check("GET", "/__admin/projects/{id}/clock", "/__admin/projects/\(id)/clock", expect: 200)
        _ = try await check("PUT", "/__admin/projects/{id}/clock", "/__admin/projects/\(id)/clock", json: ["mode": "frozen", "now": "2030-01-01T00:00:00Z"], expect: 200)
        _ = try await check("PUT", "/__admin/projects/{id}/clock", "/__admin/projects/\(id)/clock", json: ["mode": "later"], expect: 400)
        _ = try await check("POST", "/__admin/projects/{id}/clock/advance", "/__admin/projects/\(id)/clock/advance", json: ["seconds": 60], expect: 200)
        _ = try await check("POST", "/__admin/projects/{id}/clock/advance", "/__admin/projects/\(id)/clock/advance", json: ["seconds": -1], expect: 400)
        let rule = try await check(
            "POST", "/__admin/projects/{id}/faults", "/__admin/projects/\(id)/faults",
            json: ["match": ["platform": "testing"], "action": ["type": "status", "status": 503], "times": 1], expect: 201)
        _ = try await check("POST", "/__admin/projects/{id}/faults", "/__admin/projects/\(id)/faults", json: ["match": [:], "action": ["type": "?"]], expect: 400)
        _ = try await check("GET", "/__admin/projects/{id}/faults", "/__admin/projects/\(id)/faults", expect: 200)
        _ = try await check("DELETE", "/__admin/projects/{id}/faults/{rule}", "/__admin/projects/\(id)/faults/\(rule.json?["id"]?.stringValue ?? "")", expect: 204)
        _ = try await check("DELETE", "/__admin/projects/{id}/faults/{rule}", "/__admin/projects/\(id)/faults/flt_none", expect: 404)
        _ = try await check("DELETE", "/__admin/projects/{id}/faults", "/__admin/projects/\(id)/faults", expect: 204)
        let global = try await check(
            "POST", "/__admin/faults", "/__admin/faults", json: ["match": ["platform": "testing"], "action": ["type": "delay", "delayMs": 1]], expect: 201)
        _ = try await check("GET", "/__admin/faults", "/__admin/faults", expect: 200)
        _ = try await check("DELETE", "/__admin/faults/{rule}", "/__admin/faults/\(global.json?["id"]?.stringValue ?? "")", expect: 204)
        _ = try await check("DELETE", "/__admin/faults", "/__admin/faults", expect: 204)
        _ = try await check("GET", "/__admin/projects/{id}/requests", "/__admin/projects/\(id)/requests?limit=5", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}/requests", "/__admin/projects/\(id)/requests?bogus=1", expect: 400)
        _ = try await check("GET", "/__admin/projects/{id}/requests.har", "/__admin/projects/\(id)/requests.har?limit=5", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}/requests.har", "/__admin/projects/\(id)/requests.har?platform=nowhere", expect: 400)
        _ = try await check(
            "POST", "/__admin/projects/{id}/requests/wait", "/__admin/projects/\(id)/requests/wait", json: ["platform": "admin", "count": 1, "timeoutMs": 1000], expect: 200)
        _ = try await check(
            "POST", "/__admin/projects/{id}/requests/wait", "/__admin/projects/\(id)/requests/wait", json: ["method": "PATCH", "count": 1, "timeoutMs": 10], expect: 408)
        _ = try await check("DELETE", "/__admin/projects/{id}/requests", "/__admin/projects/\(id)/requests", expect: 204)
        _ = try await check("GET", "/__admin/requests", "/__admin/requests?via=direct&limit=5", expect: 200)
        // Requests that matched no project, with each reason's details, fit the document.
        _ = try await harness.call("GET", "/testing/items")
        _ = try await harness.call("GET", "/testing/items", headers: ["x-test-key": "tk_nobody"])
        _ = try await harness.call("GET", "/tesitng/items")
        let unmatched = try await check("GET", "/__admin/requests", "/__admin/requests?unmatched=true&limit=5", expect: 200)
        #expect(
            unmatched.json?["requests"]?.arrayValue?.compactMap { $0["unmatched"]?["reason"]?.stringValue }
                == ["no_platform", "unknown_credential", "no_credential"])
        _ = try await check("GET", "/__admin/requests", "/__admin/requests?unmatched=maybe", expect: 400)
        _ = try await check("GET", "/__admin/requests", "/__admin/requests?via=elsewhere", expect: 400)
        _ = try await check("POST", "/__admin/projects/{id}/snapshots", "/__admin/projects/\(id)/snapshots", json: ["name": "s1"], expect: 201)
        _ = try await check("POST", "/__admin/projects/{id}/snapshots", "/__admin/projects/\(id)/snapshots", json: ["name": "bad name!"], expect: 400)
        _ = try await check("GET", "/__admin/projects/{id}/snapshots", "/__admin/projects/\(id)/snapshots", expect: 200)
        _ = try await check("POST", "/__admin/projects/{id}/snapshots/{name}/restore", "/__admin/projects/\(id)/snapshots/s1/restore", expect: 200)
        _ = try await check("POST", "/__admin/projects/{id}/snapshots/{name}/restore", "/__admin/projects/\(id)/snapshots/none/restore", expect: 404)
        _ = try await check("DELETE", "/__admin/projects/{id}/snapshots/{name}", "/__admin/projects/\(id)/snapshots/s1", expect: 204)
        _ = try await check("GET", "/__admin/projects/{id}/outbox", "/__admin/projects/\(id)/outbox?platform=testing", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}/outbox", "/__admin/projects/\(id)/outbox?platform=nope", expect: 400)
        let exported = try await check("GET", "/__admin/projects/{id}/export", "/__admin/projects/\(id)/export", expect: 200)
        _ = try await check("GET", "/__admin/projects/{id}/export", "/__admin/projects/missing/export", expect: 404)
        _ = try await check("POST", "/__admin/projects/import", "/__admin/projects/import?replace=\(id)", json: exported.json, expect: 201)
        _ = try await check("POST", "/__admin/projects/import", "/__admin/projects/import?id=copy", json: exported.json, expect: 409)
        _ = try await check("POST", "/__admin/projects/import", "/__admin/projects/import", json: ["format": "understudy-bundle", "version": 9], expect: 400)
        _ = try await check("POST", "/__admin/projects/import", "/__admin/projects/import?replace=missing", json: ["format": "understudy-bundle", "version": 1], expect: 404)
        let key = created.json?["credentials"]?["testing"]?["key"]?.stringValue ?? ""
        for _ in 0..<3 { _ = await harness.respond("POST", "/testing/echo", json: ["n": 1], headers: ["x-test-key": key, "x-test-device": "d", "x-test-status": "400"]) }
        let findings = try await check("GET", "/__admin/projects/{id}/findings", "/__admin/projects/\(id)/findings?platform=testing", expect: 200)
        #expect(findings.json?["findings"]?.arrayValue?.count == 1)
        _ = try await check("GET", "/__admin/projects/{id}/findings", "/__admin/projects/\(id)/findings?severity=fatal", expect: 400)
        let devices = try await check("GET", "/__admin/projects/{id}/devices", "/__admin/projects/\(id)/devices?platform=testing", expect: 200)
        #expect(devices.json?["devices"]?.arrayValue?.first?["findings"]?.intValue == 1)
        _ = try await check("GET", "/__admin/projects/{id}/devices", "/__admin/projects/\(id)/devices?platform=nope", expect: 400)
        let device = "/__admin/projects/{id}/devices/{platform}/{device}"
        let timeline = try await check("GET", device, "/__admin/projects/\(id)/devices/testing/d?limit=2", expect: 200)
        #expect(timeline.json?["timeline"]?.arrayValue?.count == 2)
        _ = try await check("GET", device, "/__admin/projects/\(id)/devices/testing/none", expect: 404)
        _ = try await check("DELETE", device, "/__admin/projects/\(id)/devices/testing/d", expect: 409) // the testing platform keeps no state per device
        _ = try await check("DELETE", device, "/__admin/projects/\(id)/devices/testing/none", expect: 404)
        _ = try await check("DELETE", "/__admin/projects/{id}/findings", "/__admin/projects/\(id)/findings", expect: 204)
        _ = try await check("GET", "/__admin/projects/{id}/checks", "/__admin/projects/\(id)/checks", expect: 200)
        _ = try await check(
            "PATCH", "/__admin/projects/{id}/checks", "/__admin/projects/\(id)/checks", json: ["rules": ["repeat-after-4xx": ["severity": "error"]]], expect: 200)
        _ = try await check("PATCH", "/__admin/projects/{id}/checks", "/__admin/projects/\(id)/checks", json: ["rules": ["nope": [:]]], expect: 400)
        _ = try await check("GET", "/__admin/projects/{id}/checks", "/__admin/projects/missing/checks", expect: 404)
        _ = try await check("POST", "/__admin/projects/{id}/reset", "/__admin/projects/\(id)/reset", expect: 200)
        _ = try await check("DELETE", "/__admin/projects/{id}", "/__admin/projects/\(id)", expect: 204)
        _ = try await check("DELETE", "/__admin/projects/{id}", "/__admin/projects/\(id)", expect: 404)

        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let documented = Set(validator.operations.map { "\($0.method) \($0.path)" })
        #expect(documented.subtracting(exercised).isEmpty, "not exercised: \(documented.subtracting(exercised).sorted())")
        await harness.stop()
    }

    @Test("every operation has a unique id, a description, and examples for its body and its JSON successes")
    func operationsAreComplete() async throws {
        let harness = try await Harness()
        let document = try #require(try await harness.call("GET", "/__admin/openapi.json").json)
        await harness.stop()
        var ids: [String] = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for (method, operation) in item.objectValue ?? [:] where ["get", "put", "post", "delete", "patch", "options"].contains(method) {
                let label = "\(method.uppercased()) \(path)"
                if let id = operation["operationId"]?.stringValue { ids.append(id) } else { Issue.record("\(label) has no operationId") }
                #expect((operation["description"]?.stringValue ?? "").count > 10, "\(label) has no description")
                if let body = operation["requestBody"] {
                    #expect(body["content"]?["application/json"]?["example"] != nil, "\(label) body has no example")
                }
                for (status, response) in operation["responses"]?.objectValue ?? [:] where status.hasPrefix("2") {
                    guard let media = response["content"]?["application/json"] else { continue } // 204: no body
                    #expect(media["example"] != nil, "\(label) \(status) has no example")
                }
            }
        }
        #expect(ids.count == Set(ids).count, "operationIds repeat: \(ids.sorted())")
        #expect(ids.count == 43) // 31, the journal across projects (`GET /__admin/requests`), bundle export and import, the metrics, the HAR archive, findings and checks, devices
    }

    @Test("the validator catches a response that does not fit")
    func validatorFails() {
        let document: JSONValue = [
            "openapi": "3.1.0",
            "paths": [
                "/x": [
                    "get": [
                        "responses": [
                            "200": [
                                "description": "ok",
                                "content": [
                                    "application/json": [
                                        "schema": [
                                            "type": "object", "required": ["a"], "properties": ["a": ["type": "integer"], "b": ["type": ["string", "null"]]],
                                        ]
                                    ]
                                ],
                            ]
                        ]
                    ]
                ]
            ],
        ]
        let validator = OpenAPIValidator(document: document)
        #expect(validator.problems(method: "GET", path: "/x", status: 200, body: Data("{\"a\":1,\"b\":null}".utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 200, body: Data("{\"a\":\"1\"}".utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 200, body: Data("{}".utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 404, body: Data("{}".utf8)).isEmpty)
        #expect(!validator.problems(method: "POST", path: "/x", status: 200, body: Data("{}".utf8)).isEmpty)
    }
}

@Suite("Timestamps")
struct TimestampTests {
    @Test("milliseconds print as stored, never one less")
    func rounding() {
        for millis in [0, 1, 639, 640, 999] {
            let date = Date(timeIntervalSince1970: 1_900_000_000 + Double(millis) / 1000)
            #expect(Timestamp.format(date).hasSuffix(String(format: ".%03dZ", millis)))
            #expect(Timestamp.parse(Timestamp.format(date)).map { Timestamp.format($0) } == Timestamp.format(date))
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1.9996)) == "1970-01-01T00:00:02.000Z")
        #expect(Timestamp.formatMicroseconds(Date(timeIntervalSince1970: 0.5)) == "1970-01-01T00:00:00.500000Z")
        #expect(Timestamp.parse("2026-11-03T12:43:29.562522Z").map { Timestamp.format($0) } == "2026-11-03T12:43:29.563Z")
        #expect(Timestamp.parse("2026-11-03T14:43:29+02:00").map { Timestamp.format($0, fractionalSeconds: false) } == "2026-11-03T12:43:29Z")
        #expect(Timestamp.parse("yesterday") == nil)
    }
}
