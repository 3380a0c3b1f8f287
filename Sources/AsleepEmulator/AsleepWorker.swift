import EmulatorCore
import Foundation
import Storage

/// Background work: applies due session transitions on each project's clock (so COMPLETE and its
/// SESSION_COMPLETE webhook happen without anyone polling) and delivers queued webhooks with a
/// bounded number of attempts, recording each attempt in the outbox.
public enum AsleepWorker {
    /// Holds the services weakly, so the loops end once the server that owns them is gone.
    final class WeakServices: @unchecked Sendable {
        // Written once at creation; only read afterwards.
        weak var value: EmulatorServices?
        init(_ value: EmulatorServices) { self.value = value }
    }

    /// How long a claimed webhook stays with the instance sending it (the send times out after 5 s).
    static let webhookLease: TimeInterval = 30

    /// The name the transitions loop counts its rounds under (`EmulatorServices.backgroundRounds`).
    public static let transitionsLoop = "asleep.transitions"
    /// The name the webhook delivery loop counts its rounds under.
    public static let webhooksLoop = "asleep.webhooks"

    /// Starts both loops.
    static func start(services: EmulatorServices, configuration: JSONValue) {
        let box = WeakServices(services)
        Task.detached {
            while true {
                // Cancellation is irrelevant: the loop ends when the services go (checked next).
                try? await Task.sleep(nanoseconds: 200_000_000)
                guard let services = live(box) else { return }
                await advanceAll(services: services, configuration: configuration)
                services.finishedBackgroundRound(transitionsLoop)
            }
        }
        Task.detached {
            while true {
                // Cancellation is irrelevant: the loop ends when the services go (checked next).
                try? await Task.sleep(nanoseconds: 200_000_000)
                guard let services = live(box) else { return }
                await deliverDue(services: services, configuration: configuration)
                services.finishedBackgroundRound(webhooksLoop)
            }
        }
    }

    /// The services while their server lives: not yet released, and (for file databases) the
    /// database file still there — test servers delete theirs when they stop.
    static func live(_ box: WeakServices) -> EmulatorServices? {
        guard let services = box.value else { return nil }
        if let file = services.database as? SQLiteDatabase, case let path = file.path, !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"),
            !FileManager.default.fileExists(atPath: path)
        {
            return nil
        }
        return services
    }

    /// Runs the due transitions of every project with live sessions. A failing database ends
    /// this round only; the next tick retries (there is no request to answer).
    static func advanceAll(services: EmulatorServices, configuration: JSONValue) async {
        guard let projects = try? await services.database.read({ try AsleepStore(connection: $0).projectsWithLiveSessions() }) else { return }
        for project in projects {
            let now = await projectNow(project, services: services)
            let make = { @Sendable (connection: any StoreConnection) in
                AsleepService(store: AsleepStore(connection: connection), now: now, realNow: Date(), configuration: configuration) { draw in
                    services.generateIDs(for: project) { generator in generator.draw(draw) }
                }
            }
            // Check on a reader first: most ticks find nothing due and must not take the writer.
            let due =
                (try? await services.database.read { connection in
                    let service = make(connection)
                    let settings = try service.settings(project: project)
                    return try service.store.hasDueTransitions(project: project, maxSession: settings.maxSession, delay: settings.completionDelay, now: now)
                }) ?? false
            guard due else { continue }
            _ = try? await services.database.write { connection in
                // Instances sharing the database take turns per project: the second finds the
                // transitions done (each statement sees what the first committed), so each
                // COMPLETE and its webhook happen once.
                try connection.lock("asleep.advance." + project)
                let service = make(connection)
                try service.advance(project: project, settings: try service.settings(project: project))
            }
        }
    }

    /// The project's time for a tick. On a database other instances share it comes from the
    /// project's row: the cached clock learns another instance's change only when that
    /// instance's announcement arrives, and a tick on real time before a freeze had arrived
    /// closed, as past `maxSession`, a session just opened on the frozen clock.
    static func projectNow(_ project: ProjectID, services: EmulatorServices) async -> Date {
        guard services.database.isShared,
            let settings = try? await services.database.read({ try ClockStore.stored(project, connection: $0) })
        else {
            return services.now(for: project)
        }
        return settings.now(real: Date())
    }

    /// Sends every webhook whose next attempt is due (real time: retries must not wait for a
    /// frozen clock), to the targets `WebhookDelivery` allows. A failing database ends this round
    /// only, as above.
    static func deliverDue(services: EmulatorServices, configuration: JSONValue) async {
        // Looked for on a reader first: the claim below takes the writer, and an idle server
        // took it five times a second to find nothing due.
        let anyDue = (try? await services.database.read { !(try AsleepStore(connection: $0).dueWebhooks(now: Date(), limit: 1).isEmpty) }) ?? true
        guard anyDue else { return }
        // Claimed, not just read: each due webhook's next attempt moves a lease ahead, so another
        // instance sharing the database does not send it too; one that dies mid-send leaves it
        // to be retried once the lease runs out, not lost.
        let due =
            (try? await services.database.write { connection -> [WebhookRecord] in
                try connection.lock("asleep.webhooks")
                return try AsleepStore(connection: connection).claimDueWebhooks(now: Date(), lease: webhookLease, limit: 20)
            }) ?? []
        let guarded = services.settings.listensBeyondLoopback
        for webhook in due {
            let allowed = guarded ? await allowedOrigins(webhook.project, services: services, configuration: configuration) : []
            let outcome = await WebhookDelivery.send(webhook, guarded: guarded, allowed: allowed)
            let attempts = webhook.attempts + 1
            let delivered = outcome.status.map { (200..<300).contains($0) } ?? false
            // A refusal is final: the same target would be refused again.
            let status: WebhookStatus = delivered ? .delivered : outcome.refusal != nil ? .refused : attempts >= webhook.maxAttempts ? .failed : .pending
            let error = delivered ? nil : outcome.refusal ?? outcome.error ?? "HTTP \(outcome.status ?? 0)"
            let next = Date().addingTimeInterval(Double(1 << min(attempts - 1, 5)))
            let projectNow = services.now(for: webhook.project)
            _ = try? await services.database.write { connection in
                try AsleepStore(connection: connection).recordAttempt(
                    webhook: webhook, status: status, attempts: attempts, lastStatus: outcome.status,
                    lastError: error, nextAttempt: next, projectNow: projectNow)
            }
            services.logger.info(
                "asleep webhook attempt",
                [
                    ("url", webhook.url), ("status", outcome.status.map(String.init) ?? "none"),
                    ("outcome", status.rawValue),
                ])
        }
    }

    /// The project's allowed webhook origins (normalized); none when its settings cannot be read,
    /// so a database failure refuses rather than widens.
    static func allowedOrigins(_ project: ProjectID, services: EmulatorServices, configuration: JSONValue) async -> Set<String> {
        let settings = try? await services.database.read { connection in
            try AsleepSettings.resolve(configuration: configuration, stored: try AsleepStore(connection: connection).settingsDocument(project: project))
        }
        return settings?.allowedWebhookOrigins ?? []
    }
}
