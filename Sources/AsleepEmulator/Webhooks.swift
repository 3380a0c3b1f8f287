import EmulatorCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SQLiteStore

/// Background work: applies due session transitions on each project's clock (so COMPLETE and its
/// SESSION_COMPLETE webhook happen without anyone polling) and delivers queued webhooks with a
/// bounded number of attempts, recording each attempt in the outbox.
enum AsleepWorker {
    /// Holds the services weakly, so the loops end once the server that owns them is gone.
    final class WeakServices: @unchecked Sendable {
        // Written once at creation; only read afterwards.
        weak var value: EmulatorServices?
        init(_ value: EmulatorServices) { self.value = value }
    }

    /// Starts both loops.
    static func start(services: EmulatorServices, defaults: AsleepSettings) {
        let box = WeakServices(services)
        Task.detached {
            while true {
                try? await Task.sleep(nanoseconds: 200_000_000)
                guard let services = live(box) else { return }
                await advanceAll(services: services, defaults: defaults)
            }
        }
        Task.detached {
            while true {
                try? await Task.sleep(nanoseconds: 200_000_000)
                guard let services = live(box) else { return }
                await deliverDue(services: services)
            }
        }
    }

    /// The services while their server lives: not yet released, and (for file databases) the
    /// database file still there — test servers delete theirs when they stop.
    static func live(_ box: WeakServices) -> EmulatorServices? {
        guard let services = box.value else { return nil }
        let path = services.database.path
        if !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"), !FileManager.default.fileExists(atPath: path) { return nil }
        return services
    }

    /// Runs the due transitions of every project with live sessions.
    static func advanceAll(services: EmulatorServices, defaults: AsleepSettings) async {
        guard let projects = try? await services.database.read({ connection in
            try connection.query("SELECT DISTINCT project_id FROM asleep_sessions WHERE state IN ('OPEN', 'CLOSED')").compactMap { $0.string("project_id") }
        }) else { return }
        for project in projects {
            let now = services.now(for: project)
            // Check on a reader first: most ticks find nothing due and must not take the writer.
            let due = (try? await services.database.read { connection in
                try AsleepService.hasDueTransitions(connection, project: project, now: now,
                                                    settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)))
            }) ?? false
            guard due else { continue }
            _ = try? await services.database.write { connection in
                let service = AsleepService(connection: connection, now: now, defaults: defaults) { draw in
                    services.generateIDs(for: project) { generator in
                        switch draw {
                        case .alphanumeric(let count): return generator.alphanumeric(count)
                        case .lowerAlphanumeric(let count): return generator.lowerAlphanumeric(count)
                        case .uuid: return generator.uuid()
                        }
                    }
                }
                try service.advance(project: project, settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)))
            }
        }
    }

    struct Pending: Sendable {
        var id: String
        var project: String
        var outboxID: Int
        var url: String
        var apiKey: String?
        var userID: String
        var body: Data
        var attempts: Int
        var maxAttempts: Int
    }

    /// Sends every webhook whose next attempt is due (real time: retries must not wait for a frozen clock).
    static func deliverDue(services: EmulatorServices) async {
        let due = (try? await services.database.read { connection in
            try connection.query("SELECT * FROM asleep_webhooks WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY created_at, id LIMIT 20",
                                 Date().timeIntervalSince1970).map { row in
                Pending(id: row.string("id") ?? "", project: row.string("project_id") ?? "", outboxID: row.int("outbox_id") ?? 0,
                        url: row.string("url") ?? "", apiKey: row.string("api_key"), userID: row.string("user_id") ?? "",
                        body: Data((row.string("body") ?? "{}").utf8), attempts: row.int("attempts") ?? 0, maxAttempts: row.int("max_attempts") ?? 1)
            }
        }) ?? []
        for webhook in due {
            let outcome = await send(webhook)
            let attempts = webhook.attempts + 1
            let delivered = outcome.status.map { (200..<300).contains($0) } ?? false
            let status = delivered ? "delivered" : attempts >= webhook.maxAttempts ? "failed" : "pending"
            let error = delivered ? nil : outcome.error ?? "HTTP \(outcome.status ?? 0)"
            let next = Date().timeIntervalSince1970 + Double(1 << min(attempts - 1, 5))
            let projectNow = services.now(for: webhook.project)
            _ = try? await services.database.write { connection in
                try connection.run("UPDATE asleep_webhooks SET status = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ? WHERE id = ?",
                                   status, attempts, outcome.status, error, next, webhook.id)
                try Outbox.markAttempt(connection, id: webhook.outboxID, status: status, error: error, now: projectNow)
            }
            services.logger.info("asleep webhook attempt", [("url", webhook.url), ("status", outcome.status.map(String.init) ?? "none"),
                                                              ("outcome", status)])
        }
    }

    /// POSTs one webhook with a 5 s timeout: the status, or why there was none.
    static func send(_ webhook: Pending) async -> (status: Int?, error: String?) {
        guard let url = URL(string: webhook.url) else { return (nil, "invalid URL") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = 5
        request.httpBody = webhook.body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key = webhook.apiKey { request.setValue(key, forHTTPHeaderField: "x-api-key") }
        request.setValue(webhook.userID, forHTTPHeaderField: "x-user-id")
        request.setValue("Understudy-Asleep-Webhook/1.0", forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, error in
                if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: (http.statusCode, nil))
                } else {
                    continuation.resume(returning: (nil, error.map { String(describing: $0) } ?? "no response"))
                }
            }.resume()
        }
    }
}
