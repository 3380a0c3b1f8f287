import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Control plane")
struct ControlPlaneTests {
    @Test("two projects never see each other's state or journal")
    func isolation() async throws {
        let harness = try await Harness()
        let a = try await harness.project("a"), b = try await harness.project("b")
        #expect(try await harness.call("POST", "/testing/items", json: ["name": "apple"], headers: ["X-Test-Key": a.key]).status == 201)
        #expect(try await harness.call("POST", "/testing/items", json: ["name": "banana"], headers: ["X-Test-Key": b.key]).status == 201)
        let listA = try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": a.key]).json
        #expect(listA?["items"] == ["apple"])
        let listB = try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": b.key]).json
        #expect(listB?["items"] == ["banana"])
        let journalA = try await harness.call("GET", "/__admin/projects/\(a.id)/requests").json
        let paths = journalA?["requests"]?.arrayValue?.compactMap { $0["projectID"]?.stringValue } ?? []
        #expect(!paths.isEmpty && paths.allSatisfy { $0 == a.id })
        #expect(try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": "tk_unknown"]).status == 401)
        await harness.stop()
    }

    @Test("status faults use the platform's error format, honour `times`, `after` and Retry-After")
    func statusFaults() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let rule: JSONValue = [
            "match": ["platform": "testing", "method": "GET", "path": "/items"],
            "action": ["type": "status", "status": 503, "retryAfter": 7], "times": 2, "after": 1,
        ]
        let created = try await harness.call("POST", "/__admin/projects/\(project.id)/faults", json: rule)
        #expect(created.status == 201)
        var statuses: [Int] = []
        for _ in 0..<4 {
            let reply = try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": project.key])
            statuses.append(reply.status)
            if reply.status == 503 {
                #expect(reply.json?["error"]?["code"] == "E503")
                #expect(reply.headers["retry-after"] == "7")
            }
        }
        #expect(statuses == [200, 503, 503, 200])
        let listed = try await harness.call("GET", "/__admin/projects/\(project.id)/faults").json
        #expect(listed?["rules"]?[0]?["hits"]?.intValue == 2 && listed?["rules"]?[0]?["matched"]?.intValue == 4)
        // The journal says which requests were faulted.
        let journal = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?path=/testing/items&status=503").json
        #expect(journal?["requests"]?.arrayValue?.count == 2)
        #expect(journal?["requests"]?[0]?["fault"]?.stringValue?.hasPrefix("rule flt_") == true)
        await harness.stop()
    }

    @Test("faults are per project: another project's traffic is untouched; the control plane never faults")
    func scoping() async throws {
        let harness = try await Harness()
        let a = try await harness.project("a"), b = try await harness.project("b")
        _ = try await harness.call("POST", "/__admin/projects/\(a.id)/faults", json: ["match": [:], "action": ["type": "status", "status": 500]])
        #expect(try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": a.key]).status == 500)
        #expect(try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": b.key]).status == 200)
        #expect(try await harness.call("GET", "/__admin/projects/\(a.id)").status == 200)
        _ = try await harness.call("POST", "/__admin/faults", json: ["match": ["method": "POST"], "action": ["type": "status", "status": 429]])
        #expect(try await harness.call("POST", "/testing/items", json: ["name": "x"], headers: ["X-Test-Key": b.key]).status == 429)
        #expect(try await harness.call("DELETE", "/__admin/faults").status == 204)
        #expect(try await harness.call("POST", "/testing/items", json: ["name": "x"], headers: ["X-Test-Key": b.key]).status == 201)
        await harness.stop()
    }

    @Test("connection faults are real at the socket: reset, hang, close after headers, truncate, malformed JSON, delay")
    func connectionFaults() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let key = ["X-Test-Key": project.key]
        await #expect(throws: URLError.self, "a reset must surface as a network error") {
            _ = try await harness.call("GET", "/testing/items", headers: key.merging(["X-Understudy-Fault": "reset"]) { $1 })
        }
        // A body cut short is a network error to some clients and a short, undecodable body to others
        // (FoundationNetworking hands back what arrived); either way the client never gets the document.
        for fault in ["closeAfterHeaders", "truncate=5"] {
            do {
                let reply = try await harness.call("GET", "/testing/items", headers: key.merging(["X-Understudy-Fault": fault]) { $1 })
                #expect((try? JSONSerialization.jsonObject(with: reply.body)) == nil, "\(fault) delivered a whole document")
                #expect(reply.body.count < Int(reply.headers["content-length"] ?? "0") ?? 0)
            } catch is URLError {
                // Also acceptable: the client noticed the missing bytes.
            }
        }
        let started = Date()
        await #expect(throws: URLError.self, "hang must surface as a timeout") {
            _ = try await harness.call("GET", "/testing/items", headers: key.merging(["X-Understudy-Fault": "hang=30"]) { $1 }, timeout: 1)
        }
        #expect(Date().timeIntervalSince(started) >= 0.9)

        let malformed = try await harness.call("GET", "/testing/items", headers: key.merging(["X-Understudy-Fault": "malformedJSON"]) { $1 })
        #expect(malformed.status == 200)
        #expect((try? JSONSerialization.jsonObject(with: malformed.body)) == nil)

        let delayStart = Date()
        let delayed = try await harness.call("GET", "/testing/items", headers: key.merging(["X-Understudy-Fault": "delay=300"]) { $1 })
        #expect(delayed.status == 200 && Date().timeIntervalSince(delayStart) >= 0.3)

        // Rule-driven, not header-driven. No `times` limit: a client may transparently retry an
        // idempotent GET whose reused connection was reset, and the retry must fail too.
        let resetRule: JSONValue = ["match": ["path": "/testing/items"], "action": ["type": "reset"]]
        let rule = try await harness.call("POST", "/__admin/projects/\(project.id)/faults", json: resetRule).json
        await #expect(throws: URLError.self) { _ = try await harness.call("GET", "/testing/items", headers: key) }
        let ruleID = rule?["id"]?.stringValue ?? ""
        #expect(try await harness.call("DELETE", "/__admin/projects/\(project.id)/faults/\(ruleID)").status == 204)
        #expect(try await harness.call("GET", "/testing/items", headers: key).status == 200)
        let journal = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?limit=50").json
        #expect(journal?["requests"]?.arrayValue?.contains { $0["fault"]?.stringValue == "header: hang" && $0["status"]?.intValue == 0 } == true)
        await harness.stop()
    }

    @Test("invalid fault rules are 400s naming the problem")
    func invalidRules() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        for body: JSONValue in [
            ["match": [:], "action": ["type": "explode"]], ["match": [:], "action": ["type": "status", "status": 999]],
            ["match": ["platform": "nope"], "action": ["type": "reset"]], ["match": [:], "action": ["type": "reset"], "probability": 2],
            ["action": ["type": "reset"]], ["match": [:], "action": ["type": "reset"], "typo": 1],
        ] {
            let reply = try await harness.call("POST", "/__admin/projects/\(project.id)/faults", json: body)
            #expect(reply.status == 400, "\(body)")
            #expect(reply.json?["error"]?["message"]?.stringValue?.isEmpty == false)
        }
        #expect(try await harness.call("DELETE", "/__admin/projects/\(project.id)/faults/flt_missing").status == 404)
        await harness.stop()
    }

    @Test("frozen and advanced clocks drive time-based behaviour without sleeping")
    func clock() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let frozen = try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "frozen", "now": "2030-01-02T03:04:05Z"])
        #expect(frozen.json?["now"] == "2030-01-02T03:04:05.000Z")
        let first = try await harness.call("POST", "/testing/items", json: ["name": "a"], headers: ["X-Test-Key": project.key]).json
        #expect(first?["createdAt"] == "2030-01-02T03:04:05.000Z")
        _ = try await harness.call("POST", "/__admin/projects/\(project.id)/clock/advance", json: ["seconds": 3600])
        let second = try await harness.call("POST", "/testing/items", json: ["name": "b"], headers: ["X-Test-Key": project.key]).json
        #expect(second?["createdAt"] == "2030-01-02T04:04:05.000Z")
        let offset = try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "offset", "offsetSeconds": -86400]).json
        let now = Timestamp.parse(offset?["now"]?.stringValue ?? "")
        #expect(now.map { abs($0.timeIntervalSinceNow + 86400) < 5 } == true)
        #expect(try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "frozen", "now": "yesterday"]).status == 400)
        #expect(try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "sideways"]).status == 400)
        await harness.stop()
    }

    @Test("journal wait returns as soon as the request arrives, and 408 with what it saw otherwise")
    func journalWait() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let waiter = Task {
            try await harness.call(
                "POST", "/__admin/projects/\(project.id)/requests/wait",
                json: ["method": "POST", "path": "/testing/items", "count": 1, "timeoutMs": 10000])
        }
        _ = try await harness.call("POST", "/testing/items", json: ["name": "late"], headers: ["X-Test-Key": project.key])
        let reply = try await waiter.value
        // 200 (not 408) means the wait ended because the request arrived, not because time ran out.
        #expect(reply.status == 200)
        let entry = reply.json?["requests"]?[0]
        #expect(entry?["route"] == "/testing/items" && entry?["status"]?.intValue == 201)
        #expect(entry?["requestBody"]?.stringValue?.contains("late") == true)
        #expect(entry?["requestHeaders"]?["x-test-key"]?.stringValue == nil || entry?["requestHeaders"]?["x-test-key"]?.stringValue == project.key)
        let timeout = try await harness.call("POST", "/__admin/projects/\(project.id)/requests/wait", json: ["method": "DELETE", "count": 1, "timeoutMs": 100])
        #expect(timeout.status == 408)
        #expect(timeout.json?["error"]?["details"]?["requests"]?.arrayValue?.isEmpty == true)
        await harness.stop()
    }

    @Test("the journal as HAR 1.2: oldest first, URLs, query, bodies and headers, the listing's filters; reading it is not journalled")
    func harArchive() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        _ = try await harness.call("POST", "/testing/items", json: ["name": "first"], headers: ["X-Test-Key": project.key])
        _ = try await harness.call("GET", "/testing/items?n=1&q=a%20b", headers: ["X-Test-Key": project.key])
        let reply = try await harness.call("GET", "/__admin/projects/\(project.id)/requests.har?platform=testing")
        #expect(reply.status == 200 && reply.headers["content-disposition"]?.contains(".har") == true)
        let log = reply.json?["log"]
        #expect(log?["version"] == "1.2" && log?["creator"]?["name"] == "Understudy")
        let entries = log?["entries"]?.arrayValue ?? []
        #expect(entries.count == 2)
        let post = entries.first, get = entries.last
        #expect(post?["request"]?["method"] == "POST" && get?["request"]?["method"] == "GET", "oldest first")
        #expect(post?["request"]?["url"]?.stringValue?.hasSuffix("/testing/items") == true)
        #expect(post?["request"]?["postData"]?["text"]?.stringValue?.contains("first") == true)
        #expect(post?["response"]?["status"]?.intValue == 201 && post?["response"]?["content"]?["text"]?.stringValue?.contains("first") == true)
        #expect(get?["request"]?["queryString"] == [["name": "n", "value": "1"], ["name": "q", "value": "a b"]])
        // A request to a host the platform answers by name carried no prefix: the URL is what it sent.
        _ = try await harness.call("GET", "/items", headers: ["X-Test-Key": project.key, "Host": "api.test.example"])
        let byHost = try await harness.call("GET", "/__admin/projects/\(project.id)/requests.har?method=GET").json?["log"]?["entries"]?.arrayValue?.last
        #expect(byHost?["request"]?["url"]?.stringValue == "http://api.test.example/items", "\(String(describing: byHost?["request"]?["url"]))")
        let headerNames = get?["request"]?["headers"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(headerNames.contains("x-test-key"))
        // The archive takes the listing's filters; a misspelled platform is a 400, waitMs is the listing's.
        let posts = try await harness.call("GET", "/__admin/projects/\(project.id)/requests.har?method=POST").json
        #expect(posts?["log"]?["entries"]?.arrayValue?.count == 1)
        #expect(try await harness.call("GET", "/__admin/projects/\(project.id)/requests.har?platform=testng").status == 400)
        #expect(try await harness.call("GET", "/__admin/projects/\(project.id)/requests.har?after=0&waitMs=10").status == 400)
        let listed = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?limit=100").json
        #expect(listed?["requests"]?.arrayValue?.contains { $0["route"] == "/__admin/projects/{id}/requests.har" } == false, "reading the archive was journalled")
        await harness.stop()
    }

    @Test("the journal is bounded and says how much it evicted; secrets are redacted")
    func eviction() async throws {
        let harness = try await Harness(journal: JournalLimits(maxEntries: 5))
        let project = try await harness.project()
        for index in 0..<9 {
            _ = try await harness.call("GET", "/testing/items?n=\(index)", headers: ["X-Test-Key": project.key, "Authorization": "Bearer secret-token-1234"])
        }
        let page = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?limit=100").json
        let entries = page?["requests"]?.arrayValue ?? []
        #expect(entries.count <= 5)
        #expect((page?["evicted"]?.intValue ?? 0) >= 4)
        #expect(entries.first?["query"] == "n=8") // newest first
        #expect(entries.first?["requestHeaders"]?["authorization"] == "Bearer [redacted …1234]")
        await harness.stop()
    }

    @Test("the byte bound evicts too, oldest first")
    func byteBound() async throws {
        let harness = try await Harness(journal: JournalLimits(maxEntries: 10_000, maxBytes: 8_000, bodyCaptureBytes: 1_000))
        let project = try await harness.project()
        let body = String(repeating: "x", count: 900)
        for index in 0..<20 {
            _ = try await harness.call("POST", "/testing/items", json: ["name": .string("\(index)-\(body)")], headers: ["X-Test-Key": project.key])
        }
        let page = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?limit=1000&method=POST").json
        let entries = page?["requests"]?.arrayValue ?? []
        #expect(!entries.isEmpty && entries.count < 20)
        #expect((page?["evicted"]?.intValue ?? 0) >= 20 - entries.count)
        // What is left is the newest.
        #expect(entries.first?["requestBody"]?.stringValue?.contains("19-") == true)
        await harness.stop()
    }

    @Test("snapshots restore state and clock atomically; unknown ones are 404")
    func snapshots() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let key = ["X-Test-Key": project.key]
        _ = try await harness.call("POST", "/testing/items", json: ["name": "kept"], headers: key)
        _ = try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "frozen", "now": "2031-05-05T00:00:00Z"])
        let saved = try await harness.call("POST", "/__admin/projects/\(project.id)/snapshots", json: ["name": "base"])
        #expect(saved.status == 201 && saved.json?["rows"]?.intValue == 1)
        _ = try await harness.call("POST", "/testing/items", json: ["name": "dropped"], headers: key)
        _ = try await harness.call("PUT", "/__admin/projects/\(project.id)/clock", json: ["mode": "real"])
        #expect(try await harness.call("POST", "/__admin/projects/\(project.id)/snapshots/base/restore").status == 200)
        #expect(try await harness.call("GET", "/testing/items", headers: key).json?["items"] == ["kept"])
        #expect(try await harness.call("GET", "/__admin/projects/\(project.id)/clock").json?["mode"] == "frozen")
        #expect(try await harness.call("GET", "/__admin/projects/\(project.id)/snapshots").json?["snapshots"]?.arrayValue?.count == 1)
        #expect(try await harness.call("POST", "/__admin/projects/\(project.id)/snapshots/nope/restore").status == 404)
        #expect(try await harness.call("DELETE", "/__admin/projects/\(project.id)/snapshots/base").status == 204)
        #expect(try await harness.call("DELETE", "/__admin/projects/\(project.id)/snapshots/base").status == 404)
        await harness.stop()
    }

    @Test("reset clears state, journal and faults but keeps the credentials")
    func reset() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let key = ["X-Test-Key": project.key]
        _ = try await harness.call("POST", "/testing/items", json: ["name": "gone"], headers: key)
        _ = try await harness.call("POST", "/__admin/projects/\(project.id)/faults", json: ["match": ["method": "DELETE"], "action": ["type": "reset"]])
        #expect(try await harness.call("POST", "/__admin/projects/\(project.id)/reset").status == 200)
        #expect(try await harness.call("GET", "/testing/items", headers: key).json?["items"] == [])
        #expect(try await harness.call("GET", "/__admin/projects/\(project.id)/faults").json?["rules"] == [])
        await harness.stop()
    }

    @Test("unknown projects and routes are 404 JSON; bad bodies are 400 JSON; platform 404/405 use the platform's format")
    func errors() async throws {
        let harness = try await Harness()
        for path in ["/__admin/projects/prj_none", "/__admin/projects/prj_none/requests", "/__admin/nothing"] {
            let reply = try await harness.call("GET", path)
            #expect(reply.status == 404 && reply.json?["error"]?["code"] == "not_found", "\(path)")
        }
        let bad = try await harness.call("POST", "/__admin/projects", body: Data("{\"name\": ".utf8))
        #expect(bad.status == 400 && bad.json?["error"]?["code"] == "invalid_json")
        let wrongType = try await harness.call("POST", "/__admin/projects", json: ["name": 5])
        #expect(wrongType.status == 400 && wrongType.json?["error"]?["code"] == "wrong_type")
        let missing = try await harness.call("GET", "/testing/none")
        #expect(missing.status == 404 && missing.json?["error"]?["code"] == "E404")
        let method = try await harness.call("DELETE", "/testing/items")
        #expect(method.status == 405 && method.headers["allow"] == "GET, HEAD, POST")
        let project = try await harness.project()
        let badItem = try await harness.call("POST", "/testing/items", body: Data("[1,".utf8), headers: ["X-Test-Key": project.key])
        #expect(badItem.status == 400 && badItem.json?["error"]?["code"] == "E400")
        // A rejected body changed nothing.
        #expect(try await harness.call("GET", "/testing/items", headers: ["X-Test-Key": project.key]).json?["items"] == [])
        // Headers too large to read still get the platform's format: the request line names the path.
        let huge = try await harness.call("GET", "/testing/items", headers: ["X-Huge": String(repeating: "h", count: 20_000)])
        #expect(huge.status == 431 && huge.json?["error"]?["code"] == "E431")
        // Host routing reaches the platform without its prefix.
        let hosted = try await harness.call("GET", "/items", headers: ["X-Test-Key": project.key, "Host": "api.test.example"])
        #expect(hosted.status == 200)
        await harness.stop()
    }

    @Test("with an admin token, the control plane refuses requests without it (health stays open)")
    func adminToken() async throws {
        let harness = try await Harness(adminToken: "s3cret")
        #expect(try await harness.call("GET", "/__admin/projects").status == 401)
        #expect(try await harness.call("GET", "/__admin/projects", headers: ["X-Understudy-Admin-Token": "wrong"]).status == 401)
        #expect(try await harness.call("GET", "/__admin/projects", headers: ["Authorization": "Bearer s3cret"]).status == 200)
        #expect(try await harness.call("GET", "/__admin/health").status == 200)
        // The OpenAPI documents hold no secrets and browser tools fetch them without credentials.
        #expect(try await harness.call("GET", "/__admin/openapi.json").status == 200)
        #expect(try await harness.call("OPTIONS", "/__admin/openapi/testing.json").status == 204)
        await harness.stop()
    }
}

@Suite("Fault engine")
struct FaultEngineTests {
    @Test("rules expire after their TTL (on an injected clock) and seeded probability is repeatable")
    func ttlAndProbability() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try migrator.migrate($0) }
        let clock = TestClock()
        let engine = FaultEngine(database: database, now: { clock.now })
        _ = try await engine.add(FaultRule(match: .init(), action: FaultAction(.reset), ttlSeconds: 30), project: nil, id: "flt_ttl")
        #expect(engine.fire(platform: .testing, project: nil, method: .get, path: "/testing/x", headers: [:])?.id == "flt_ttl")
        clock.advance(31)
        #expect(engine.fire(platform: .testing, project: nil, method: .get, path: "/testing/x", headers: [:]) == nil)
        #expect(try await engine.list(project: nil).isEmpty)

        func pattern() async throws -> [Bool] {
            let engine = FaultEngine(database: database, now: { clock.now })
            _ = try await engine.add(FaultRule(match: .init(), action: FaultAction(.reset), probability: 0.5, seed: 7), project: nil, id: UUID().uuidString)
            return (0..<40).map { _ in engine.fire(platform: .testing, project: nil, method: .get, path: "/", headers: [:]) != nil }
        }
        let first = try await pattern(), second = try await pattern()
        #expect(first == second)
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("hit counters survive a restart: a spent `times` rule stays spent, `after` keeps counting")
    func countersSurviveRestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try migrator.migrate($0) }
        let first = FaultEngine(database: database)
        _ = try await first.add(FaultRule(match: .init(), action: FaultAction(.reset), times: 2), project: nil, id: "flt_times")
        _ = try await first.add(FaultRule(match: .init(path: "/testing/late"), action: FaultAction(.reset), after: 2), project: nil, id: "flt_after")
        for _ in 0..<2 {
            #expect(first.fire(platform: .testing, project: nil, method: .get, path: "/testing/x", headers: [:])?.id == "flt_times")
            try await first.persistCounters()
        }
        #expect(first.fire(platform: .testing, project: nil, method: .get, path: "/testing/late", headers: [:]) == nil) // after: 1 of 2 let through
        try await first.persistCounters()

        let restarted = FaultEngine(database: database)
        try await restarted.load()
        #expect(restarted.fire(platform: .testing, project: nil, method: .get, path: "/testing/x", headers: [:]) == nil)
        #expect(restarted.fire(platform: .testing, project: nil, method: .get, path: "/testing/late", headers: [:]) == nil) // 2 of 2 let through
        #expect(restarted.fire(platform: .testing, project: nil, method: .get, path: "/testing/late", headers: [:])?.id == "flt_after")
        #expect(try await restarted.list(project: nil).first { $0.id == "flt_times" }?.hits == 2)
    }

    @Test("path globs: `*` stays in a segment, `**` crosses segments; header matches are exact")
    func matching() {
        let match = FaultRule.Match(platform: "testing", method: "post", path: "/ai/v1/sessions/*/upload", headers: ["X-A": "1"])
        #expect(FaultEngine.matchesForTesting(match, platform: .testing, path: "/testing/ai/v1/sessions/abc/upload", headers: ["x-a": "1"]))
        #expect(!FaultEngine.matchesForTesting(match, platform: .testing, path: "/testing/ai/v1/sessions/a/b/upload", headers: ["x-a": "1"]))
        #expect(!FaultEngine.matchesForTesting(match, platform: .testing, path: "/testing/ai/v1/sessions/abc/upload", headers: ["x-a": "2"]))
        let deep = FaultRule.Match(path: "/testing/**")
        #expect(FaultEngine.matchesForTesting(deep, platform: .testing, path: "/testing/ai/v1/sessions/a/b/upload", headers: [:]))
    }

    @Test("the override header's short syntax")
    func header() {
        #expect(FaultEngine.parseHeader("status=429;retryAfter=3") == FaultAction(.status(429, body: nil), retryAfter: 3))
        #expect(FaultEngine.parseHeader("hang=2.5")?.kind == .hang(milliseconds: 2500))
        #expect(FaultEngine.parseHeader("truncate=10")?.kind == .truncate(bytes: 10))
        #expect(FaultEngine.parseHeader("explode") == nil)
        #expect(FaultEngine.parseHeader("status=1000") == nil)
        #expect(FaultEngine.parseHeader("status") == FaultAction(.status(500, body: nil), retryAfter: nil))
        #expect(FaultEngine.parseHeader("hang")?.kind == .hang(milliseconds: FaultAction.defaultHangMilliseconds))
    }

    @Test("a misspelled fault header is the platform's 400 naming the key, changes nothing and is journalled")
    func misspelledHeaderAnswered() async throws {
        let harness = try await Harness()
        let project = try await harness.project()
        let key = ["X-Test-Key": project.key]
        let reply = try await harness.call("POST", "/testing/items", json: ["name": "kept out"], headers: key.merging(["X-Understudy-Fault": "stauts=503"]) { $1 })
        #expect(reply.status == 400)
        #expect(reply.json?["error"]?["code"] != nil, "the platform's own error format")
        #expect(String(decoding: reply.body, as: UTF8.self).contains("stauts"))
        let items = try await harness.call("GET", "/testing/items", headers: key).json
        #expect(items?["items"]?.arrayValue?.isEmpty == true, "the refused request created nothing")
        let journal = try await harness.call("GET", "/__admin/projects/\(project.id)/requests?path=/testing/items&status=400").json
        #expect(journal?["requests"]?.arrayValue?.count == 1)
        await harness.stop()
    }

    @Test("a misspelled or malformed override header says what is wrong, naming the key")
    func headerProblems() {
        func message(_ text: String) -> String? {
            guard case .failure(let problem) = FaultEngine.readHeader(text) else { return nil }
            return problem.message
        }
        #expect(message("stauts=503")?.contains("unknown key `stauts`") == true)
        #expect(message("status=abc")?.contains("`status` takes a whole number") == true)
        #expect(message("delay=soon")?.contains("`delay`") == true)
        #expect(message("hang=forever")?.contains("`hang`") == true)
        #expect(message("status=503;retryAfter")?.contains("`retryAfter`") == true)
        #expect(message(";")?.contains("no fault named") == true)
        #expect(message("status=1000") != nil)
        #expect(message("status=503 ; retryAfter=2") == nil)
    }
}

final class TestClock: @unchecked Sendable { // guarded by `lock`
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 2_000_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: Double) { lock.withLock { current.addTimeInterval(seconds) } }
}
