import EmulatorCore
import Foundation
import Storage
import Testing

@testable import AsleepEmulator

/// The report fetch keeps "when is the next state change due" while the database is unchanged, so
/// that time alone decides whether a fetch may be read without writing; that must answer exactly
/// what the worker's `hasDueTransitions` answers, and whether `advance` finds anything to do, at
/// every moment.
@Suite("Asleep transitions due")
struct TransitionDueTests {
    @Test("the next due time agrees with hasDueTransitions and the due lists for random sessions, settings and moments")
    func nextDueAgreesWithHasDue() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        _ = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrate(connection)
        for project in ["p1", "p2"] {
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')", project, project)
        }
        let store = AsleepStore(connection: connection)
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let base = 1_800_000_000.0
        var disagreements: [String] = []
        for round in 0..<200 {
            try connection.run("DELETE FROM asleep_sessions")
            for index in 0..<next(6) {
                let stateName = ["OPEN", "CLOSED", "COMPLETE"][next(3)]
                let start = base + Double(next(100_000))
                let closedAt: Double? = stateName == "OPEN" || next(5) == 0 ? nil : start + Double(next(40_000))
                try connection.run(
                    """
                    INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, closed_at, hold, created_at)
                    VALUES (?, ?, 'c', 'u', ?, ?, ?, ?, ?)
                    """, "s\(round)-\(index)", next(4) == 0 ? "p2" : "p1", stateName, start, closedAt, next(3) == 0 ? 1 : 0, start)
            }
            let maxSession = Double(1 + next(86_400)), delay = Double(next(30))
            let due = try store.nextTransitionDue(project: "p1", maxSession: maxSession, delay: delay)
            for _ in 0..<20 {
                let now = Date(timeIntervalSince1970: base + Double(next(200_000)))
                let listed =
                    try !store.sessionsPastMaximum(project: "p1", maxSession: maxSession, now: now).isEmpty
                    || !store.sessionsDueToComplete(project: "p1", delay: delay, now: now).isEmpty
                let hasDue = try store.hasDueTransitions(project: "p1", maxSession: maxSession, delay: delay, now: now)
                let dueByTime = due.map { $0 <= now.timeIntervalSince1970 } ?? false
                if hasDue != listed || dueByTime != listed {
                    disagreements.append("round \(round) at \(now.timeIntervalSince1970): listed \(listed), hasDue \(hasDue), next due \(String(describing: due))")
                }
            }
        }
        let count = disagreements.count
        #expect(count == 0, "\(disagreements.prefix(5))")
    }
}
