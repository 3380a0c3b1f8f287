import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarpLink OpenAPI")
struct WarpLinkOpenAPITests {
    /// Collects validator problems and which documented operations were exercised.
    final class Checker: @unchecked Sendable { // confined to the one test task that owns it
        let validator: OpenAPIValidator
        var problems: [String] = []
        var covered: Set<String> = []

        init(document: JSONValue) { validator = OpenAPIValidator(document: document) }

        func check(_ method: String, _ template: String, _ response: ClientResponse) {
            covered.insert(method + " " + template)
            problems += validator.problems(method: method, path: template, status: response.status, headers: response.headers, body: response.body)
        }
    }

    @Test("the served document is OpenAPI 3.1 and every documented operation's real responses fit it")
    func conformance() async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in // every documented request, the ones no SDK sends included
            let served = try await h.server.client.admin.openAPI("warplink")
            let document = try JSONValue.parse(JSONEncoder().encode(served))
            #expect(document["openapi"]?.stringValue == "3.1.0")
            #expect(document["servers"]?[0]?["url"]?.stringValue == h.server.url.absoluteString + "/warplink")
            let checker = Checker(document: document)
            // The schemas are strict enough to catch a wrong body.
            #expect(!checker.validator.problems(method: "GET", path: "/v1/sdk/validate", status: 200, body: Data(#"{"valid":"yes"}"#.utf8)).isEmpty)
            #expect(!checker.validator.problems(method: "GET", path: "/v1/links/resolve/{slug}", status: 200, body: Data(#"{"id":"x"}"#.utf8)).isEmpty)
            let client = h.server.client
            let bearer = ["Authorization": "Bearer " + h.sdkKey]
            func send(_ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:], json: AnyJSON? = nil) async throws -> ClientResponse {
                var request = ClientRequest(method: method, path: path, query: query, headers: headers)
                if let json { request = try .json(method, path, json, headers: headers); request.query = query }
                return try await client.send(request)
            }

            // Control plane: seed everything through the documented routes.
            let admin = "/__admin/projects/\(h.project.id)/warplink"
            let a = admin
            checker.check("PUT", a.tpl("/settings"), try await send("PUT", a + "/settings", json: ["ip_multipliers": true]))
            checker.check("GET", a.tpl("/settings"), try await send("GET", a + "/settings"))
            let appResponse = try await send(
                "POST", a + "/apps", json: ["name": "Shop", "handle": .string(WarpLinkHarness.slug("oa")), "android_package_name": "com.example.shop"])
            checker.check("POST", a.tpl("/apps"), appResponse)
            let appID = try appResponse.json()["id"]?.string ?? ""
            checker.check("GET", a.tpl("/apps"), try await send("GET", a + "/apps"))
            let keyResponse = try await send("POST", a + "/keys", json: ["kind": "api", "scopes": ["links:read"]])
            checker.check("POST", a.tpl("/keys"), keyResponse)
            let apiKey = try keyResponse.json()["value"]?.string ?? ""
            checker.check("GET", a.tpl("/keys"), try await send("GET", a + "/keys"))
            checker.check("POST", a.tpl("/keys/{value}/revoke"), try await send("POST", a + "/keys/\(apiKey)/revoke"))
            checker.check("POST", a.tpl("/keys/{value}/restore"), try await send("POST", a + "/keys/\(apiKey)/restore"))
            checker.check("POST", a.tpl("/domains"), try await send("POST", a + "/domains", json: ["hostname": "links.openapi.example", "app_id": .string(appID)]))
            checker.check("GET", a.tpl("/domains"), try await send("GET", a + "/domains"))
            checker.check("POST", a.tpl("/domains/{hostname}/suspend"), try await send("POST", a + "/domains/links.openapi.example/suspend"))
            checker.check("POST", a.tpl("/domains/{hostname}/verify"), try await send("POST", a + "/domains/links.openapi.example/verify"))
            let slug = WarpLinkHarness.slug()
            let linkResponse = try await send(
                "POST", a + "/links",
                json: [
                    "slug": .string(slug), "destination_url": "https://example.com/o", "android_url": "app://o",
                    "custom_params": ["n": 1, "b": true],
                ])
            checker.check("POST", a.tpl("/links"), linkResponse)
            let linkID = try linkResponse.json()["id"]?.string ?? ""
            checker.check("GET", a.tpl("/links"), try await send("GET", a + "/links"))
            checker.check("GET", a.tpl("/links/{linkId}"), try await send("GET", a + "/links/\(linkID)"))
            checker.check("PATCH", a.tpl("/links/{linkId}"), try await send("PATCH", a + "/links/\(linkID)", json: ["tags": ["x"]]))
            checker.check("POST", a.tpl("/links"), try await send("POST", a + "/links", json: ["destination_url": "nope"]))
            checker.check(
                "POST", a.tpl("/clicks"), try await send("POST", a + "/clicks", json: ["link_id": .string(linkID), "accept_language": "en-US", "timezone": "Europe/Paris"]))
            checker.check("POST", a.tpl("/installs"), try await send("POST", a + "/installs", json: ["device_id": .string(UUID().uuidString), "link_id": .string(linkID)]))

            // SDK routes, with and without /v1, successes and errors.
            for base in ["/v1", ""] {
                let prefix = "/warplink" + base
                checker.check("GET", base + "/sdk/validate", try await send("GET", prefix + "/sdk/validate", headers: bearer))
                checker.check("GET", base + "/sdk/validate", try await send("GET", prefix + "/sdk/validate", headers: ["Authorization": "Bearer nope"]))
                checker.check(
                    "GET", base + "/links/resolve/{slug}",
                    try await send("GET", prefix + "/links/resolve/\(slug)", query: [("domain", "aplnk.to"), ("params", "q=1")], headers: bearer))
                checker.check("GET", base + "/links/resolve/{slug}", try await send("GET", prefix + "/links/resolve/missing", headers: bearer))
                let matchBody: AnyJSON = [
                    "platform": "android", "sdk_version": "1.1.0", "fingerprint_version": "enriched_tz", "is_reinstall": false,
                    "accept_language": "en-US", "timezone": "Europe/Paris", "timezone_offset": -120,
                ]
                checker.check("POST", base + "/attribution/match", try await send("POST", prefix + "/attribution/match", headers: bearer, json: matchBody))
                checker.check("POST", base + "/attribution/match", try await send("POST", prefix + "/attribution/match", headers: bearer, json: matchBody))
                checker.check("POST", base + "/attribution/match", try await send("POST", prefix + "/attribution/match", headers: bearer, json: ["platform": "web"]))
                checker.check(
                    "POST", base + "/attribution/match", try await send("POST", prefix + "/attribution/match", headers: ["Authorization": "Bearer " + h.apiKey], json: matchBody))
            }
            _ = try await h.admin.updateSettings(WarpLinkSettings(noMatchStyle: "minimal"))
            checker.check(
                "POST", "/v1/attribution/match",
                try await send(
                    "POST", "/warplink/v1/attribution/match", headers: bearer,
                    json: ["platform": "ios", "sdk_version": "1", "fingerprint_version": "basic"]))
            checker.check("GET", "/r/{slug}", try await send("GET", "/warplink/r/\(slug)", query: [("tz", "Europe/Paris")]))
            checker.check("GET", "/r/{slug}", try await send("GET", "/warplink/r/missing"))
            checker.check(
                "GET", "/v1/sdk/validate", try await send("GET", "/warplink/v1/sdk/validate", headers: bearer.merging(["X-Understudy-Fault": "status=503"]) { a, _ in a }))

            checker.check("GET", a.tpl("/clicks"), try await send("GET", a + "/clicks"))
            checker.check("GET", a.tpl("/installs"), try await send("GET", a + "/installs"))
            checker.check("POST", a.tpl("/links/{linkId}/expire"), try await send("POST", a + "/links/\(linkID)/expire"))
            checker.check("DELETE", a.tpl("/links/{linkId}"), try await send("DELETE", a + "/links/\(linkID)"))
            checker.check("DELETE", a.tpl("/links/{linkId}"), try await send("DELETE", a + "/links/\(linkID)"))
            checker.check("DELETE", a.tpl("/domains/{hostname}"), try await send("DELETE", a + "/domains/links.openapi.example"))
            checker.check("DELETE", a.tpl("/keys/{value}"), try await send("DELETE", a + "/keys/\(apiKey)"))
            checker.check("DELETE", a.tpl("/apps/{appId}"), try await send("DELETE", a + "/apps/\(appID)"))

            #expect(checker.problems.isEmpty, "\(checker.problems.joined(separator: "\n"))")
            let documented = Set(checker.validator.operations.map { $0.method + " " + $0.path })
            #expect(documented.subtracting(checker.covered).isEmpty, "not exercised: \(documented.subtracting(checker.covered).sorted())")
            #expect(checker.covered.subtracting(documented).isEmpty, "not documented: \(checker.covered.subtracting(documented).sorted())")
        }
    }
}

extension String {
    /// The document's template for an admin path below this project's `/warplink` control root.
    fileprivate func tpl(_ suffix: String) -> String { "/__admin/projects/{id}/warplink" + suffix }
}
