import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// What a refused import, project or seed directory tells the user: the project, credential or
/// bundle row in question, never the database's wording, and at start one line naming the file.
@Suite("Project and bundle messages")
struct BundleMessagesTests {
    /// `bundle`'s table `table` with `rows` appended (each row a copy of its first with `changes`).
    private func withRows(_ bundle: Data, table: String, _ changes: [[String: JSONValue]]) throws -> Data {
        try BundleSupport.edited(bundle) { members in
            guard case .object(var tables)? = members["tables"], case .object(var copy)? = tables[table],
                let columns = copy["columns"]?.arrayValue, case .array(var rows)? = copy["rows"], case .array(let first)? = rows.first
            else {
                Issue.record("no rows in \(table)")
                return
            }
            for change in changes {
                var row = first
                for (column, value) in change { if let index = columns.firstIndex(of: .string(column)) { row[index] = value } }
                rows.append(.array(row))
            }
            copy["rows"] = .array(rows)
            tables[table] = .object(copy)
            members["tables"] = .object(tables)
        }
    }

    /// A project with one WarpLink link, exported and deleted (so its keys are free again).
    private func orphanBundle(_ server: UnderstudyTestServer) async throws -> Data {
        let project = try await server.client.admin.createProject(name: "source")
        _ = try await server.client.warpLink.project(project.id).createLink(WarpLinkLinkSeed(slug: "only", destinationURL: "https://example.com/x"))
        let bundle = try await server.client.admin.project(project.id).export()
        try await server.client.admin.project(project.id).delete()
        return bundle
    }

    @Test("a row repeated inside one bundle is a duplicate within the bundle, naming the table, rows and key")
    func duplicateWithinBundle() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = try await orphanBundle(server)
            // The same link id twice: the second row repeats the first's key.
            let twice = try withRows(bundle, table: "warplink_links", [["slug": "other"]])
            let refused = await BundleSupport.status { _ = try await server.client.admin.importProject(twice, id: "imported") }
            #expect(refused?.status == 400)
            #expect(refused?.body.contains("Table `warplink_links` of the bundle holds two rows with the same `id`") == true, "\(String(describing: refused))")
            #expect(refused?.body.contains("(rows 0 and 1); each must be unique within the bundle.") == true, "\(String(describing: refused))")
            #expect(refused?.body.contains("another project") == false)
            ProjectIDCaseTests.expectNoSQL(refused?.body)
            // Two slugs on one domain: a unique key that is not the primary key.
            let slugs = try withRows(bundle, table: "warplink_links", [["id": "second-link"]])
            let slugClash = await BundleSupport.status { _ = try await server.client.admin.importProject(slugs, id: "imported") }
            #expect(slugClash?.status == 400 && slugClash?.body.contains("the same `domain`, `slug`") == true, "\(String(describing: slugClash))")
            ProjectIDCaseTests.expectNoSQL(slugClash?.body)
            #expect(try await server.client.admin.projects().isEmpty)
        }
    }

    @Test("a row holding another project's unique key is a 409 naming that project and the key, not the database's columns")
    func collisionWithAnotherProject() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = try await orphanBundle(server)
            let holder = try await server.client.admin.createProject(name: "holder", id: "holder")
            let app = try await server.client.warpLink.project(holder.id).createApp(name: "Shop", handle: "shop-handle")
            let stolen = try BundleSupport.edited(bundle) { members in
                guard case .object(var tables)? = members["tables"] else { return }
                tables["warplink_apps"] = ["columns": ["id", "name", "handle", "created_at"], "rows": [["app_x", "Copy", .string(app.handle), "2026-01-01T00:00:00.000Z"]]]
                members["tables"] = .object(tables)
            }
            let refused = await BundleSupport.status { _ = try await server.client.admin.importProject(stolen, id: "imported") }
            #expect(refused?.status == 409)
            #expect(
                refused?.body.contains("Row 0 of table `warplink_apps` has the same `handle` (`shop-handle`) as a row of project `holder`") == true,
                "\(String(describing: refused))")
            ProjectIDCaseTests.expectNoSQL(refused?.body)
            #expect(refused?.body.contains("warplink_apps.handle") == false)
        }
    }

    @Test("a value a table's CHECK refuses is a 400 naming the row and table, without the CHECK's SQL")
    func checkConstraint() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.client.admin.createProject(name: "source")
            let bundle = try await server.client.admin.project(project.id).export()
            try await server.client.admin.project(project.id).delete()
            let bad = try BundleSupport.edited(bundle) { members in
                guard case .object(var tables)? = members["tables"], case .object(var keys)? = tables["warplink_keys"],
                    let columns = keys["columns"]?.arrayValue, let kind = columns.firstIndex(of: "kind"),
                    case .array(var rows)? = keys["rows"], case .array(var row)? = rows.first
                else { Issue.record("no warplink_keys"); return }
                row[kind] = "superuser"
                rows[0] = .array(row)
                keys["rows"] = .array(rows)
                tables["warplink_keys"] = .object(keys)
                members["tables"] = .object(tables)
            }
            let refused = await BundleSupport.status { _ = try await server.client.admin.importProject(bad, id: "imported") }
            #expect(refused?.status == 400)
            #expect(refused?.body.contains("Row 0 of table `warplink_keys`") == true, "\(String(describing: refused))")
            ProjectIDCaseTests.expectNoSQL(refused?.body)
            #expect(refused?.body.contains("CHECK") == false && refused?.body.contains(" IN (") == false)
        }
    }

    @Test("creating a project with a credential another project uses is a 409 naming both, without SQL")
    func createWithTakenCredential() async throws {
        try await UnderstudyTestServer.with { server in
            let first = try await server.client.admin.createProject(name: "first", id: "first")
            let key = first.credential("warplink", "sdkKey")
            let refused = await BundleSupport.status {
                _ = try await server.client.admin.createProject(name: "second", id: "second", credentials: ["warplink": ["sdkKey": key]])
            }
            #expect(refused?.status == 409)
            #expect(
                refused?.body.contains("Credential `warplink.sdkKey` (`\(key.prefix(8))…`) is already used by project `first`.") == true,
                "\(String(describing: refused))")
            #expect(refused?.body.contains("credential_conflict") == true)
            ProjectIDCaseTests.expectNoSQL(refused?.body)
            #expect(try await server.client.admin.projects().map(\.id) == ["first"])
        }
    }

    @Test("--seed-dir: a credential conflict stops start-up with one line naming the seed file, never a struct dump or SQL")
    func seedConflictLine() async throws {
        // The demo project's own export, seeded under another id: the demo fixtures then collide with it.
        let demo = try await UnderstudyTestServer.with(demo: true) { server in try await server.client.admin.project("demo").export() }
        let seeds = FileManager.default.temporaryDirectory.appendingPathComponent("seed-conflict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: seeds, withIntermediateDirectories: true)
        let other = seeds.appendingPathComponent("other.json")
        try BundleSupport.edited(demo) { $0["project"] = ["id": "other", "name": "Other"] }.write(to: other)
        let withFixtures = try await BundleFilesTests.runBinary(["--seed-dir", seeds.path])
        #expect(withFixtures.ending == .exited(1))
        let line = withFixtures.errors.split(separator: "\n").first { $0.contains("cannot start") }.map(String.init) ?? ""
        #expect(line.hasPrefix("understudy: cannot start: The demo project ("), "\(withFixtures.errors)")
        #expect(line.contains("is already used by project `other`") && line.contains("Project `other` was seeded from \(other.path)."), "\(line)")
        // Two seed files with the same credentials: the second one is named.
        try BundleSupport.edited(demo) { $0["project"] = ["id": "second", "name": "Second"] }.write(to: seeds.appendingPathComponent("second.json"))
        let twoFiles = try await BundleFilesTests.runBinary(["--seed-dir", seeds.path, "--fixtures", ""])
        #expect(twoFiles.ending == .exited(1))
        let twoLine = twoFiles.errors.split(separator: "\n").first { $0.contains("cannot start") }.map(String.init) ?? ""
        #expect(twoLine.hasPrefix("understudy: cannot start: seed bundle \(seeds.appendingPathComponent("second.json").path): Credential `"), "\(twoFiles.errors)")
        #expect(twoLine.contains("is already used by project `other`; delete that project or take the credentials out of the seed file."), "\(twoLine)")
        for errors in [withFixtures.errors, twoFiles.errors] {
            #expect(!errors.contains("AdminError(") && !errors.contains("status:") && !errors.contains("details:"), "\(errors)")
            ProjectIDCaseTests.expectNoSQL(errors)
        }
    }
}
