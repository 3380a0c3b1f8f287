import Foundation
import TestProcesses
import Testing
import UnderstudyClient
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The control commands as a script runs them: the real binary, its exit status, stdout and stderr.
@Suite("Control commands through the binary")
struct ControlCommandProcessTests {
    private static let binary = LogFormatTests.repository.appendingPathComponent(".build/debug/understudy")

    /// A started `understudy` process with its output read line by line as it comes.
    private struct Child {
        let process: SpawnedProcess
        let standard: AsyncStream<String>
        let error: AsyncStream<String>
    }

    private static func launch(_ arguments: [String]) throws -> Child {
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first: \(binary.path)")
        // The developer's own UNDERSTUDY_* variables must not steer the test.
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        let process = try SpawnedProcess.start(binary.path, arguments, environment: environment)
        return Child(process: process, standard: lines(process.standard), error: lines(process.error))
    }

    /// The lines written to `handle`, each as soon as its newline arrives; the stream ends at end of file.
    private static func lines(_ handle: FileHandle) -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                var buffer = Data()
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                        buffer.removeSubrange(buffer.startIndex...newline)
                    }
                }
                if !buffer.isEmpty { continuation.yield(String(decoding: buffer, as: UTF8.self)) }
                continuation.finish()
            }
            reader.start()
        }
    }

    /// Runs to the end and returns the exit status and everything written.
    private static func complete(_ arguments: [String]) async throws -> (status: Int32, standard: [String], error: [String]) {
        let child = try launch(arguments)
        var standard: [String] = [], error: [String] = []
        for await line in child.standard { standard.append(line) }
        for await line in child.error { error.append(line) }
        guard case .exited(let status) = child.process.wait() else { return (-1, standard, error) }
        return (status, standard, error)
    }

    @Test("exit codes: 0 with JSON on stdout, 2 with the usage on stderr, 1 with one line naming the URL, 3 for a missing project")
    func exitCodes() async throws {
        try await UnderstudyTestServer.with { server in
            let url = server.url.absoluteString
            let listed = try await Self.complete(["projects", "list", "--json", "--server", url])
            #expect(listed.status == 0 && listed.error.isEmpty)
            #expect(try JSONDecoder().decode(AnyJSON.self, from: Data(listed.standard.joined(separator: "\n").utf8))["projects"] == .array([]))
            let missing = try await Self.complete(["projects", "show", "prj_nothere", "--server", url])
            #expect(missing.status == 3 && missing.standard.isEmpty && missing.error.count == 1)
        }
        let unknown = try await Self.complete(["projects", "frobnicate"])
        #expect(unknown.status == 2 && unknown.standard.isEmpty)
        #expect(unknown.error.first == "understudy: unknown verb `projects frobnicate`" && unknown.error.contains { $0.hasPrefix("Usage: understudy projects") })
        let closed = try ReservedClosedPort()
        defer { closed.release() }
        let url = "http://127.0.0.1:\(closed.port)"
        let unreachable = try await Self.complete(["faults", "list", "--server", url])
        #expect(unreachable.status == 1 && unreachable.standard.isEmpty)
        #expect(unreachable.error.count == 1 && unreachable.error.first?.hasPrefix("understudy: cannot reach \(url)") == true)
    }

    @Test("--ready-file names this process and its ports once it is ready, a second server on the port writes none, and a clean exit removes it")
    func readyFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ready-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func arguments(_ name: String, port: Int) -> [String] {
            [
                "--port", String(port), "--https-port", "0", "--proxy-port", "0", "--database", folder.appendingPathComponent("\(name).sqlite").path,
                "--ca-dir", folder.path, "--fixtures", "", "--no-request-log", "--ready-file", folder.appendingPathComponent("\(name).json").path,
            ]
        }
        let first = try Self.launch(arguments("first", port: 0))
        let drain = Task {
            for await _ in first.standard {}; for await _ in first.error {}
        }
        let readyPath = folder.appendingPathComponent("first.json").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: readyPath) && first.process.isRunning && Date() < deadline {
            try await Task.sleep(for: .milliseconds(50)) // waiting for another process; no clock to drive
        }
        let ready = try JSONDecoder().decode(AnyJSON.self, from: try #require(FileManager.default.contents(atPath: readyPath), "no ready file"))
        #expect(ready["pid"]?.int == Int(first.process.pid))
        let port = try #require(ready["httpPort"]?.int)
        #expect(port > 0 && (ready["httpsPort"]?.int ?? 0) > 0 && (ready["proxyPort"]?.int ?? 0) > 0)
        let (_, answer) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/__admin/ready")!)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)

        // Another server asked for the same port cannot listen: it exits 1 and writes no file a script could wait for.
        let second = try await Self.complete(arguments("second", port: port))
        #expect(second.status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("second.json").path))

        first.process.send(SIGTERM)
        guard case .exited(let status) = first.process.wait() else { Issue.record("the server did not exit"); return }
        await drain.value
        #expect(status == 0 && !FileManager.default.fileExists(atPath: readyPath))
    }

    @Test(
        "journal --follow prints a request sent after it started, as a line or one JSON object, until it is stopped",
        arguments: [false, true])
    func follow(json: Bool) async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject()
            var arguments = ["journal", "--follow", "--project", project.id, "--platform", "asleep", "--server", server.url.absoluteString]
            if json { arguments.append("--json") }
            let child = try Self.launch(arguments)
            // A safety net only: a child that never prints must not hang the suite.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                child.process.send(SIGTERM)
            }
            defer { watchdog.cancel() }
            var errors = child.error.makeAsyncIterator()
            // The header comes after the cursor is taken: anything sent from now on is newer than it.
            let header = await errors.next()
            #expect(header?.hasPrefix("following the journal of project \(project.id)") == true)
            _ = try await server.client.send(
                ClientRequest(
                    method: "GET", path: "/asleep/ai/v1/users/late",
                    headers: ["x-api-key": project.credential("asleep", "apiKey")]))
            var lines = child.standard.makeAsyncIterator()
            let line = try #require(await lines.next())
            if json {
                let entry = try JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8))
                #expect(entry.path == "/asleep/ai/v1/users/late" && entry.projectID == project.id)
            } else {
                #expect(line.hasSuffix("GET     /asleep/ai/v1/users/late") && line.contains(project.id))
            }
            child.process.send(SIGINT)
            #expect(child.process.wait() == .signalled(SIGINT))
        }
    }
}
