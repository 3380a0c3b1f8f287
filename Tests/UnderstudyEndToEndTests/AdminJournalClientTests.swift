import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The client's journal across projects, its long poll and status classes, and the CA certificate.
@Suite("Journal across projects and the CA through the client")
struct AdminJournalClientTests {
    private func lookUp(_ server: UnderstudyTestServer, _ project: Project, user: String) async throws {
        _ = try await server.client.send(
            ClientRequest(
                method: "GET", path: "/asleep/ai/v1/users/\(user)",
                headers: ["x-api-key": project.credential("asleep", "apiKey")]))
    }

    /// The newest `count` entries of `platform` across projects, waiting with the long poll for
    /// those still being journalled (an answer can reach the client before its entry is recorded).
    static func entries(_ server: UnderstudyTestServer, platform: String, count: Int) async throws -> [JournalEntry] {
        var entries = try await server.client.admin.requests(JournalQuery(platform: platform)).requests
        while entries.count < count {
            let page = try await server.client.admin.requests(JournalQuery(platform: platform, since: entries.first?.id ?? 0), waitMs: 10_000)
            guard !page.requests.isEmpty else { break }
            entries = page.requests + entries
        }
        return entries
    }

    @Test("the journal across projects holds every project's requests and those with none; a status class filters it")
    func acrossProjects() async throws {
        try await UnderstudyTestServer.with { server in
            let first = try await server.makeProject(), second = try await server.makeProject()
            try await lookUp(server, first, user: "one")
            try await lookUp(server, second, user: "two")
            // No credential: the platform answers, but the request belongs to no project.
            _ = try await server.client.send(ClientRequest(method: "GET", path: "/asleep/ai/v1/users/three"))
            let all = try await Self.entries(server, platform: "asleep", count: 3)
            #expect(Set(all.map(\.path)) == ["/asleep/ai/v1/users/one", "/asleep/ai/v1/users/two", "/asleep/ai/v1/users/three"])
            #expect(all.contains { $0.projectID == nil })
            let statuses = Set(all.map(\.status))
            let firstClass = try #require(statuses.first) / 100
            let byClass = try await server.client.admin.requests(JournalQuery(platform: "asleep", statusClass: firstClass))
            #expect(!byClass.requests.isEmpty && byClass.requests.allSatisfy { $0.status / 100 == firstClass })
            let otherClass = firstClass == 2 ? 5 : 2
            #expect(
                try await server.client.admin.requests(JournalQuery(platform: "asleep", statusClass: otherClass)).requests
                    .allSatisfy { $0.status / 100 == otherClass })
            // `before` pages back from an entry.
            let newest = try #require(all.first?.id)
            let older = try await server.client.admin.requests(JournalQuery(platform: "asleep", before: newest))
            #expect(older.requests.count == 2 && older.requests.allSatisfy { $0.id < newest })
        }
    }

    @Test("the long poll answers with an entry journalled after its cursor, and only with newer ones")
    func longPoll() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject()
            try await lookUp(server, project, user: "before")
            let seen = try await server.client.admin.project(project.id).waitForRequests(JournalQuery(platform: "asleep"), count: 1)
            let cursor = try #require(seen.requests.first?.id)
            let client = server.client
            let poll = Task { try await client.admin.requests(JournalQuery(platform: "asleep", since: cursor), waitMs: 20_000) }
            try await lookUp(server, project, user: "after")
            let page = try await poll.value
            #expect(page.requests.map(\.path) == ["/asleep/ai/v1/users/after"])
            let scoped = try await server.client.admin.project(project.id).requests(JournalQuery(platform: "asleep", since: cursor), waitMs: 5_000)
            #expect(scoped.requests.map(\.path) == ["/asleep/ai/v1/users/after"])
        }
    }

    @Test("waitForRequests refuses the filters its route cannot apply instead of dropping them")
    func waitRefusesListingFilters() async throws {
        try await UnderstudyTestServer.with { server in
            let project = server.client.admin.project(try await server.makeProject().id)
            let outcome = await Result(catching: { try await project.waitForRequests(JournalQuery(statusClass: 5), count: 1, timeoutMs: 50) })
            guard case .failure(let error) = outcome, case .encoding(let reason)? = error as? UnderstudyClientError else {
                Issue.record("expected an encoding error, got \(outcome)")
                return
            }
            #expect(reason.contains("statusClass"))
        }
    }

    @Test("the CA certificate is PEM while a TLS listener runs, and a 404 when the server has no CA")
    func caCertificate() async throws {
        try await UnderstudyTestServer.with { server in
            let pem = String(decoding: try await server.client.admin.caCertificate(), as: UTF8.self)
            #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----") && pem.contains("-----END CERTIFICATE-----"))
        }
        try await UnderstudyTestServer.with(configure: {
            $0.httpsPort = nil; $0.proxyPort = nil
        }) { server in
            let outcome = await Result(catching: { try await server.client.admin.caCertificate() })
            guard case .failure(let error) = outcome, case .unexpectedStatus(404, _)? = error as? UnderstudyClientError else {
                Issue.record("expected a 404, got \(outcome)")
                return
            }
        }
    }
}
