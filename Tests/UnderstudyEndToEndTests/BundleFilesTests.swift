import EmulatorCore
import Foundation
import HTTPServer
import TestProcesses
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

@Suite("Project bundles: seed directories and export on exit")
struct BundleFilesTests {
    private func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static let hand = Data(#"{"format": "understudy-bundle", "version": 1, "project": {"name": "From a file"}}"#.utf8)

    /// An exported bundle of a project with a WarrantyLife user, from a server that is then stopped.
    private func exportedBundle() async throws -> (bundle: Data, key: String) {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            return (try await server.client.admin.project("demo").export(), demo.credential("warrantylife", "developerKey"))
        }
    }

    @Test("at start every *.json of the seed directory becomes a project (id from the bundle, else the file name); a second load replaces them")
    func seedDirectory() async throws {
        let seeds = try folder("seeds")
        let (bundle, key) = try await exportedBundle()
        try bundle.write(to: seeds.appendingPathComponent("10-shop.json")) // the bundle names its project: `demo`
        try Self.hand.write(to: seeds.appendingPathComponent("team.json"))
        try Data("ignored".utf8).write(to: seeds.appendingPathComponent("notes.txt"))
        // With the demo fixtures on: the seed bundle for `demo` takes their place.
        try await UnderstudyTestServer.with(demo: true, configure: { $0.seedDirectory = seeds.path }) { server in
            #expect(try await server.client.admin.projects().map(\.id).sorted() == ["demo", "team"])
            #expect(try await server.client.admin.project("demo").get().isDemo == false)
            #expect(
                server.server.seedReport
                    == SeedReport(
                        imported: ["demo", "team"], replaced: [], skipped: [],
                        files: ["demo": seeds.appendingPathComponent("10-shop.json").path, "team": seeds.appendingPathComponent("team.json").path]))
            #expect(try await server.client.admin.project("team").get().name == "From a file")
            let repository = server.client.warrantyLife.repository(apiKey: key, deviceID: "DEMO-OLD-DEVICE")
            try await repository.getTokenViaUserPassword(username: "demo@example.com", password: "demo-password")
            let team = try await server.client.admin.project("team").get()
            // What a restart on the same database does: the same files replace the projects they made.
            let again = try await ProjectBundleStore(emulator: server.server.emulator).seed(from: seeds.path, skipInvalid: false)
            #expect(again.imported == ["demo", "team"] && again.replaced == ["demo", "team"])
            // A bundle without credentials keeps those of the project it replaces: restarts do not change keys.
            #expect(try await server.client.admin.project("team").get().credentials == team.credentials)
            #expect(try await BundleSupport.comparable(server.client.admin.project("demo").export()) == BundleSupport.comparable(bundle))
        }
    }

    @Test("one bad seed file: nothing is seeded and the error names the file; --seed-skip-invalid skips it")
    func badSeed() async throws {
        let seeds = try folder("badseeds")
        try Self.hand.write(to: seeds.appendingPathComponent("a-good.json"))
        // Valid in shape, refused by the schema: it fails inside the transaction, after a-good was written.
        try Data(#"{"format": "understudy-bundle", "version": 1, "tables": {"wl_users": {"columns": ["id"], "rows": [["u"]]}}}"#.utf8)
            .write(to: seeds.appendingPathComponent("b-bad.json"))
        try await UnderstudyTestServer.with { server in
            let store = ProjectBundleStore(emulator: server.server.emulator)
            do {
                _ = try await store.seed(from: seeds.path, skipInvalid: false)
                Issue.record("a bad seed file was accepted")
            } catch {
                let text = String(describing: error)
                let namesFile = (error as? BundleFileError)?.file.hasSuffix("b-bad.json") ?? false
                #expect(namesFile && text.contains("leaves out column"), "\(text)")
            }
            let left = try await server.client.admin.projects()
            #expect(left.isEmpty) // a-good was rolled back with it
        }
        try await UnderstudyTestServer.with(configure: {
            $0.seedDirectory = seeds.path; $0.seedSkipInvalid = true
        }) { server in
            let ids = try await server.client.admin.projects().map(\.id)
            #expect(ids == ["a-good"])
            #expect(server.server.seedReport?.skipped.count == 1 && server.server.seedReport?.skipped.first?.contains("b-bad.json") == true)
        }
        // The real binary: exit 1, naming the file, without --seed-skip-invalid.
        let run = try await Self.runBinary(["--seed-dir", seeds.path, "--fixtures", ""])
        #expect(run.ending == .exited(1))
        #expect(run.errors.contains("b-bad.json") && run.errors.contains("leaves out column"), "\(run.errors)")
    }

    @Test("a clean stop writes each project's bundle to the export directory; it imports again")
    func exportOnExit() async throws {
        let exports = try folder("exports")
        let old = Data("previous bundle".utf8)
        try old.write(to: exports.appendingPathComponent("demo.json"))
        let bundle = try await UnderstudyTestServer.with(demo: true, configure: { $0.exportOnExitDirectory = exports.path }) { server in
            _ = try await server.client.admin.createProject(name: "second", id: "second")
            return try await server.client.admin.project("demo").export()
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: exports.path).sorted()
        #expect(names == ["demo.json", "second.json"])
        let written = try Data(contentsOf: exports.appendingPathComponent("demo.json"))
        #expect(try BundleSupport.comparable(written) == BundleSupport.comparable(bundle))
        try await UnderstudyTestServer.with { server in
            let imported = try await server.client.admin.importProject(written)
            #expect(imported.id == "demo")
        }
    }

    @Test("kill -9 during the export leaves the previous bundle whole: the new one was going to a temporary file")
    func killDuringExport() async throws {
        let exports = try folder("killexport")
        let target = exports.appendingPathComponent("demo.json")
        let old = Data("previous bundle, intact".utf8)
        try old.write(to: target)
        // The temporary file's name is random: it is whichever `.demo.json.<random>.partial` appears.
        let temporary = { () -> String? in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: exports.path)) ?? []
            return names.first { AtomicFile.isTemporaryName($0, for: "demo.json") }.map { exports.appendingPathComponent($0).path }
        }
        let run = try await Self.runBinary(["--export-on-exit", exports.path], environment: ["UNDERSTUDY_TEST_EXPORT_STALL_MS": "60000"]) { process in
            process.send(SIGINT) // SIGINT: a clean shutdown, so the export starts
            var partial = false
            for _ in 0..<400 where !partial {
                let size = temporary().flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
                partial = size > 0
                if !partial { try await Task.sleep(nanoseconds: 25_000_000) } // another process's progress: no event to wait on
            }
            #expect(partial, "no temporary file in \(exports.path)")
            process.send(SIGKILL)
        }
        #expect(run.ending == .signalled(SIGKILL))
        #expect(try Data(contentsOf: target) == old)
        // The half-written temporary file is the proof the export was under way and never touched demo.json.
        let partial = try Data(contentsOf: URL(fileURLWithPath: try #require(temporary())))
        #expect(!partial.isEmpty && (try? JSONValue.parse(partial)) == nil)
    }

    @Test("--seed-dir, --seed-skip-invalid, --export-on-exit, their variables and config keys; bundles record `understudy --version`")
    func configuration() throws {
        let empty = try folder("config").appendingPathComponent("understudy.json")
        try Data(#"{"seedDir": "from-file", "exportOnExit": "out-file"}"#.utf8).write(to: empty)
        let file = try UnderstudyCommand.parse(["--config", empty.path], environment: [:])
        #expect(file.seedDirectory == "from-file" && file.exportOnExitDirectory == "out-file" && !file.seedSkipInvalid)
        let environment = try UnderstudyCommand.parse(
            ["--config", empty.path],
            environment: [
                "UNDERSTUDY_SEED_DIR": "from-env", "UNDERSTUDY_SEED_SKIP_INVALID": "true", "UNDERSTUDY_EXPORT_ON_EXIT": "out-env",
            ])
        #expect(environment.seedDirectory == "from-env" && environment.seedSkipInvalid && environment.exportOnExitDirectory == "out-env")
        let flags = try UnderstudyCommand.parse(
            ["--config", empty.path, "--seed-dir", "seeds", "--seed-skip-invalid", "--export-on-exit", "out"],
            environment: ["UNDERSTUDY_SEED_DIR": "from-env"])
        #expect(flags.seedDirectory == "seeds" && flags.seedSkipInvalid && flags.exportOnExitDirectory == "out")
        #expect(throws: ConfigurationError.self) { _ = try UnderstudyCommand.parse(["--config", empty.path, "--seed-dir"], environment: [:]) }
        #expect(ProjectBundle.serverVersion == UnderstudyCommand.version)
    }

    /// Runs the built `understudy` binary; `whileReady` runs once it answers `/__admin/ready`
    /// (the process is sent SIGTERM after it unless it ended), or never when it exits first.
    static func runBinary(
        _ arguments: [String], environment: [String: String] = [:],
        whileReady: ((SpawnedProcess) async throws -> Void)? = nil
    ) async throws -> (ending: SpawnedProcess.Ending, errors: String) {
        let binary = LogFormatTests.repository.appendingPathComponent(".build/debug/understudy")
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("bundles-\(UUID().uuidString).sqlite")
        let port = try await SpawnedServer.freePort()
        let process = try SpawnedProcess.start(
            binary.path, ["serve", "--port", String(port), "--https-port", "0", "--proxy-port", "0", "--database", database.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, directory: LogFormatTests.repository.path)
        var ready = false
        if let whileReady {
            ready = try await SpawnedServer.waitUntilReady(port: port, process: process)
            if ready { try await whileReady(process) }
            if process.isRunning { process.send(SIGTERM) }
        }
        let finished = await process.collected()
        // Said outright: otherwise a server that never came up shows only as a wrong ending.
        if whileReady != nil && !ready { Issue.record("the server never answered /__admin/ready: \(finished.ending), \(finished.error)") }
        return (finished.ending, finished.error)
    }
}
