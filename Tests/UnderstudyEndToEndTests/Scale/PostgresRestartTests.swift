import Foundation
import Synchronization
import TestPostgres
import TestProcesses
import Testing
import UnderstudyClient
import UnderstudyTesting

/// PostgreSQL restarting under load, on a cluster of this test's own (the shared test cluster
/// cannot be stopped under the other tests): requests in flight fail with 503, never 500, the
/// server reconnects by itself, and every write it acknowledged is still there afterwards.
@Suite("PostgreSQL restarting under load", .timeLimit(.minutes(2)))
struct PostgresRestartTests {
    /// A private cluster started by `.ci/postgres.sh`, stopped when the test ends.
    struct Cluster {
        let url: String
        let directory: String
        static let script = TestPostgres.repository.appendingPathComponent(".ci/postgres.sh").path

        static func start() async throws -> Cluster {
            let started = try await ChildProcess.running("/bin/bash", [script, "start", "--watch", String(getpid())], environment: ProcessInfo.processInfo.environment)
            guard started.status == 0 else { throw TestPostgres.Unavailable(description: "postgres.sh start failed: \(started.error)") }
            func exported(_ name: String) -> String? {
                started.standard.split(separator: "\n").first { $0.hasPrefix("export \(name)=") }.map { String($0.dropFirst("export \(name)=".count)) }
            }
            guard let url = exported("UNDERSTUDY_TEST_POSTGRES_URL"), let directory = exported("UNDERSTUDY_TEST_POSTGRES_DIR") else {
                throw TestPostgres.Unavailable(description: "postgres.sh printed no URL: \(started.standard)")
            }
            return Cluster(url: url, directory: directory)
        }

        /// Stops the cluster, waiting on the calling thread (a `defer` cannot await; stopping is brief).
        func stop() throws -> ChildProcess {
            try ChildProcess.run("/bin/bash", [Self.script, "stop", directory], environment: ProcessInfo.processInfo.environment)
        }

        func run(_ command: String) async throws -> ChildProcess {
            try await ChildProcess.running("/bin/bash", [Self.script, command, directory], environment: ProcessInfo.processInfo.environment)
        }
    }

    /// What the load saw.
    actor Tally {
        var acknowledged: [String] = []
        var unavailable = 0
        var unexpected: [String] = []
        var lastUnavailable: Date?
        var firstSuccessAfterOutage: Date?
        var outageStarted: Date?

        func record(status: Int, body: Data, at time: Date) {
            switch status {
            case 201:
                if let id = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? String { acknowledged.append(id) }
                if outageStarted != nil, lastUnavailable != nil, firstSuccessAfterOutage == nil { firstSuccessAfterOutage = time }
            case 503: unavailable += 1; lastUnavailable = time
            default: unexpected.append("\(status) \(String(decoding: body.prefix(200), as: UTF8.self))")
            }
        }

        func outage(at time: Date) { outageStarted = time }
    }

    /// Whether `condition` came to hold within 60 s (polled every 10 ms).
    static func until(_ condition: () async -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if await condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return await condition()
    }

    @Test("a restart under load: 503s in the platform's format while it is down, reconnection by itself, no acknowledged write lost")
    func restartUnderLoad() async throws {
        let cluster = try await Cluster.start()
        defer { _ = try? cluster.stop() }
        let database = String(cluster.url.dropLast("postgres".count)) + "postgres"
        try await UnderstudyTestServer.with(configure: { $0.databasePath = database }) { server in
            // Made before the outage and not used yet, so its key is looked up in the database.
            let sdkKey = try await server.makeProject(name: "sdk").credential("warplink", "sdkKey")
            let tally = Tally()
            let running = ManagedFlag()
            let writers = (0..<4).map { writer in
                Task {
                    var index = 0
                    while running.isSet {
                        index += 1
                        let body = Data(#"{"name": "load-\#(writer)-\#(index)"}"#.utf8)
                        if let response = try? await server.client.admin.raw(ClientRequest(method: "POST", path: "/__admin/projects", body: body)) {
                            await tally.record(status: response.status, body: response.body, at: Date())
                        }
                        try? await Task.sleep(nanoseconds: 5_000_000)
                    }
                }
            }
            // The load runs until it has been acknowledged, during the outage until it met it, and
            // after the restart until it is acknowledged again: events, not durations.
            #expect(await Self.until { await tally.acknowledged.count >= 20 }, "the load was never acknowledged")
            await tally.outage(at: Date())
            let halted = try await cluster.run("halt")
            #expect(halted.status == 0, "\(halted.error)")
            // While it is down, an SDK route answers 503 in that platform's own format too.
            let sdk = try await server.client.admin.raw(ClientRequest(method: "GET", path: "/warplink/v1/sdk/validate", headers: ["Authorization": "Bearer " + sdkKey]))
            #expect(sdk.status == 503, "\(sdk.status) \(String(decoding: sdk.body, as: UTF8.self))")
            #expect(String(decoding: sdk.body, as: UTF8.self).contains("\"code\":\"INTERNAL_ERROR\""))
            #expect(await Self.until { await tally.unavailable >= 4 }, "the load never met the outage")
            let restarting = Date()
            let resumed = try await cluster.run("resume")
            #expect(resumed.status == 0, "\(resumed.error)")
            let before = await tally.acknowledged.count
            #expect(await Self.until { await tally.acknowledged.count >= before + 20 }, "the load was not acknowledged after the restart")
            running.clear()
            for writer in writers { await writer.value }

            let acknowledged = await tally.acknowledged, unexpected = await tally.unexpected, unavailable = await tally.unavailable
            #expect(unexpected.isEmpty, "\(unexpected.prefix(5))")
            #expect(unavailable > 0, "no request met the outage")
            let recovered = await tally.firstSuccessAfterOutage
            #expect(recovered != nil, "no write succeeded after PostgreSQL came back")
            // Every acknowledged project is in the database.
            let listed = try await server.client.admin.projects().map(\.id)
            let lost = Set(acknowledged).subtracting(listed)
            #expect(lost.isEmpty, "lost \(lost.count) of \(acknowledged.count) acknowledged writes")
            print(
                "postgres restart: \(acknowledged.count) acknowledged writes, \(lost.count) lost, \(unavailable) answered 503, "
                    + "first write acknowledged \(recovered.map { String(format: "%.0f", $0.timeIntervalSince(restarting) * 1000) } ?? "never") ms after the restart began")
        }
    }
}

/// A flag the load tasks poll.
final class ManagedFlag: Sendable {
    private let value = Mutex(true)
    var isSet: Bool { value.withLock { $0 } }
    func clear() { value.withLock { $0 = false } }
}
