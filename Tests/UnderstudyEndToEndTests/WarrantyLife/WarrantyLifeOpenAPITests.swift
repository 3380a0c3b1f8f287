import EmulatorCore
import Foundation
import HTTPServer
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife OpenAPI")
struct WarrantyLifeOpenAPITests {
    /// Sends requests, checks each real response against the served document, and remembers which operations ran.
    final class Checker: @unchecked Sendable { // confined to the single test task that owns it
        let f: WarrantyLifeFixture
        let validator: OpenAPIValidator
        var covered: Set<String> = []
        var problems: [String] = []
        var login: WarrantyLifeLoginResponse?

        init(_ f: WarrantyLifeFixture, document: JSONValue) {
            self.f = f
            self.validator = OpenAPIValidator(document: document)
        }

        /// `template` is the document's path key; `path` the concrete path below the document's
        /// server (SDK paths are relative to `…/warrantylife`, control-plane ones absolute).
        @discardableResult
        func call(
            _ method: String, _ template: String, _ path: String? = nil, query: [(String, String)] = [], json: String? = nil, body: Data? = nil,
            headers: [String: String] = [:], expect: Int
        ) async throws -> AnyJSON {
            var all = headers
            var concrete = path ?? template
            if !concrete.hasPrefix("/__admin") {
                concrete = "/warrantylife" + concrete
                all["X-WL-Developer-Key"] = f.key
                if let login { all["Authorization"] = "Basic " + Data("\(login.identity):\(login.token)".utf8).base64EncodedString() }
            }
            var payload = body
            if let json { payload = Data(json.utf8); all["Content-Type"] = "application/json" }
            let response = try await f.client.send(
                ClientRequest(method: method, path: concrete.replacingOccurrences(of: "{id}", with: f.project.id), query: query, headers: all, body: payload))
            #expect(response.status == expect, "\(method) \(concrete): \(response.text.prefix(300))")
            problems += validator.problems(method: method, path: template, status: response.status, headers: response.headers, body: response.body)
            covered.insert("\(method) \(template)")
            return (try? response.json()) ?? .null
        }
    }

    @Test("every documented operation is exercised and every real response fits the document")
    func conformance() async throws {
        // With the optional Smart Saver routes on, so they are documented and exercised too. Every
        // readings answer is taken from one Sensor Event, so its readings go up more than once: the
        // repeat the checks report.
        try await WarrantyLifeFixture.with(configure: { $0.platforms[.warrantylife] = ["smartSaverRoutes": true] }, expectingFindings: true) { f in
            let document = try await f.client.admin.openAPI("warrantylife")
            let decoded = try JSONValue.parse(JSONEncoder().encode(document))
            let c = Checker(f, document: decoded)
            let sdk = "/mapi/wi/100", admin = "/__admin/projects/{id}/warrantylife"

            try await c.call("GET", sdk + "/developer-keys/validate", expect: 200)
            let key = try await c.call("POST", admin + "/developer-keys", json: #"{"key":"k2","state":"unavailable"}"#, expect: 201)
            #expect(key["state"]?.string == "unavailable")
            try await c.call("PATCH", admin + "/developer-keys/{key}", admin + "/developer-keys/k2", json: #"{"state":"revoked"}"#, expect: 200)
            try await c.call("GET", admin + "/developer-keys", expect: 200)
            let user = try await c.call("POST", admin + "/users", json: #"{"email":"jane@example.com","password":"pw","firstName":"Jane","country":2,"state":202}"#, expect: 201)
            let userID = user["userId"]?.string ?? ""
            try await c.call("PATCH", admin + "/users/{userId}", admin + "/users/\(userID)", json: #"{"activated":true}"#, expect: 200)
            try await c.call("GET", admin + "/users", expect: 200)
            try await c.call("GET", sdk + "/auth/activated-account-check", query: [("email", "jane@example.com")], expect: 200)
            try await c.call("POST", sdk + "/auth/recover", json: #"{"email":"jane@example.com"}"#, expect: 202)
            try await c.call(
                "POST", sdk + "/auth/token", body: Data("password=bad&username=jane%40example.com".utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                expect: 404)
            let login = try await c.call(
                "POST", sdk + "/auth/token", body: Data("password=pw&username=jane%40example.com".utf8), headers: ["Content-Type": "application/x-www-form-urlencoded"], expect: 202
            )
            c.login = try JSONDecoder().decode(WarrantyLifeLoginResponse.self, from: JSONEncoder().encode(login["data"] ?? .null))
            try await c.call("POST", sdk + "/auth/user", json: #"{"email":"new@example.com","password":"pw","country":1,"state":105}"#, expect: 201)
            try await c.call("POST", sdk + "/auth/user", json: #"{"email":"new@example.com","password":"pw"}"#, expect: 409)
            try await c.call("GET", sdk + "/whoami", expect: 200)
            try await c.call("GET", sdk + "/app-config", expect: 200)

            try await c.call(
                "POST", admin + "/vouchers", json: #"{"code":"V-1","originalDevice":{"deviceId":"OLD"},"lockedEmail":"x@example.com","registrationDeadlineDays":30}"#, expect: 201)
            try await c.call("POST", admin + "/vouchers", json: #"{"code":"V-2","purchaseDateRequired":true}"#, expect: 201)
            try await c.call("GET", admin + "/vouchers", expect: 200)
            try await c.call("GET", admin + "/vouchers/{code}", admin + "/vouchers/V-1", expect: 200)
            try await c.call("GET", admin + "/voucher-actions", query: [("deviceId", "PHONE")], expect: 200)
            try await c.call("GET", sdk + "/vouchers/{code}", sdk + "/vouchers/V-1", query: [("deviceId", "PHONE")], expect: 200)
            try await c.call("GET", sdk + "/vouchers/{code}", sdk + "/vouchers/NOPE", expect: 404)
            try await c.call("GET", sdk + "/devices", query: [("deviceId", "PHONE")], expect: 404)
            try await c.call("GET", sdk + "/items", query: [("deviceId", "PHONE")], expect: 404)
            let item = try await c.call("POST", sdk + "/items", json: #"{"deviceId":"PHONE","categoryId":"95","model":"iPhone 13","mpn":"iPhone14,5"}"#, expect: 201)
            let itemID = item["data"]?["id"]?.string ?? ""
            try await c.call("POST", sdk + "/items", json: #"{"deviceId":"PHONE"}"#, expect: 200)
            try await c.call("GET", sdk + "/items", query: [("deviceId", "PHONE")], expect: 200)
            let event = try await c.call(
                "PUT", sdk + "/items/{itemId}", sdk + "/items/\(itemID)", json: #"{"eventAt":"2026-11-30 10:00:00.000","sensorEventType":1111}"#, expect: 202)
            let eventID = event["data"]?["sensorEventId"]?.string ?? ""
            try await c.call("PUT", sdk + "/items/{itemId}", sdk + "/items/\(itemID)", json: #"{"notificationToken":"fcm"}"#, expect: 200)
            try await c.call(
                "POST", sdk + "/items/{itemId}/events", sdk + "/items/\(itemID)/events", json: #"{"sensorEventType":1200,"eventAt":"2026-11-30 10:01:00.000"}"#, expect: 202)
            try await c.call(
                "POST", sdk + "/items/{itemId}/events/{sensorEventId}/readings", sdk + "/items/\(itemID)/events/\(eventID)/readings", body: Data(#"[{"phase":1}]"#.utf8),
                expect: 201)
            try await c.call(
                "POST", sdk + "/items/{itemId}/events/{sensorEventId}/readings", sdk + "/items/\(itemID)/events/\(eventID)/readings", body: Data("{}".utf8), expect: 400)
            // The gzip form the document describes: the compressed array with Content-Encoding, then the bare stream.
            let readings = Gzip.compress(Data(#"[{"phase":2},{"phase":3}]"#.utf8))
            for encoding in [["Content-Encoding": "gzip"], [:]] {
                let stored = try await c.call(
                    "POST", sdk + "/items/{itemId}/events/{sensorEventId}/readings", sdk + "/items/\(itemID)/events/\(eventID)/readings", body: readings,
                    headers: encoding, expect: 201)
                #expect(stored["data"]?["received"]?.int == 2)
            }
            try await c.call(
                "POST", sdk + "/items/{itemId}/events/{sensorEventId}/readings", sdk + "/items/\(itemID)/events/\(eventID)/readings",
                body: Data(#"[{"phase":1}]"#.utf8), headers: ["Content-Encoding": "gzip"], expect: 400)
            try await c.call(
                "POST", sdk + "/items/{itemId}/events/{sensorEventId}/readings", sdk + "/items/\(itemID)/events/\(eventID)/readings",
                body: readings, headers: ["Content-Encoding": "br"], expect: 415)
            let readingsOperation = decoded["paths"]?[sdk + "/items/{itemId}/events/{sensorEventId}/readings"]?["post"]
            #expect(readingsOperation?["parameters"]?.arrayValue?.contains { $0["name"] == "Content-Encoding" && $0["in"] == "header" } == true)
            try await c.call(
                "POST", sdk + "/items/{itemId}/clips/sound/{sensorEventId}", sdk + "/items/\(itemID)/clips/sound/\(eventID)", query: [("createdAt", "2026-11-30 10:00:00.000")],
                body: Data("aud".utf8), expect: 201)
            let diagnostic = try await c.call("POST", sdk + "/items/{itemId}/diagnostics", sdk + "/items/\(itemID)/diagnostics", json: #"{"brand":"Apple"}"#, expect: 201)
            let diagnosticID = diagnostic["data"]?["id"]?.string ?? ""
            let multipart = "--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"123456789\"\r\nContent-Type: image/jpg\r\n\r\nJPEG\r\n--b--\r\n"
            try await c.call(
                "POST", sdk + "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", sdk + "/items/\(itemID)/diagnostics/\(diagnosticID)/images/reference",
                body: Data(multipart.utf8), headers: ["Content-Type": "multipart/form-data; boundary=b"], expect: 201)
            try await c.call("PUT", sdk + "/items/{itemId}/notification-token", sdk + "/items/\(itemID)/notification-token", json: #"{"notificationToken":"fcm-2"}"#, expect: 200)
            try await c.call("GET", sdk + "/insights", query: [("deviceId", "PHONE")], expect: 200)
            try await c.call(
                "POST", admin + "/items/{itemId}/insights/generate", admin + "/items/\(itemID)/insights/generate", json: #"{"timeZone":"America/Toronto"}"#, expect: 201)
            try await c.call("GET", sdk + "/insights", query: [("deviceId", "PHONE")], expect: 200)
            try await c.call("GET", sdk + "/items/{itemId}/insights", sdk + "/items/\(itemID)/insights", expect: 200)
            try await c.call("GET", sdk + "/devices/{deviceId}/insights", sdk + "/devices/PHONE/insights", expect: 200)
            try await c.call("PUT", admin + "/items/{itemId}/insights", admin + "/items/\(itemID)/insights", json: "null", expect: 200)

            try await c.call("GET", sdk + "/warranties", expect: 200)
            try await c.call("POST", sdk + "/warranties", json: #"{"voucherCode":"V-2","country":2,"state":202}"#, expect: 400)
            let warranty = try await c.call(
                "POST", sdk + "/warranties", json: #"{"voucherCode":"V-2","country":2,"state":202,"dateOfPurchase":"2026-11-01","ssr":true}"#, expect: 201)
            let warrantyID = warranty["data"]?["id"]?.string ?? ""
            try await c.call("GET", sdk + "/warranties/{id}", sdk + "/warranties/\(warrantyID)", expect: 200)
            try await c.call("PUT", sdk + "/warranties/{id}", sdk + "/warranties/\(warrantyID)", json: #"{"city":"Vancouver"}"#, expect: 200)
            try await c.call("PATCH", sdk + "/warranties/{id}", sdk + "/warranties/\(warrantyID)", json: #"{"rewardAmount":10}"#, expect: 200)
            try await c.call("GET", sdk + "/devices", query: [("deviceId", "PHONE")], expect: 200)
            try await c.call("GET", sdk + "/items/{itemId}/smart-saver", sdk + "/items/\(itemID)/smart-saver", expect: 200)
            try await c.call(
                "POST", sdk + "/items/{itemId}/smart-saver/opt-ins", sdk + "/items/\(itemID)/smart-saver/opt-ins", json: #"{"program":"SSD","optIn":true}"#, expect: 200)
            try await c.call("POST", sdk + "/surveys", json: #"{"surveyVersion":1,"answers":[{"1":11}]}"#, expect: 201)
            try await c.call("GET", sdk + "/surveys", query: [("surveyVersion", "1")], expect: 200)
            try await c.call("GET", sdk + "/offers/registration", query: [("simplify", ""), ("country", "US")], expect: 200)
            try await c.call("GET", sdk + "/offers/reward-screen", query: [("simplify", "")], expect: 200)
            try await c.call("GET", sdk + "/offers", expect: 200)
            try await c.call("POST", sdk + "/feedback", json: #"{"rating":5}"#, expect: 201)
            try await c.call("GET", sdk + "/sensor-tests", expect: 200)
            try await c.call("GET", sdk + "/diagnostic-config", query: [("model", "iPhone14,5")], expect: 200)

            try await c.call("GET", admin + "/items", expect: 200)
            try await c.call("POST", admin + "/items", json: #"{"deviceId":"THEIRS","ownerEmail":"bob@example.org"}"#, expect: 201)
            try await c.call("GET", admin + "/warranties", expect: 200)
            try await c.call("POST", admin + "/warranties", json: #"{"deviceId":"THEIRS","status":"EXPIRED"}"#, expect: 201)
            try await c.call("PATCH", admin + "/warranties/{warrantyId}", admin + "/warranties/\(warrantyID)", json: #"{"status":"CANCELLED"}"#, expect: 200)
            try await c.call("GET", admin + "/content/{name}", admin + "/content/appConfig", expect: 200)
            try await c.call("PUT", admin + "/content/{name}", admin + "/content/offers", json: "[]", expect: 200)
            for path in ["sensor-events", "readings", "audio-clips", "diagnostics", "images", "fcm-tokens", "opt-ins", "submissions", "voucher-lookups"] {
                try await c.call("GET", admin + "/" + path, expect: 200)
            }
            try await c.call("POST", admin + "/items/{itemId}/silent-push", admin + "/items/\(itemID)/silent-push", json: "{}", expect: 201)
            let other = try await c.call("GET", admin + "/items", expect: 200)
            let otherID = other["items"]?.array?.first { $0["deviceId"]?.string == "THEIRS" }?["id"]?.string ?? ""
            try await c.call("DELETE", admin + "/items/{itemId}", admin + "/items/\(otherID)", expect: 204)
            try await c.call("DELETE", sdk + "/auth/token", expect: 204)
            try await c.call("GET", sdk + "/whoami", expect: 401)

            #expect(c.problems.isEmpty, "\(c.problems.joined(separator: "\n"))")
            // The document is strict enough to catch a wrong shape.
            #expect(!c.validator.problems(method: "GET", path: sdk + "/app-config", status: 200, body: Data(#"{"data":{"countries":[{"id":"1"}]}}"#.utf8)).isEmpty)
            #expect(!c.validator.problems(method: "GET", path: sdk + "/insights", status: 200, body: Data(#"{"data":{"generatedAt":"x"}}"#.utf8)).isEmpty)
            let documented = Set(OpenAPIValidator(document: decoded).operations.map { "\($0.method) \($0.path)" })
            #expect(documented.subtracting(c.covered).sorted() == [], "operations never exercised")
            #expect(c.covered.subtracting(documented).sorted() == [], "exercised operations missing from the document")
            #expect(try await f.projectAdmin.findings().map(\.rule) == ["warrantylife.readings-reuploaded"])
        }
    }
}
