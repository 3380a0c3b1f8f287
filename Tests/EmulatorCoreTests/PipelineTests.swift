import Foundation
import HTTPServer
import Testing

@testable import EmulatorCore

/// The request pipeline's stages, each on its own, and the whole pipeline in process.
@Suite("Request pipeline")
struct PipelineTests {
    private func request(_ method: HTTPMethod = .get, _ target: String, host: String = "127.0.0.1", headers: [(String, String)] = []) -> Request {
        var fields = HTTPHeaders()
        fields.add("Host", host)
        for (name, value) in headers { fields.add(name, value) }
        return Request(method: method, target: target, headers: fields)
    }

    @Test("platform resolution: the path prefix, or a real host name that prepends it; the control plane belongs to no platform")
    func platformResolution() {
        let resolver = PlatformResolver(platforms: [TestPlatform()])
        let byPath = resolver.resolve(request(.get, "/testing/items?x=1"))
        #expect(byPath.platform?.id == .testing && byPath.routedPath == "/testing/items")
        let byHost = resolver.resolve(request(.get, "/items", host: "api.test.example:443"))
        #expect(byHost.platform?.id == .testing && byHost.routedPath == "/testing/items")
        let admin = resolver.resolve(request(.get, "/__admin/health", host: "api.test.example"))
        #expect(admin.platform == nil && admin.routedPath == "/__admin/health")
        #expect(resolver.resolve(request(.get, "/testingx/items")).platform == nil)
        #expect(resolver.resolve(request(.get, "/testingx")).platform == nil)
        #expect(resolver.resolve(request(.get, "/testing")).platform?.id == .testing)
        #expect(resolver.resolve(request(.get, "/testing/")).platform?.id == .testing)
        #expect(resolver.resolve(request(.get, "/test")).platform == nil)
        // The control plane belongs to no platform even when its path could name one.
        #expect(resolver.resolve(request(.get, "/__admin/testing/x", host: "api.test.example")).platform == nil)
    }

    @Test("repeated slashes in an SDK path route as one (a base URL ending in `/`), by path and by host")
    func repeatedSlashes() {
        let resolver = PlatformResolver(platforms: [TestPlatform()])
        #expect(resolver.resolve(request(.get, "/testing//items")).routedPath == "/testing/items")
        #expect(resolver.resolve(request(.get, "/testing///items//x?q=a//b")).routedPath == "/testing/items/x")
        #expect(resolver.resolve(request(.get, "//items", host: "api.test.example")).routedPath == "/testing/items")
        #expect(resolver.resolve(request(.get, "/testing/items")).routedPath == "/testing/items")
        #expect(PlatformResolver.collapsingSlashes("/a/b/") == "/a/b/" && PlatformResolver.collapsingSlashes("//") == "/")
    }

    @Test("admin guard: token required when configured (probes exempt), and a path's project must exist")
    func adminGuard() {
        let guarded = AdminGuard(token: "s3cret", projectExists: { $0 == "known" })
        #expect(guarded.check(request(.get, "/__admin/projects"), path: "/__admin/projects", template: "/__admin/projects", project: nil, changesState: false)?.status == 401)
        #expect(guarded.check(request(.get, "/__admin/health"), path: "/__admin/health", template: "/__admin/health", project: nil, changesState: false) == nil)
        let withToken = request(.get, "/__admin/projects", headers: [("X-Understudy-Admin-Token", "s3cret")])
        #expect(guarded.check(withToken, path: "/__admin/projects", template: "/__admin/projects", project: nil, changesState: false) == nil)
        let bearer = request(.get, "/__admin/projects", headers: [("Authorization", "Bearer s3cret")])
        #expect(guarded.check(bearer, path: "/__admin/projects", template: "/__admin/projects", project: nil, changesState: false) == nil)
        let open = AdminGuard(token: nil, projectExists: { $0 == "known" })
        #expect(
            open.check(request(.get, "/__admin/projects/nope"), path: "/__admin/projects/nope", template: "/__admin/projects/{id}", project: "nope", changesState: false)?.status
                == 404)
        #expect(
            open.check(request(.get, "/__admin/projects/known"), path: "/__admin/projects/known", template: "/__admin/projects/{id}", project: "known", changesState: false) == nil)
    }

    @Test("fault stage: replacing faults skip the handler, damaging ones keep its status, Retry-After on both")
    func faultStage() {
        let original = Response.json(status: 200, bytes: Data(#"{"ok":true,"items":[1,2,3]}"#.utf8))
        let injected = FaultStage.replacement(for: FaultAction(.status(503, body: nil), retryAfter: 2)) { Response.json(status: $0, bytes: Data("{}".utf8)) }
        #expect(injected?.status == 503 && injected?.headers["retry-after"] == "2")
        #expect(FaultStage.replacement(for: FaultAction(.reset)) { _ in original }?.delivery == .reset)
        #expect(FaultStage.replacement(for: FaultAction(.hang(milliseconds: 1500))) { _ in original }?.delivery == .hang(seconds: 1.5))
        #expect(FaultStage.replacement(for: FaultAction(.truncate(bytes: 3))) { _ in original } == nil)
        #expect(FaultStage.damage(original, with: FaultAction(.truncate(bytes: 3))).delivery == .truncateBody(bytes: 3))
        let malformed = FaultStage.damage(original, with: FaultAction(.malformedJSON, retryAfter: 1))
        #expect(malformed.status == 200 && malformed.headers["retry-after"] == "1")
        #expect((try? JSONValue.parse(malformed.body)) == nil)
    }

    @Test("fault actions keep their wire form; unknown types and 1xx statuses are refused")
    func faultActionWire() throws {
        let decoded = try JSONDecoder().decode(FaultAction.self, from: Data(#"{"type":"hang","delayMs":250,"retryAfter":3}"#.utf8))
        #expect(decoded == FaultAction(.hang(milliseconds: 250), retryAfter: 3))
        let roundTrip = try JSONDecoder().decode(FaultAction.self, from: JSONEncoder().encode(FaultAction(.status(429, body: ["a": 1]))))
        #expect(roundTrip == FaultAction(.status(429, body: ["a": 1])))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultAction.self, from: Data(#"{"type":"explode"}"#.utf8)) }
        #expect(FaultAction(.status(101, body: nil)).validationProblem != nil)
        #expect(FaultAction(.status(599, body: nil)).validationProblem == nil)
        #expect(FaultEngine.parseHeader("status=100") == nil)
    }

    @Test("in process: project resolution hands the credential to the handler once; an unknown key is no project")
    func inProcess() async throws {
        let harness = try await Harness()
        defer { Task { await harness.stop() } }
        let project = try await harness.project("inproc")
        #expect(await harness.respond("POST", "/testing/items", json: ["name": "pear"], headers: ["X-Test-Key": project.key]).status == 201)
        #expect(harness.emulator.services.projectCache.count == 1)
        #expect(await harness.respond("GET", "/testing/items", headers: ["X-Test-Key": project.key]).json?["items"] == ["pear"])
        #expect(await harness.respond("GET", "/testing/items", headers: ["X-Test-Key": "tk_nobody"]).status == 401)
        // A control-plane write to the project drops its cached credentials (the index's one rule).
        #expect(await harness.respond("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "frozen"]).status == 200)
        #expect(harness.emulator.services.projectCache.count == 0)
    }
}
