import Foundation
import Synchronization
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// What a control command wrote, captured in process.
final class CapturedOutput: Sendable {
    private let streams = Mutex<(standard: String, error: String)>(("", ""))

    var output: ControlOutput {
        ControlOutput(
            standard: { text in self.streams.withLock { $0.standard += text } },
            error: { text in self.streams.withLock { $0.error += text } })
    }
    var standard: String { streams.withLock { $0.standard } }
    var error: String { streams.withLock { $0.error } }
}

/// `understudy projects|journal|faults|clock` run in process against a live test server.
@Suite("Control commands against a live server")
struct ControlCommandTests {
    struct Outcome {
        var status: Int32
        var standard: String
        var error: String
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(T.self, from: Data(standard.utf8)) }
    }

    static func run(_ arguments: [String], on server: UnderstudyTestServer, environment: [String: String] = [:]) async -> Outcome {
        let captured = CapturedOutput()
        let status = await ControlCommand.run(arguments + ["--server", server.url.absoluteString], environment: environment, output: captured.output)
        return Outcome(status: status, standard: captured.standard, error: captured.error)
    }

    @Test("projects create, show, list, reset and delete, in text and as JSON; a deleted project is exit 3")
    func projects() async throws {
        try await UnderstudyTestServer.with { server in
            let created = await Self.run(["projects", "create", "--name", "checkout", "--json"], on: server)
            #expect(created.status == 0, "\(created.error)")
            let project = try created.decode(Project.self)
            #expect(project.name == "checkout")
            let shown = await Self.run(["projects", "show", project.id], on: server)
            #expect(shown.status == 0)
            let firstLine = shown.standard.split(separator: "\n").first.map { $0.split(separator: " ").map(String.init) }
            #expect(firstLine == ["id", project.id] && shown.standard.contains(project.credential("asleep", "apiKey")))
            let list = await Self.run(["projects", "list"], on: server)
            let lines = list.standard.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("ID") == true && lines.contains { $0.hasPrefix(project.id) && $0.contains("checkout") })
            // Aligned: NAME starts at the same column on every line.
            let nameColumn = try #require(lines.first?.range(of: "NAME")).lowerBound.utf16Offset(in: lines[0])
            #expect(lines.dropFirst().allSatisfy { $0.count > nameColumn && $0[$0.index($0.startIndex, offsetBy: nameColumn - 1)] == " " })
            struct List: Decodable { var projects: [Project] }
            #expect(try await Self.run(["projects", "list", "--json"], on: server).decode(List.self).projects.map(\.id) == [project.id])
            let reset = await Self.run(["projects", "reset", project.id], on: server)
            #expect(reset.status == 0 && reset.standard == "reset project \(project.id)\n")
            let deleted = await Self.run(["projects", "delete", project.id], on: server)
            #expect(deleted.status == 0 && deleted.standard == "deleted project \(project.id)\n")
            let missing = await Self.run(["projects", "show", project.id], on: server)
            #expect(missing.status == 3 && missing.standard.isEmpty)
            #expect(missing.error.contains(server.url.absoluteString) && missing.error.contains("404") && missing.error.split(separator: "\n").count == 1)
        }
    }

    @Test("clock show, freeze, advance and real, in text and as JSON")
    func clock() async throws {
        try await UnderstudyTestServer.with { server in
            let id = try await server.makeProject().id
            let frozen = await Self.run(["clock", "freeze", "--project", id, "--at", "2030-01-01T00:00:00Z"], on: server)
            #expect(frozen.status == 0 && frozen.standard == "frozen at 2030-01-01T00:00:00.000Z\n", "\(frozen.error)")
            let advanced = await Self.run(["clock", "advance", "--project", id, "90m", "--json"], on: server)
            #expect(try advanced.decode(ClockState.self).now == "2030-01-01T01:30:00.000Z")
            #expect(try await server.client.admin.project(id).clock().now == "2030-01-01T01:30:00.000Z")
            #expect(await Self.run(["clock", "show", "--project", id], on: server).standard == "frozen at 2030-01-01T01:30:00.000Z\n")
            let real = await Self.run(["clock", "real", "--project", id], on: server)
            #expect(real.status == 0 && real.standard.hasPrefix("real (now "))
            #expect(await Self.run(["clock", "show", "--project", "prj_missing"], on: server).status == 3)
        }
    }

    @Test("faults add from flags and from --json-rule, list, clear; the server's refusal of a bad rule is exit 1")
    func faults() async throws {
        try await UnderstudyTestServer.with { server in
            let id = try await server.makeProject().id
            let added = await Self.run(
                [
                    "faults", "add", "--project", id, "--status", "503", "--retry-after", "2", "--platform", "asleep",
                    "--path", "/asleep/**", "--times", "2", "--json",
                ], on: server)
            #expect(added.status == 0, "\(added.error)")
            let rule = try added.decode(FaultRule.self)
            #expect(
                rule.action.type == "status" && rule.action.status == 503 && rule.action.retryAfter == 2 && rule.match.platform == "asleep" && rule.times == 2
                    && rule.projectID == id)
            let global = await Self.run(["faults", "add", "--json-rule", #"{"match": {"platform": "telematics"}, "action": {"type": "reset"}}"#], on: server)
            #expect(global.status == 0 && global.standard.hasPrefix("added flt_") && global.standard.contains("reset for telematics"))
            let listed = await Self.run(["faults", "list", "--project", id], on: server)
            #expect(listed.standard.hasPrefix("ID") && listed.standard.contains(rule.id!) && listed.standard.contains("status 503 retry-after 2s"))
            struct Rules: Decodable { var rules: [FaultRule] }
            #expect(try await Self.run(["faults", "list", "--json"], on: server).decode(Rules.self).rules.map(\.match.platform) == ["telematics"])
            // The server checks a JSON rule strictly: an unknown member is its 400, exit 1, and nothing added.
            let bad = await Self.run(["faults", "add", "--project", id, "--json-rule", #"{"match": {}, "action": {"type": "status", "status": 503}, "tims": 2}"#], on: server)
            #expect(bad.status == 1 && bad.error.contains("400"))
            #expect(try await server.client.admin.project(id).faults().count == 1)
            #expect(await Self.run(["faults", "clear", "--project", id, "--rule", rule.id!], on: server).status == 0)
            #expect(try await server.client.admin.project(id).faults().isEmpty)
            #expect(await Self.run(["faults", "clear", "--project", id, "--rule", rule.id!], on: server).status == 3)
            let cleared = await Self.run(["faults", "clear"], on: server)
            #expect(cleared.standard == "removed every global fault rule\n")
            #expect(try await server.client.admin.globalFaults().isEmpty)
            #expect(await Self.run(["faults", "list"], on: server).standard == "no fault rules\n")
        }
    }

    @Test("journal lists one line per request oldest first, filters by project and status class, and prints JSON")
    func journal() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject(), other = try await server.makeProject()
            // Each request is journalled before the next is sent, so the journal's order is the sending order.
            for (owner, user, count) in [(project, "ada", 1), (project, "grace", 2), (other, "linus", 1)] {
                _ = try await server.client.send(
                    ClientRequest(
                        method: "GET", path: "/asleep/ai/v1/users/\(user)",
                        headers: ["x-api-key": owner.credential("asleep", "apiKey")]))
                _ = try await server.client.admin.project(owner.id).waitForRequests(JournalQuery(platform: "asleep"), count: count)
            }
            let listed = await Self.run(["journal", "--project", project.id, "--platform", "asleep"], on: server)
            #expect(listed.status == 0, "\(listed.error)")
            let lines = listed.standard.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].hasSuffix("GET     /asleep/ai/v1/users/ada") && lines[1].hasSuffix("/asleep/ai/v1/users/grace"))
            #expect(lines.allSatisfy { $0.contains(project.id) && $0.contains(" asleep ") })
            let everyone = await Self.run(["journal", "--platform", "asleep", "--json"], on: server)
            #expect(try everyone.decode(JournalPage.self).requests.map(\.path).last == "/asleep/ai/v1/users/ada")
            let status = try #require(everyone.decode(JournalPage.self).requests.first?.status)
            let sameClass = await Self.run(["journal", "--platform", "asleep", "--status", "\(status / 100)xx", "--json"], on: server)
            #expect(try sameClass.decode(JournalPage.self).requests.count == 3)
            let otherClass = await Self.run(["journal", "--platform", "asleep", "--status", status / 100 == 2 ? "5xx" : "2xx"], on: server)
            #expect(otherClass.status == 0 && otherClass.standard.isEmpty)
            let limited = await Self.run(["journal", "--platform", "asleep", "--limit", "1"], on: server)
            #expect(limited.standard.split(separator: "\n").count == 1 && limited.standard.contains("linus"))
        }
    }

    @Test("projects export to a file or stdout, import as new, colliding (exit 1), in place with --replace, or from a missing file")
    func exportImport() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-bundles-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("bundle.json").path
            let exported = await Self.run(["projects", "export", project.id, "--output", file], on: server)
            #expect(exported.status == 0 && exported.standard.isEmpty && exported.error.contains(file), "\(exported.error)")
            let bundle = try #require(FileManager.default.contents(atPath: file))
            #expect(try JSONDecoder().decode(AnyJSON.self, from: bundle).object != nil)
            let printed = await Self.run(["projects", "export", project.id], on: server)
            // The same document on stdout, apart from when it was exported (and the clock, which runs).
            func comparable(_ data: Data) throws -> AnyJSON? {
                guard case .object(var members) = try JSONDecoder().decode(AnyJSON.self, from: data) else { return nil }
                members["exportedAt"] = nil
                members["clock"] = nil
                return .object(members)
            }
            #expect(try comparable(Data(printed.standard.utf8)) == comparable(bundle))
            #expect(try comparable(bundle)?["project"]?["id"] == .string(project.id))
            #expect(await Self.run(["projects", "export", "prj_missing"], on: server).status == 3)
            // Its credentials are still in use by the project it came from: a 409, nothing imported.
            let colliding = await Self.run(["projects", "import", file, "--id", "copy"], on: server)
            #expect(colliding.status == 1 && colliding.error.contains("409"))
            // The remedy in the command's own spelling, not the HTTP API's.
            #expect(colliding.error.contains("--replace \(project.id)") && !colliding.error.contains("?replace="), "\(colliding.error)")
            let replaced = await Self.run(["projects", "import", file, "--replace", project.id], on: server)
            #expect(replaced.status == 0 && replaced.standard == "replaced project \(project.id)\n", "\(replaced.error)")
            try await server.client.admin.project(project.id).delete()
            let imported = await Self.run(["projects", "import", file, "--json"], on: server)
            #expect(imported.status == 0, "\(imported.error)")
            let again = try imported.decode(Project.self)
            #expect(again.credentials == project.credentials)
            #expect(try await server.client.admin.project(again.id).get().credentials == project.credentials)
            let unreadable = await Self.run(["projects", "import", folder.appendingPathComponent("none.json").path], on: server)
            #expect(unreadable.status == 1 && unreadable.error.hasPrefix("understudy: cannot read "))
        }
    }

    @Test("a server with an admin token: without one it is exit 4 naming the flag and the variable; with it the command runs")
    func adminToken() async throws {
        try await UnderstudyTestServer.with(configure: { $0.adminToken = "s3cret" }) { server in
            let refused = await Self.run(["projects", "list"], on: server)
            #expect(refused.status == 4 && refused.standard.isEmpty)
            #expect(refused.error.contains("--admin-token") && refused.error.contains("UNDERSTUDY_ADMIN_TOKEN") && refused.error.contains(server.url.absoluteString))
            let wrong = await Self.run(["projects", "list", "--admin-token", "nope"], on: server)
            #expect(wrong.status == 4 && wrong.error.contains("refused"))
            #expect(await Self.run(["projects", "list", "--admin-token", "s3cret"], on: server).status == 0)
            #expect(await Self.run(["projects", "list"], on: server, environment: ["UNDERSTUDY_ADMIN_TOKEN": "s3cret"]).status == 0)
        }
    }

    @Test("nothing listening: one line naming the URL, exit 1")
    func unreachable() async throws {
        // A port bound but never listened on refuses connections, and no parallel test server can
        // be given it meanwhile (a stopped server's port could be, and then answered).
        let reserved = try ReservedClosedPort()
        defer { reserved.release() }
        let url = "http://127.0.0.1:\(reserved.port)"
        for command in [["projects", "list"], ["journal"], ["faults", "list"], ["clock", "show", "--project", "demo"]] {
            let captured = CapturedOutput()
            let status = await ControlCommand.run(command + ["--server", url], environment: [:], output: captured.output)
            #expect(status == 1 && captured.standard.isEmpty)
            #expect(captured.error.hasPrefix("understudy: cannot reach \(url)") && captured.error.split(separator: "\n").count == 1)
        }
    }
}
