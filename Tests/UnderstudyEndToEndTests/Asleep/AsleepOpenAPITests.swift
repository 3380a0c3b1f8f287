import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep OpenAPI", .timeLimit(.minutes(1)))
struct AsleepOpenAPITests {
    @Test("every documented operation is exercised and its real responses fit the document")
    func conformance() async throws {
        // Both answers of the registration route need the same product twice: the repeat the checks report.
        try await AsleepFixture.with(expectingFindings: true) { fixture in
            try await WebhookReceiver.with { receiver in
                let served = try await fixture.server.client.admin.openAPI("asleep")
                let document = try JSONValue.parse(try JSONEncoder().encode(served))
                #expect(document["openapi"]?.stringValue == "3.1.0")
                #expect(document["servers"]?[0]?["url"]?.stringValue == fixture.server.url.absoluteString + "/asleep")
                let validator = OpenAPIValidator(document: document)
                var covered: Set<String> = []
                func check(_ method: String, _ template: String, _ response: ClientResponse) {
                    covered.insert("\(method) \(template)")
                    let problems = validator.problems(method: method, path: template, status: response.status, headers: response.headers, body: response.body)
                    #expect(problems.isEmpty, "\(problems)")
                }
                let asleep = fixture.asleep
                let key = fixture.apiKey
                func sdk(
                    _ method: String, _ template: String, _ path: String, config: AsleepConfig? = nil, query: [(String, String)] = [],
                    body: Data? = nil, contentType: String = "application/json"
                ) async throws -> ClientResponse {
                    let response = try await asleep.raw(method, path, config: config, apiKey: config == nil ? key : nil, query: query, body: body, contentType: contentType)
                    check(method, template, response)
                    return response
                }
                let admin = fixture.projectAdmin
                let base = "/__admin/projects/{id}/asleep"
                func control(_ method: String, _ template: String, _ path: String, _ json: AnyJSON? = nil, query: [(String, String)] = []) async throws -> ClientResponse {
                    let response = try await admin.platformRequest("asleep", method, path, json: json, query: query)
                    check(method, base + template, response)
                    return response
                }
                func body(_ text: String) -> Data { Data(text.utf8) }

                // SDK routes, including error responses.
                let product = try await sdk("POST", "/ai/v1/products", "/ai/v1/products", body: body(#"{"model":"m","identifier_type":"SERIAL","identifier_value":"SN"}"#))
                #expect(product.status == 201)
                #expect(try await sdk("POST", "/ai/v1/products", "/ai/v1/products", body: body(#"{"model":"m","identifier_type":"SERIAL","identifier_value":"SN"}"#)).status == 200)
                #expect(try await sdk("POST", "/ai/v1/products", "/ai/v1/products", body: body(#"{"model":""}"#)).status == 422)
                let created = try await sdk("POST", "/ai/v1/users", "/ai/v1/users", body: body(#"{"metadata":{"birth_year":1990,"gender":"female"}}"#))
                let userID = try #require(try created.json()["result"]?["user_id"]?.string)
                let config = AsleepConfig(apiKey: key, userId: userID, timezone: "Europe/Berlin", callbackUrl: receiver.url)
                #expect(try await sdk("GET", "/ai/v1/users/{user_id}", "/ai/v1/users/\(userID)").status == 200)
                #expect(try await sdk("GET", "/ai/v1/users/{user_id}", "/ai/v1/users/G-none").status == 404)
                #expect(try await sdk("PUT", "/ai/v1/users/{user_id}", "/ai/v1/users/\(userID)", body: body(#"{"metadata":{"height":180.5}}"#)).status == 200)
                let start = try await sdk("POST", "/ai/v1/sessions", "/ai/v1/sessions", config: config, body: body(#"{"service":"app"}"#))
                let session = try #require(try start.json()["result"]?["session_id"]?.string)
                // The session is completed by hand below: the worker must not beat the test to it
                // on a slow machine (the default completion delay is 2 s of real time).
                _ = try await fixture.admin.updateSettings(["completionDelaySeconds": 29])
                for seq in 0..<12 {
                    let (form, type) = AsleepClient.multipart(seqNum: seq, chunk: AsleepClient.melChunk())
                    #expect(
                        try await sdk("POST", "/ai/v1/sessions/{session_id}/upload", "/ai/v1/sessions/\(session)/upload", config: config, body: form, contentType: type).status
                            == 200)
                }
                #expect(try await sdk("GET", "/data/v3/sessions/{session_id}", "/data/v3/sessions/\(session)", config: config).status == 200)
                #expect(try await sdk("GET", "/ai/v1/users/{user_id}", "/ai/v1/users/\(userID)").status == 200)
                #expect(try await sdk("POST", "/ai/v1/sessions/{session_id}/close", "/ai/v1/sessions/\(session)/close", config: config, body: body("{}")).status == 200)
                #expect(try await sdk("POST", "/ai/v1/sessions/{session_id}/close", "/ai/v1/sessions/\(session)/close", config: config, body: body("{}")).status == 404)
                let (late, lateType) = AsleepClient.multipart(seqNum: 12, chunk: AsleepClient.melChunk())
                #expect(
                    try await sdk("POST", "/ai/v1/sessions/{session_id}/upload", "/ai/v1/sessions/\(session)/upload", config: config, body: late, contentType: lateType).status
                        == 403)
                try await fixture.asleep.project(fixture.project.id).completeSession(session)
                #expect(try await sdk("GET", "/data/v3/sessions/{session_id}", "/data/v3/sessions/\(session)", config: config).status == 200)
                #expect(try await sdk("GET", "/data/v1/sessions", "/data/v1/sessions", config: config, query: [("limit", "5")]).status == 200)
                #expect(try await sdk("GET", "/data/v1/sessions", "/data/v1/sessions", config: config, query: [("limit", "500")]).status == 422)
                let today = String(Timestamp.format(Date()).prefix(10))
                #expect(
                    try await sdk(
                        "GET", "/data/v1/users/{user_id}/average-stats", "/data/v1/users/\(userID)/average-stats",
                        query: [("start_date", "2020-01-01"), ("end_date", "2020-01-31")]
                    ).status == 200)
                let averages = try await sdk(
                    "GET", "/data/v1/users/{user_id}/average-stats", "/data/v1/users/\(userID)/average-stats",
                    query: [("start_date", today), ("end_date", today), ("timezone", "UTC")])
                #expect(averages.status == 200)
                let appID = fixture.project.credential("asleep", "appId"), secret = fixture.project.credential("asleep", "appSecret")
                let tokens = try await sdk("POST", "/customer/v1/app/token", "/customer/v1/app/token", body: body(#"{"app_id":"\#(appID)","app_secret":"\#(secret)"}"#))
                let refresh = try #require(try tokens.json()["result"]?["refresh_token"]?.string)
                #expect(try await sdk("POST", "/customer/v1/app/refresh", "/customer/v1/app/refresh", body: body(#"{"refresh_token":"\#(refresh)"}"#)).status == 200)
                #expect(try await sdk("POST", "/customer/v1/app/refresh", "/customer/v1/app/refresh", body: body(#"{"refresh_token":"nope"}"#)).status == 401)

                // Control plane.
                #expect(try await control("GET", "/settings", "/settings").status == 200)
                #expect(try await control("PATCH", "/settings", "/settings", ["completionDelaySeconds": 5]).status == 200)
                #expect(try await control("PATCH", "/settings", "/settings", ["completionDelaySeconds": 45]).status == 400)
                #expect(try await control("GET", "/keys", "/keys").status == 200)
                #expect(try await control("POST", "/keys", "/keys", ["apiKey": "extra-key", "state": "quota_exceeded"]).status == 201)
                #expect(try await control("PATCH", "/keys/{key}", "/keys/extra-key", ["productBilling": false]).status == 200)
                #expect(try await control("DELETE", "/keys/{key}", "/keys/extra-key").status == 204)
                #expect(try await control("GET", "/apps", "/apps").status == 200)
                #expect(try await control("POST", "/apps", "/apps", ["appId": "app_extra"]).status == 201)
                #expect(try await control("POST", "/tokens/expire", "/tokens/expire", ["kind": "all"]).status == 200)
                #expect(try await control("POST", "/users", "/users", ["userId": "G-seeded", "metadata": ["gender": "male"]]).status == 201)
                #expect(try await control("POST", "/users", "/users", ["userId": "G-bad", "nope": 1]).status == 400)
                #expect(try await control("GET", "/users", "/users").status == 200)
                let seededProduct = try await control("POST", "/products", "/products", ["model": "bed-2", "identifierValue": "SN-SEED", "productKey": "pk_seeded"])
                #expect(seededProduct.status == 201)
                #expect(try await control("POST", "/products", "/products", ["model": "bed-2", "identifierValue": "SN-SEED"]).status == 409)
                #expect(try await asleep.setup(apiKey: key, productInfo: AsleepProductInfo(model: "bed-2", identifierValue: "SN-SEED")).productKey == "pk_seeded")
                #expect(try await control("GET", "/products", "/products").status == 200)
                let productID = try #require(try product.json()["result"]?["product_id"]?.string)
                #expect(try await control("POST", "/products/{product}/revoke", "/products/\(productID)/revoke").status == 200)
                let seeded = try await control("POST", "/sessions", "/sessions", ["userId": "G-seeded", "state": "OPEN", "chunks": 20])
                let seededID = try #require(try seeded.json()["sessionId"]?.string)
                #expect(try await control("GET", "/sessions", "/sessions", query: [("state", "OPEN")]).status == 200)
                #expect(try await control("GET", "/sessions/{session}", "/sessions/\(seededID)").status == 200)
                #expect(try await control("GET", "/sessions/{session}", "/sessions/none").status == 404)
                #expect(try await control("GET", "/sessions/{session}/chunks", "/sessions/\(seededID)/chunks").status == 200)
                #expect(try await control("GET", "/sessions/{session}/chunks", "/sessions/\(session)/chunks").status == 200)
                #expect(try await control("GET", "/sessions/{session}/chunks", "/sessions/none/chunks").status == 404)
                #expect(try await control("PATCH", "/sessions/{session}", "/sessions/\(seededID)", ["hold": true, "callbackUrl": .string(receiver.url)]).status == 200)
                #expect(try await control("POST", "/sessions/{session}/close", "/sessions/\(seededID)/close").status == 200)
                #expect(try await control("POST", "/sessions/{session}/complete", "/sessions/\(seededID)/complete").status == 200)
                #expect(try await control("GET", "/sessions/{session}/report", "/sessions/\(seededID)/report").status == 200)
                #expect(try await control("POST", "/sessions/{session}/webhooks", "/sessions/\(seededID)/webhooks", ["event": "INFERENCE_COMPLETE"]).status == 202)
                await receiver.waitFor(1)
                #expect(try await control("GET", "/webhooks", "/webhooks").status == 200)
                #expect(try await control("DELETE", "/users/{user}", "/users/G-seeded").status == 204)

                // Deletions last.
                #expect(try await sdk("DELETE", "/ai/v1/sessions/{session_id}", "/ai/v1/sessions/\(session)", config: config).status == 204)
                #expect(try await sdk("DELETE", "/ai/v1/sessions", "/ai/v1/sessions", config: config).status == 204)
                #expect(try await sdk("DELETE", "/ai/v1/users/{user_id}", "/ai/v1/users/\(userID)").status == 204)

                // The check has teeth: a report without its members does not fit.
                #expect(!validator.problems(method: "GET", path: "/data/v3/sessions/{session_id}", status: 200, body: Data(#"{"detail":"OK","result":{}}"#.utf8)).isEmpty)

                let documented = Set(validator.operations.map { "\($0.method) \($0.path)" })
                #expect(documented.subtracting(covered).isEmpty, "not exercised: \(documented.subtracting(covered).sorted())")
                #expect(covered.subtracting(documented).isEmpty, "not documented: \(covered.subtracting(documented).sorted())")
            }
            #expect(try await fixture.projectAdmin.findings().map(\.rule) == ["asleep.setup-repeated"])
        }
    }
}
