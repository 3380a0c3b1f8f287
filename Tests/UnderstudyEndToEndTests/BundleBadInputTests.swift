import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Project bundles: bad input")
struct BundleBadInputTests {
    /// Imports `bundle` and expects `status` with `words` in the error body and no project added.
    private func refused(
        _ server: UnderstudyTestServer, _ bundle: Data, status: Int = 400, _ words: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await server.client.admin.projects().map(\.id)
        let failure = await BundleSupport.status { _ = try await server.client.admin.importProject(bundle, id: "imported") }
        #expect(failure?.status == status, "\(String(describing: failure))", sourceLocation: sourceLocation)
        for word in words {
            #expect(failure?.body.contains(word) == true, "`\(word)` not in \(failure?.body ?? "no error")", sourceLocation: sourceLocation)
        }
        #expect(try await server.client.admin.projects().map(\.id) == before, sourceLocation: sourceLocation)
    }

    /// A valid bundle of a fresh project that was then deleted (so its keys are free again).
    private func orphanBundle(_ server: UnderstudyTestServer) async throws -> Data {
        let project = try await server.client.admin.createProject(name: "source")
        _ = try await server.client.warpLink.project(project.id).createLink(
            WarpLinkLinkSeed(
                slug: "s" + UUID().uuidString.prefix(8).lowercased(),
                destinationURL: "https://example.com/x"))
        let bundle = try await server.client.admin.project(project.id).export()
        try await server.client.admin.project(project.id).delete()
        return bundle
    }

    /// `bundle` with `value` in column `column` of the first row of `table`.
    private func withValue(_ bundle: Data, table: String, column: String, _ value: JSONValue) throws -> Data {
        try BundleSupport.edited(bundle) { members in
            guard case .object(var tables)? = members["tables"], case .object(var copy)? = tables[table],
                let columns = copy["columns"]?.arrayValue, let index = columns.firstIndex(of: .string(column)),
                case .array(var rows)? = copy["rows"], case .array(var row)? = rows.first
            else {
                Issue.record("no column \(column) in \(table)")
                return
            }
            row[index] = value
            rows[0] = .array(row)
            copy["rows"] = .array(rows)
            tables[table] = .object(copy)
            members["tables"] = .object(tables)
        }
    }

    @Test("not JSON, not an object, a wrong format, no or an unknown version, an unknown member")
    func shape() async throws {
        try await UnderstudyTestServer.with { server in
            try await refused(server, Data("{not json".utf8), "not JSON")
            try await refused(server, Data("[1]".utf8), "JSON object")
            try await refused(server, Data(), "must be a bundle")
            try await refused(server, Data(#"{"format": "firebase-export", "version": 1}"#.utf8), "`format` must be `understudy-bundle`")
            try await refused(server, Data(#"{"format": "understudy-bundle"}"#.utf8), "`version` must be an integer", "0, 1")
            try await refused(server, Data(#"{"format": "understudy-bundle", "version": 7}"#.utf8), "Bundle version 7 is not supported", "versions 0, 1", "unsupported_version")
            try await refused(server, Data(#"{"format": "understudy-bundle", "version": 1, "snapshots": []}"#.utf8), "Unknown bundle member `snapshots`")
            try await refused(server, Data(#"{"format": "understudy-bundle", "version": 1, "credentials": {"firebase": {"k": "v"}}}"#.utf8), "Unknown platform `firebase`")
            try await refused(server, Data(#"{"format": "understudy-bundle", "version": 1, "clock": {"mode": "frozen"}}"#.utf8), "frozenAt")
            try await refused(
                server, Data(#"{"format": "understudy-bundle", "version": 1, "faultRules": [{"match": {}, "action": {"type": "status", "status": 503}, "times": 0}]}"#.utf8),
                "faultRules[0]", "times must be at least 1")
            let query = await BundleSupport.status {
                _ = try await server.client.admin.raw(ClientRequest(method: "POST", path: "/__admin/projects/import", query: [("force", "1")], body: Data("{}".utf8))).expect(
                    201, as: AnyJSON.self)
            }
            #expect(query?.status == 400 && query?.body.contains("Unknown query parameter `force`") == true)
        }
    }

    @Test("unknown tables and columns, wrong types, nulls, another project's rows and constraint failures name the problem")
    func rows() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = try await orphanBundle(server)
            try await refused(server, try BundleSupport.edited(bundle) { $0["tables"] = ["journal": ["columns": [], "rows": []]] }, "Unknown table `journal`")
            try await refused(
                server, try BundleSupport.edited(bundle) { $0["tables"] = ["warplink_links": ["columns": ["colour"], "rows": [["red"]]]] },
                "Unknown column `colour` in table `warplink_links`")
            try await refused(
                server, try BundleSupport.edited(bundle) { $0["tables"] = ["warplink_links": ["columns": ["id"], "rows": [["a", "b"]]]] },
                "Row 0 of table `warplink_links` must be an array of 1 values")
            try await refused(server, try withValue(bundle, table: "warplink_links", column: "is_active", "yes"), "`is_active` must be an integer")
            try await refused(server, try withValue(bundle, table: "warplink_links", column: "slug", 42), "`slug` must be a string")
            try await refused(server, try withValue(bundle, table: "warplink_links", column: "slug", .null), "`slug` must not be null")
            try await refused(server, try withValue(bundle, table: "warplink_links", column: "custom_params", ["nested": true]), "`custom_params` must be a string")
            // A rowless table may leave columns out; one with rows must give every required one.
            try await refused(
                server, try BundleSupport.edited(bundle) { $0["tables"] = ["warplink_links": ["columns": ["id"], "rows": [["x"]]]] },
                "leaves out column")
            // A CHECK constraint: a 400 naming the row and table, in the bundle's words.
            try await refused(server, try withValue(bundle, table: "warplink_keys", column: "kind", "superuser"), "Row 0 of table `warplink_keys`")
            // Rows that claim another project are refused, not moved.
            let claimed = try BundleSupport.edited(bundle) { members in
                members["tables"] = ["warplink_settings": ["columns": ["project_id", "settings"], "rows": [["someone-else", "{}"]]]]
            }
            try await refused(server, claimed, "claims project_id", "someone-else")
            // The bundle imports once the problems are gone: the refusals above were about the rows.
            #expect(try await server.client.admin.importProject(bundle, id: "imported").id == "imported")
        }
    }

    @Test("a row holding another project's unique key is a 409")
    func uniqueKey() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = try await orphanBundle(server)
            let holder = try await server.client.admin.createProject(name: "holder")
            let handle = try JSONValue.parse(bundle)["tables"]?["warplink_apps"]
            #expect(handle == nil) // no apps in the source: seed one in the holder and copy its handle into the bundle
            let app = try await server.client.warpLink.project(holder.id).createApp(name: "Shop", handle: "shop" + UUID().uuidString.prefix(6).lowercased())
            let stolen = try BundleSupport.edited(bundle) { members in
                guard case .object(var tables)? = members["tables"] else { return }
                tables["warplink_apps"] = ["columns": ["id", "name", "handle", "created_at"], "rows": [["app_x", "Copy", .string(app.handle), "2026-01-01T00:00:00.000Z"]]]
                members["tables"] = .object(tables)
            }
            try await refused(server, stolen, status: 409, "Row 0 of table `warplink_apps` has the same `handle`", "as a row of project `\(holder.id)`")
        }
    }

    @Test("a bundle larger than the body limit is a 413 and imports nothing")
    func tooLarge() async throws {
        try await UnderstudyTestServer.with(configure: { $0.maxBodyBytes = 4096 }) { server in
            let padding = String(repeating: "x", count: 8192)
            try await refused(server, Data(#"{"format": "understudy-bundle", "version": 1, "project": {"name": "\#(padding)"}}"#.utf8), status: 413, "larger than the limit")
        }
    }
}
