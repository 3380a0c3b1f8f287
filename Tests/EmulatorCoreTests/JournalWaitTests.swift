import Dispatch
import Foundation
import HTTPServer
import Storage
import Testing

@testable import EmulatorCore

/// Journal waits park until a request they may match is recorded, instead of polling.
@Suite("Journal waits", .timeLimit(.minutes(5)))
struct JournalWaitTests {
    private static func later(_ seconds: Double) -> DispatchTime { .now() + .milliseconds(Int(seconds * 1000)) }

    /// Polls `condition` every 5 ms for up to 2 minutes; true once it held. Generous, and deadlines
    /// below are 10 minutes away: in a full parallel run on two loaded cores a test can wait tens of
    /// seconds for a thread, and what these tests check is order, never speed.
    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test("an announcement for the project resumes its wait; one for another project does not")
    func announcementsByProject() async throws {
        let signal = JournalSignal()
        let seen = signal.generation
        let onA = Task { await signal.wait(after: seen, project: "a", deadline: Self.later(600)) }
        let onB = Task { await signal.wait(after: seen, project: "b", deadline: Self.later(600)) }
        let onAll = Task { await signal.wait(after: seen, project: nil, deadline: Self.later(600)) }
        #expect(try await Self.eventually { signal.parked == 3 })
        signal.announce(project: "a")
        #expect(await onA.value == .announced)
        #expect(await onAll.value == .announced)
        #expect(signal.parked == 1, "the wait on b must stay parked")
        signal.end()
        #expect(await onB.value == .ended)
    }

    @Test("a wait that starts after an announcement it did not see returns at once")
    func missedAnnouncement() async {
        let signal = JournalSignal()
        let seen = signal.generation
        signal.announce(project: "elsewhere")
        #expect(await signal.wait(after: seen, project: "a", deadline: Self.later(600)) == .announced)
        #expect(signal.parked == 0)
    }

    @Test("the deadline resumes a wait; so does cancelling its task, before or after it parked")
    func deadlineAndCancellation() async throws {
        let signal = JournalSignal()
        let started = ContinuousClock.now
        #expect(await signal.wait(after: signal.generation, project: "a", deadline: Self.later(0.05)) == .timedOut)
        #expect(ContinuousClock.now - started >= .milliseconds(40))
        let parked = Task { await signal.wait(after: signal.generation, project: "a", deadline: Self.later(600)) }
        #expect(try await Self.eventually { signal.parked == 1 })
        parked.cancel()
        #expect(await parked.value == .cancelled)
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await signal.wait(after: signal.generation, project: "a", deadline: Self.later(600))
        }
        #expect(await early.value == .cancelled)
        #expect(signal.parked == 0)
    }

    @Test("after end() every wait, parked or new, returns at once")
    func endedWaits() async throws {
        let signal = JournalSignal()
        let parked = Task { await signal.wait(after: signal.generation, project: "a", deadline: Self.later(600)) }
        #expect(try await Self.eventually { signal.parked == 1 })
        signal.end()
        #expect(await parked.value == .ended)
        #expect(await signal.wait(after: signal.generation, project: "a", deadline: Self.later(600)) == .ended)
    }

    private static func exchange(id: Int, project: ProjectID) -> Journal.Exchange {
        Journal.Exchange(
            id: id, time: Date(), projectID: project, platform: "warplink", path: "/warplink/v1/sdk/validate",
            route: "/warplink/v1/sdk/validate", request: Request(method: .get, target: "/warplink/v1/sdk/validate"),
            status: 200, responseHeaders: HTTPHeaders(), responseBody: Data("{}".utf8), durationMs: 1, fault: nil)
    }

    @Test("on a real SQLite file, a recorded request satisfies its project's waits and leaves the others parked")
    func journalWaitsOnAFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-waits-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try SQLiteDatabase(path: path)
        let migrations = Migrator.journalDirectory(inside: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try Migrator(directory: migrations).migrate($0) }
        let journal = try Journal(database: database, limits: JournalLimits())
        let filter = JournalFilter(since: 0)
        let onA = (0..<20).map { _ in Task { try await journal.wait(project: "prj_a", filter: filter, count: 1, timeout: 600) } }
        let onB = (0..<100).map { _ in Task { try await journal.wait(project: "prj_b", filter: filter, count: 1, timeout: 600) } }
        #expect(try await Self.eventually { journal.parkedWaits == 120 })
        await journal.record(Self.exchange(id: journal.reserveID(), project: "prj_a"))
        for wait in onA {
            let result = try await wait.value
            #expect(result.satisfied && result.entries.count == 1)
        }
        #expect(journal.parkedWaits == 100, "a request for prj_a must not resume the waits on prj_b")
        journal.endWaits()
        for wait in onB {
            let result = try await wait.value
            #expect(!result.satisfied && result.entries.isEmpty)
        }
        #expect(journal.parkedWaits == 0)
    }
}
