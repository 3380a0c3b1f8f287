import Foundation
import HTTPServer
import TestProcesses

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the tests that run the built `understudy` binary share: a port for it, and its start.
enum SpawnedServer {
    /// A port that was free a moment ago (bound on port 0, then released).
    static func freePort() async throws -> Int {
        let probe = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), application: ClosureApplication { _ in .empty(204) })
        let port = try probe.start()
        await probe.shutdown(gracePeriod: 0)
        return port
    }

    /// Whether the server on `port` answered `/__admin/ready` before `process` ended or a minute
    /// passed. Under a full parallel test run a debug server once took more than 20 s: each
    /// attempt is short, so one stuck attempt cannot use the minute up.
    static func waitUntilReady(port: Int, process: SpawnedProcess) async throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        var probe = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/__admin/ready")!)
        probe.timeoutInterval = 2
        // A session of its own: URLSession.shared limits connections per host, and other tests'
        // long polls and held connections to 127.0.0.1 once queued every probe for the whole minute.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        while process.isRunning && Date() < deadline {
            if let (_, response) = try? await session.data(for: probe), (response as? HTTPURLResponse)?.statusCode == 200 { return true }
            try await Task.sleep(nanoseconds: 50_000_000) // waiting for another process to start; no clock to drive
        }
        return false
    }
}
