import Foundation
import HTTPServer
import Testing

@testable import EmulatorCore

/// Control-plane changes from web pages of other origins are refused; curl, the CLI and the
/// client library (no Origin, no Sec-Fetch-Site) and the dashboard (same origin) are not.
@Suite("Control plane: cross-origin refusal")
struct CrossOriginTests {
    private func request(
        _ method: HTTPMethod, _ target: String, host: String = "127.0.0.1:8080", headers: [(String, String)] = [],
        body: String = "", secure: Bool = false
    ) -> Request {
        var fields = HTTPHeaders()
        fields.add("Host", host)
        for (name, value) in headers { fields.add(name, value) }
        var request = Request(method: method, target: target, headers: fields, body: Data(body.utf8))
        if secure { request.connection = ConnectionInfo(listener: .https, isSecure: true) }
        return request
    }

    /// What a browser page of another origin sends, one marker at a time.
    static let foreignMarkers: [[(String, String)]] = [
        [("Origin", "http://127.0.0.1:9999")], [("Origin", "http://localhost:8080")], [("Origin", "null")], [("Origin", "http://attacker.example")],
        [("Origin", "https://127.0.0.1:8080")], [("Origin", "http://127.0.0.1:8080/x")], [("Sec-Fetch-Site", "cross-site")],
        [("Sec-Fetch-Site", "same-site")], [("Sec-Fetch-Site", "same-site"), ("Origin", "http://127.0.0.1:8080")],
    ]

    @Test("the stage: a state change with another origin's Origin or Sec-Fetch-Site is refused; reads and non-browser clients pass")
    func stage() throws {
        let guarded = AdminGuard(token: nil, projectExists: { _ in true })
        let path = "/__admin/projects", template = "/__admin/projects"
        for markers in Self.foreignMarkers {
            let refusal = try #require(
                guarded.check(request(.post, path, headers: markers), path: path, template: template, project: nil, changesState: true),
                "\(markers)")
            #expect(refusal.status == 403)
            #expect(try JSONValue.parse(refusal.body)["error"]?["code"]?.stringValue == "cross_origin_refused")
            // Reading is left to the browser: without CORS the page cannot see the answer.
            #expect(guarded.check(request(.get, path, headers: markers), path: path, template: template, project: nil, changesState: false) == nil)
        }
        let own: [[(String, String)]] = [
            [], [("Origin", "http://127.0.0.1:8080")], [("Origin", "HTTP://127.0.0.1:8080")], [("Sec-Fetch-Site", "same-origin")],
            [("Sec-Fetch-Site", "none")], [("Sec-Fetch-Site", "same-origin"), ("Origin", "http://127.0.0.1:8080")],
        ]
        for markers in own {
            #expect(guarded.check(request(.post, path, headers: markers), path: path, template: template, project: nil, changesState: true) == nil, "\(markers)")
        }
        // The default port is the same origin whether written or not, on the listener's own scheme.
        #expect(
            guarded.check(
                request(.post, path, host: "localhost", headers: [("Origin", "http://localhost:80")]), path: path, template: template,
                project: nil, changesState: true) == nil)
        #expect(
            guarded.check(
                request(.post, path, host: "localhost:8443", headers: [("Origin", "https://localhost:8443")], secure: true), path: path,
                template: template, project: nil, changesState: true) == nil)
        #expect(
            guarded.check(
                request(.post, path, host: "localhost:8443", headers: [("Origin", "http://localhost:8443")], secure: true), path: path,
                template: template, project: nil, changesState: true)?.status == 403)
        // Behind a TLS-terminating tunnel the page's origin is the public URL's.
        let tunnelled = AdminGuard(token: nil, projectExists: { _ in true }, publicURL: { PublicURL("https://sandbox.example.org") })
        #expect(
            tunnelled.check(
                request(.post, path, host: "sandbox.example.org", headers: [("Origin", "https://sandbox.example.org")]), path: path,
                template: template, project: nil, changesState: true) == nil)
        // With a token configured the origin is refused first: a page cannot send the token anyway.
        let tokened = AdminGuard(token: "s3cret", projectExists: { _ in true })
        let withToken = request(.delete, path, headers: [("Origin", "http://127.0.0.1:9999"), ("X-Understudy-Admin-Token", "s3cret")])
        #expect(tokened.check(withToken, path: path, template: template, project: nil, changesState: true)?.status == 403)
    }

    @Test("in process: every kind of control-plane change from another origin is refused and changes nothing; without the markers it works")
    func inProcess() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let project = try await harness.project("target")
        // A frozen clock, so the state read before and after does not move by itself.
        #expect(await harness.respond("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "frozen", "now": "2030-01-01T00:00:00Z"]).status == 200)
        let exported = try #require(await harness.respond("GET", "/__admin/projects/\(project.id)/export").json).encoded()
        let bundle = String(decoding: exported, as: UTF8.self)
        func state() async -> [String] {
            var answers: [String] = []
            for path in [
                "/__admin/projects", "/__admin/faults", "/__admin/projects/\(project.id)/faults", "/__admin/projects/\(project.id)/clock",
                "/__admin/projects/\(project.id)/snapshots",
            ] {
                answers.append(String(decoding: await harness.respond("GET", path).body, as: UTF8.self))
            }
            return answers
        }
        let before = await state()
        let changes: [(HTTPMethod, String, String)] = [
            (.post, "/__admin/faults", #"{"match":{},"action":{"type":"status","status":503}}"#),
            (.post, "/__admin/projects/\(project.id)/faults", #"{"match":{},"action":{"type":"status","status":503}}"#),
            (.put, "/__admin/projects/\(project.id)/clock", #"{"mode":"frozen","now":"2046-01-01T00:00:00Z"}"#),
            (.post, "/__admin/projects/\(project.id)/clock/advance", #"{"seconds":600000000}"#),
            (.post, "/__admin/projects/\(project.id)/reset", ""),
            (.post, "/__admin/projects", #"{"id":"planted","name":"x"}"#),
            (.post, "/__admin/projects/import?replace=\(project.id)", bundle),
            (.post, "/__admin/projects/\(project.id)/snapshots", #"{"name":"s1"}"#),
            (.delete, "/__admin/projects/\(project.id)", ""),
            (.delete, "/__admin/projects/\(project.id)/requests", ""),
            (.delete, "/__admin/faults", ""),
        ]
        var attempts = 0
        for (method, path, body) in changes {
            for markers in Self.foreignMarkers {
                let answer = await harness.emulator.respond(to: request(method, path, headers: markers + [("Content-Type", "text/plain")], body: body))
                attempts += 1
                #expect(answer.status == 403, "\(method) \(path) \(markers): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            }
        }
        #expect(attempts == changes.count * Self.foreignMarkers.count)
        #expect(await state() == before)
        // curl without a Content-Type, the way every doc example is written: no markers, answered.
        let curl = await harness.emulator.respond(to: request(.put, "/__admin/projects/\(project.id)/clock", body: #"{"mode":"frozen","now":"2046-01-01T00:00:00Z"}"#))
        #expect(curl.status == 200)
        // The dashboard: its own origin.
        let dashboard = await harness.emulator.respond(
            to: request(
                .post, "/__admin/projects/\(project.id)/reset",
                headers: [("Origin", "http://127.0.0.1:8080"), ("Sec-Fetch-Site", "same-origin")]))
        #expect(dashboard.status == 200)
    }

    @Test("no CORS on the control plane but for its OpenAPI documents: no Access-Control-Allow-Origin, no preflight allowance")
    func noCORS() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let project = try await harness.project("cors")
        let document = try #require(await harness.respond("GET", "/__admin/openapi.json").json)
        var checked = 0
        for (template, item) in document["paths"]?.objectValue ?? [:] {
            let path = template.replacingOccurrences(of: "{id}", with: project.id).replacingOccurrences(of: "{document}", with: "testing.json")
                .replacingOccurrences(of: "{rule}", with: "flt_none").replacingOccurrences(of: "{name}", with: "none")
            let isDocument = template.hasPrefix("/__admin/openapi")
            if item["get"] != nil {
                let answer = await harness.emulator.respond(to: request(.get, path, headers: [("Origin", "http://attacker.example")]))
                #expect((answer.headers["access-control-allow-origin"] != nil) == isDocument, "GET \(template)")
                checked += 1
            }
            let preflight = await harness.emulator.respond(
                to: request(
                    .options, path,
                    headers: [
                        ("Origin", "http://attacker.example"), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type"),
                    ]))
            let allowance = preflight.headers.fields.filter { $0.name.lowercased().hasPrefix("access-control-") }
            #expect(allowance.isEmpty == !isDocument, "OPTIONS \(template): \(allowance)")
            #expect(isDocument || (preflight.status >= 400 && preflight.status < 500), "OPTIONS \(template): \(preflight.status)")
            checked += 1
        }
        #expect(checked > 20)
    }
}
