import Foundation
import HTTPServer
import Synchronization
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// A started server with one fresh project and its Asleep API key.
struct AsleepFixture {
    let server: UnderstudyTestServer
    let project: Project
    var apiKey: String { project.credential("asleep", "apiKey") }
    var asleep: AsleepClient { server.client.asleep }
    var admin: AsleepProjectAdmin { server.client.asleep.project(project.id) }
    var projectAdmin: ProjectAdmin { server.client.admin.project(project.id) }

    /// Runs `body` with a fresh fixture and stops its server before returning, also when `body` throws.
    /// The client goes through the server's pipeline in process (`.router`) unless `transport` says `.live`.
    /// Unless `expectingFindings`, the test then fails on any integration-check finding of the
    /// project: every flow these tests drive uses the SDK as its documentation says.
    static func with<T>(
        transport: UnderstudyTestServer.Transport = .router, configure: (inout ServerConfiguration) -> Void = { _ in },
        expectingFindings: Bool = false, _ body: (AsleepFixture) async throws -> T
    ) async throws -> T {
        try await UnderstudyTestServer.with(transport: transport, configure: configure) { server in
            let project = try await server.makeProject(name: "asleep")
            let result = try await body(AsleepFixture(server: server, project: project))
            if !expectingFindings { try await server.expectNoFindings(project: project.id) }
            return result
        }
    }

    /// A whole tracked night with webhooks to `callbackUrl`: freezes the clock, starts a session,
    /// uploads chunks 0–39, stops it and lets 2 s pass so its completion is due.
    func trackNight(callbackUrl: String) async throws -> (config: AsleepConfig, session: String) {
        _ = try await projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
        let config = try await asleep.initAsleepConfig(apiKey: apiKey, callbackUrl: callbackUrl)
        let session = try await asleep.startTracking(config: config)
        try await uploadChunks(config, session: session, 0...39)
        _ = try await asleep.stopTracking(config: config, sessionId: session)
        _ = try await projectAdmin.advanceClock(by: 2)
        return (config, session)
    }

    /// Uploads chunks `range`, advancing the (frozen) project clock 30 s before each.
    func uploadChunks(_ config: AsleepConfig, session: String, _ range: ClosedRange<Int>) async throws {
        for seq in range {
            _ = try await projectAdmin.advanceClock(by: 30)
            let result = try await asleep.uploadChunk(config: config, sessionId: session, seqNum: seq, chunk: AsleepClient.melChunk())
            #expect(result.seqNum == seq)
        }
    }
}

/// A local HTTP server that records every request it receives (the webhook receiver).
final class WebhookReceiver: Sendable {
    private let server: HTTPServer
    private let received = Mutex<[Request]>([])
    private let waiters = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])
    let port: Int

    /// Starts a receiver answering `statuses` in order (then 200).
    init(statuses: [Int] = []) throws {
        let answers = Mutex(statuses)
        let box = Mutex<WebhookReceiver?>(nil)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0),
            application: ClosureApplication { request in
                box.withLock { $0 }?.record(request)
                let status = answers.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
                return Response(status: status, body: Data("{}".utf8))
            })
        self.server = server
        self.port = try server.start()
        box.withLock { $0 = self }
    }

    /// Runs `body` with a started receiver and stops it before returning, also when `body` throws.
    static func with<T>(statuses: [Int] = [], _ body: (WebhookReceiver) async throws -> T) async throws -> T {
        let receiver = try WebhookReceiver(statuses: statuses)
        let result: T
        do {
            result = try await body(receiver)
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
        return result
    }

    var url: String { "http://127.0.0.1:\(port)/hooks/asleep" }

    private func record(_ request: Request) {
        let count = received.withLock { all in
            all.append(request); return all.count
        }
        let ready = waiters.withLock { all -> [CheckedContinuation<Void, Never>] in
            let done = all.filter { $0.count <= count }.map(\.continuation)
            all.removeAll { $0.count <= count }
            return done
        }
        for continuation in ready { continuation.resume() }
    }

    /// Every request so far.
    var requests: [Request] { received.withLock { $0 } }

    /// Waits until at least `count` requests arrived (bounded by the test's own time limit).
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let already = received.withLock { $0.count >= count }
            if already { continuation.resume() } else { waiters.withLock { $0.append((count, continuation)) } }
        }
    }

    func stop() async { await server.shutdown(gracePeriod: 1) }
}

/// Parses a data-API timestamp (`2025-01-15T11:50:29+09:00`).
func asleepDate(_ text: String?) -> Date? {
    guard let text else { return nil }
    return try? Date.ISO8601FormatStyle().parse(text)
}
