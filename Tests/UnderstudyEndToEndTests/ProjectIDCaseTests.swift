import EmulatorCore
import Foundation
import Storage
import TestPostgres
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// Project ids are unique ignoring case (`Demo` beside `demo` would be one file on macOS), while
/// every lookup stays exact: a request names a project by its id as made.
@Suite("Project ids are unique ignoring case")
struct ProjectIDCaseTests {
    /// No database or SQL wording in an answer meant for a user.
    static func expectNoSQL(_ text: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = text ?? ""
        for word in ["constraint failed", "UNIQUE", "SQLite", "INSERT", "project_credentials", "projects.id", "legacy_case_key", "lower("] {
            #expect(!text.contains(word), "`\(word)` in \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test("creating `Demo` beside `demo` is a 409 naming `demo`; `demo` again is a 409 too; lookups stay exact")
    func create() async throws {
        try await UnderstudyTestServer.with { server in
            let admin = server.client.admin
            _ = try await admin.createProject(name: "lower", id: "demo")
            for twin in ["Demo", "DEMO"] {
                let refused = await BundleSupport.status { _ = try await admin.createProject(name: "upper", id: twin) }
                #expect(refused?.status == 409)
                #expect(
                    refused?.body.contains("Project id `\(twin)` differs only in case from project `demo`, which exists; project ids are unique ignoring case.") == true,
                    "\(String(describing: refused))")
                Self.expectNoSQL(refused?.body)
            }
            let again = await BundleSupport.status { _ = try await admin.createProject(name: "again", id: "demo") }
            #expect(again?.status == 409 && again?.body.contains("Project `demo` already exists.") == true, "\(String(describing: again))")
            let lookup = await BundleSupport.status { _ = try await admin.project("Demo").get() }
            #expect(lookup?.status == 404)
            #expect(try await admin.projects().map(\.id) == ["demo"])
        }
    }

    @Test("import: the bundle's id, `?id=` and `?replace=` all meet the rule; a replace is looked up exactly")
    func importing() async throws {
        try await UnderstudyTestServer.with { server in
            let admin = server.client.admin
            _ = try await admin.createProject(name: "lower", id: "demo")
            // A bundle of no rows and no credentials (it gets fresh ones): only the id can collide.
            let bundle = Data(#"{"format": "understudy-bundle", "version": 1}"#.utf8)
            let named = try BundleSupport.edited(bundle) { $0["project"] = ["id": "DEMO", "name": "upper"] }
            let byBundle = await BundleSupport.status { _ = try await admin.importProject(named) }
            #expect(byBundle?.status == 409)
            #expect(byBundle?.body.contains("Project id `DEMO` differs only in case from project `demo`, which exists") == true, "\(String(describing: byBundle))")
            #expect(byBundle?.body.contains("import with `?id=`") == true)
            let byQuery = await BundleSupport.status { _ = try await admin.importProject(bundle, id: "Demo") }
            #expect(byQuery?.status == 409 && byQuery?.body.contains("differs only in case from project `demo`") == true, "\(String(describing: byQuery))")
            let replacing = await BundleSupport.status { _ = try await admin.importProject(bundle, replacing: "Demo") }
            #expect(replacing?.status == 404)
            #expect(replacing?.body.contains("Project `Demo` not found; project `demo` differs only in case") == true, "\(String(describing: replacing))")
            for body in [byBundle?.body, byQuery?.body, replacing?.body] { Self.expectNoSQL(body) }
            #expect(try await admin.projects().map(\.id) == ["demo"])
            // The exact id replaces; another id imports.
            #expect(try await admin.importProject(bundle, replacing: "demo").id == "demo")
            #expect(try await admin.importProject(bundle, id: "demo2").id == "demo2")
        }
    }

    @Test("seed directory: two files whose ids differ only in case, or one whose id differs only in case from a stored project, name the file")
    func seeds() async throws {
        let hand = Data(#"{"format": "understudy-bundle", "version": 1}"#.utf8)
        let twins = FileManager.default.temporaryDirectory.appendingPathComponent("case-seeds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: twins, withIntermediateDirectories: true)
        try hand.write(to: twins.appendingPathComponent("Demo.json"))
        try hand.write(to: twins.appendingPathComponent("demo.json"))
        let single = FileManager.default.temporaryDirectory.appendingPathComponent("case-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        try hand.write(to: single.appendingPathComponent("Demo.json"))
        try await UnderstudyTestServer.with { server in
            let store = ProjectBundleStore(emulator: server.server.emulator)
            do {
                _ = try await store.seed(from: twins.path, skipInvalid: false)
                Issue.record("two seed files for one id ignoring case were both taken")
            } catch let error as BundleFileError {
                #expect(error.file == twins.appendingPathComponent("demo.json").path)
                #expect(error.reason.contains("project `demo` (the same id ignoring case as `Demo`) is also seeded by"), "\(error)")
            }
            _ = try await server.client.admin.createProject(name: "lower", id: "demo")
            do {
                _ = try await store.seed(from: single.path, skipInvalid: false)
                Issue.record("a seed file for `Demo` was taken beside `demo`")
            } catch let error as BundleFileError {
                #expect(error.file == single.appendingPathComponent("Demo.json").path)
                #expect(error.reason.contains("Project id `Demo` differs only in case from project `demo`"), "\(error)")
                Self.expectNoSQL(error.reason)
            }
            #expect(try await server.client.admin.projects().map(\.id) == ["demo"])
        }
    }

    @Test("PostgreSQL, two instances on one database: `demo` made on A, `Demo` on B is a 409 naming `demo`")
    func twoInstances() async throws {
        try await MultiInstanceTests.withPair { a, b in
            _ = try await a.client.admin.createProject(name: "lower", id: "demo")
            let refused = await BundleSupport.status { _ = try await b.client.admin.createProject(name: "upper", id: "Demo") }
            #expect(refused?.status == 409 && refused?.body.contains("differs only in case from project `demo`") == true, "\(String(describing: refused))")
            let imported = await BundleSupport.status {
                _ = try await b.client.admin.importProject(Data(#"{"format": "understudy-bundle", "version": 1}"#.utf8), id: "DEMO")
            }
            #expect(imported?.status == 409 && imported?.body.contains("differs only in case from project `demo`") == true, "\(String(describing: imported))")
        }
    }

    @Test("a database holding `demo` and `Demo` from before starts, warns naming both, serves each exactly, and exports only `demo.json`")
    func existingTwins() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("case-legacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("legacy.sqlite").path
        do {
            let connection = try SQLiteConnection(path: database)
            _ = try connection.scalar("PRAGMA journal_mode = WAL")
            let migrations = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrations
            _ = try Migrator(migrations: migrations.filter { $0.number < 300 }).migrate(connection)
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('demo', 'lower', '2026-01-01T00:00:00.000Z')")
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('Demo', 'upper', '2026-01-02T00:00:00.000Z')")
        }
        let exports = folder.appendingPathComponent("exports")
        let run = try await BundleFilesTests.runBinary(["--database", database, "--fixtures", "", "--export-on-exit", exports.path]) { _ in }
        #expect(run.ending == .exited(0), "\(run.errors)")
        #expect(run.errors.contains("project ids differ only in case ids=Demo, demo"), "\(run.errors)")
        #expect(run.errors.contains("project bundle not exported file=\(exports.appendingPathComponent("Demo.json").path)"), "\(run.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: exports.path).filter { !$0.hasPrefix(".") } == ["demo.json"])
        // Each is still served by its exact id, and the older keeps its place when replaced.
        try await UnderstudyTestServer.with(configure: { $0.databasePath = database }) { server in
            let admin = server.client.admin
            #expect(try await admin.project("Demo").get().name == "upper")
            #expect(try await admin.project("demo").get().name == "lower")
            let bundle = try await admin.project("Demo").export()
            #expect(try await admin.importProject(bundle, replacing: "Demo").name == "upper")
            let third = await BundleSupport.status { _ = try await admin.createProject(name: "third", id: "DEMO") }
            #expect(third?.status == 409)
        }
    }
}
