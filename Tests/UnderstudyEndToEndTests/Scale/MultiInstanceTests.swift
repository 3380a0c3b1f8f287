import AsleepEmulator
import Foundation
import TestPostgres
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Two Understudy servers on one PostgreSQL database, as behind a load balancer: whatever one
/// of them is told, the other serves; counters and background work are shared, not doubled.
@Suite("Several instances on one PostgreSQL database", .timeLimit(.minutes(2)))
struct MultiInstanceTests {
    /// Runs `body` with two servers A and B on a fresh database, and stops both afterwards.
    static func withPair<T>(_ body: (UnderstudyTestServer, UnderstudyTestServer) async throws -> T) async throws -> T {
        try await TestPostgres.withDatabase { url in
            let a = try await UnderstudyTestServer.start { $0.databasePath = url }
            let b: UnderstudyTestServer
            do { b = try await UnderstudyTestServer.start { $0.databasePath = url } } catch { await a.stop(); throw error }
            do {
                let result = try await body(a, b)
                await b.stop(); await a.stop()
                return result
            } catch {
                await b.stop(); await a.stop()
                throw error
            }
        }
    }

    /// Milliseconds until `condition` held (checked every 5 ms), or nil when it did not within `seconds`.
    static func millisecondsUntil(within seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try await condition() { return Date().timeIntervalSince(start) * 1000 }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return nil
    }

    @Test("a project made on A is served on B; a credential revoked on A is refused on B")
    func projectsAndCredentials() async throws {
        try await Self.withPair { a, b in
            let project = try await a.makeProject(name: "shared")
            let sdkKey = project.credential("warplink", "sdkKey")
            let served = try await Self.millisecondsUntil { try await b.client.warpLink.validate(apiKey: sdkKey).status == 200 }
            #expect(served != nil, "B never accepted the key of a project made on A")
            let listed = try await Self.millisecondsUntil { (try? await b.client.admin.project(project.id).get())?.id == project.id }
            #expect(listed != nil, "B's control plane never showed a project made on A")
            try await a.client.warpLink.project(project.id).deleteKey(sdkKey)
            let refused = try await Self.millisecondsUntil { try await b.client.warpLink.validate(apiKey: sdkKey).status == 401 }
            #expect(refused != nil, "B still accepts a key revoked on A")
            print(
                "multi-instance: B served A's new project after \(served.map { String(format: "%.1f", $0) } ?? "never") ms "
                    + "(control plane \(listed.map { String(format: "%.1f", $0) } ?? "never") ms), "
                    + "refused A's revoked key after \(refused.map { String(format: "%.1f", $0) } ?? "never") ms")
        }
    }

    @Test("a wait on B sees requests A answered; request ids are unique across A and B")
    func sharedJournal() async throws {
        try await Self.withPair { a, b in
            let project = try await a.makeProject(name: "journal")
            let sdkKey = project.credential("warplink", "sdkKey")
            // B waits for two validations before any was sent; A answers one, B the other.
            async let waited = b.client.admin.project(project.id).waitForRequests(JournalQuery(path: "/v1/sdk/validate"), count: 2, timeoutMs: 10_000)
            #expect(try await Self.millisecondsUntil { b.server.emulator.journal.parkedWaits == 1 } != nil, "B's wait never parked")
            _ = try await a.client.warpLink.validate(apiKey: sdkKey)
            _ = try await b.client.warpLink.validate(apiKey: sdkKey)
            let page = try await waited
            #expect(page.requests.count == 2)
            let all = try await a.client.admin.project(project.id).requests(JournalQuery(limit: 500)).requests.map(\.id)
            #expect(!all.isEmpty && Set(all).count == all.count, "request ids repeat across instances: \(all)")
            // A long poll parked on B (nothing on B journals) wakes for a request only A answered:
            // B's watcher of the shared table, not B's own recorder, has to see it.
            let newest = all.max() ?? 0
            async let polled = b.client.admin.project(project.id).requests(JournalQuery(path: "/v1/sdk/validate", since: newest), waitMs: 10_000)
            #expect(try await Self.millisecondsUntil { b.server.emulator.journal.parkedWaits == 1 } != nil, "B's long poll never parked")
            _ = try await a.client.warpLink.validate(apiKey: sdkKey)
            let polledPage = try await polled
            #expect(polledPage.requests.count == 1 && polledPage.requests.allSatisfy { $0.id > newest }, "B's long poll missed A's request: \(polledPage.requests.map(\.id))")
        }
    }

    @Test("a times: 3 fault fires three times in total across A and B")
    func sharedFaultCounters() async throws {
        try await Self.withPair { a, b in
            let project = try await a.makeProject(name: "faults")
            let sdkKey = project.credential("warplink", "sdkKey")
            let rule = try await a.client.admin.project(project.id).addFault(FaultRule(match: .init(platform: "warplink"), action: .status(503), times: 3))
            // B has the rule once its list shows it (a shared database's list is read afresh).
            #expect(try await Self.millisecondsUntil { (try? await b.client.admin.project(project.id).faults())?.contains { $0.id == rule.id } == true } != nil)
            var statuses: [Int] = []
            for index in 0..<10 {
                let server = index % 2 == 0 ? a : b
                statuses.append(try await server.client.warpLink.validate(apiKey: sdkKey).status)
            }
            #expect(statuses.filter { $0 == 503 }.count == 3, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count == 7, "\(statuses)")
            for server in [a, b] {
                let listed = try await server.client.admin.project(project.id).faults().first { $0.id == rule.id }
                #expect(listed?.hits == 3 && listed?.matched == 10, "\(String(describing: listed))")
            }
        }
    }

    @Test("a session closed through A completes exactly once, with exactly one SESSION_COMPLETE webhook, while both run")
    func backgroundWorkOnce() async throws {
        try await Self.withPair { a, b in
            let project = try await a.makeProject(name: "asleep")
            let fixture = AsleepFixture(server: a, project: project)
            try await WebhookReceiver.with { receiver in
                let (_, session) = try await fixture.trackNight(callbackUrl: receiver.url)
                await receiver.waitFor(2)
                // A second delivery would come from a later round of either instance's delivery loop:
                // wait for five more rounds of each.
                let loops = [a, b].map { $0.server.emulator.services }
                let start = loops.map { $0.backgroundRounds(AsleepWorker.webhooksLoop) }
                let ticked = await eventually(timeout: 30) { zip(loops, start).allSatisfy { $0.backgroundRounds(AsleepWorker.webhooksLoop) >= $1 + 5 } }
                #expect(ticked, "a delivery loop stopped ticking")
                let events = try receiver.requests.map { try JSONDecoder().decode(AnyJSON.self, from: $0.body)["event"]?.string ?? "?" }
                #expect(events.filter { $0 == "SESSION_COMPLETE" }.count == 1, "\(events)")
                #expect(events.filter { $0 == "INFERENCE_COMPLETE" }.count == 1, "\(events)")
                let fromB = try await b.client.asleep.project(project.id).webhooks(sessionId: session)
                #expect(fromB.count == 2 && fromB.allSatisfy { $0["status"]?.string == "delivered" && $0["attempts"]?.int == 1 }, "\(fromB)")
            }
        }
    }
}
