import EmulatorCore
import Foundation
import Storage
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A database holding values no request can write any more (a clock of 1e19 s from before the
/// bound, a timestamp cell that is not one) must not stop the server or the project list: the
/// one project's routes that read them answer a 409 naming it and saying how to repair it.
@Suite("Stored state the server cannot render")
struct StoredStateTests {
    @Test("a doctored database: the server starts, lists projects, and only the broken project answers 409")
    func doctoredDatabase() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctored-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        // SQLite on purpose, whatever UNDERSTUDY_TEST_DATABASE says: the test edits the file.
        let useFile: (inout ServerConfiguration) -> Void = { $0.databasePath = path }

        let first = try await UnderstudyTestServer.start(configure: useFile)
        let clocked = try await first.client.admin.createProject(name: "clocked", id: "clocked")
        let huge = try await first.client.admin.createProject(name: "huge", id: "huge")
        let stamped = try await first.client.admin.createProject(name: "stamped", id: "stamped")
        let healthy = try await first.client.admin.createProject(name: "healthy", id: "healthy")
        for project in [stamped, healthy] {
            _ = try await first.client.warpLink.project(project.id).createLink(WarpLinkLinkSeed(slug: "s-\(project.id)", destinationURL: "https://example.com/x"))
        }
        await first.stop()

        let connection = try SQLiteConnection(path: path)
        try connection.run("UPDATE projects SET clock_mode = 'offset', clock_offset_seconds = 1e19 WHERE id = 'clocked'")
        try connection.run("UPDATE projects SET clock_mode = 'frozen', clock_frozen_at = 1e300 WHERE id = 'huge'")
        try connection.run("UPDATE warplink_links SET created_at = 'not a time' WHERE project_id = 'stamped'")

        try await UnderstudyTestServer.with(configure: useFile) { server in
            let listed = try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects")
            #expect(listed.status == 200, "\(listed)")
            #expect(Set(try await server.client.admin.projects().map(\.id)).isSuperset(of: ["clocked", "huge", "stamped", "healthy"]))
            for project in [clocked, huge] {
                let clock = try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects/\(project.id)/clock")
                #expect(clock.status == 409 && clock.body.contains("`\(project.id)`") && clock.body.contains("PUT /__admin/projects/\(project.id)/clock"), "\(clock)")
                let sdk = try await ExtremeNumbersTests.send(
                    server, "GET", "/warplink/v1/sdk/validate",
                    headers: ["Authorization": "Bearer " + (project.credentials["warplink"]?["sdkKey"] ?? "")])
                #expect(sdk.status == 409 && sdk.body.contains("`\(project.id)`") && sdk.body.contains("\"error\""), "\(sdk)")
            }
            let links = try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects/stamped/warplink/links")
            #expect(links.status == 409 && links.body.contains("`stamped`") && links.body.contains("created_at"), "\(links)")
            #expect(try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects/healthy/warplink/links").status == 200)
            #expect(try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects/healthy/clock").status == 200)
            let validate = try await ExtremeNumbersTests.send(
                server, "GET", "/warplink/v1/sdk/validate",
                headers: ["Authorization": "Bearer " + (healthy.credentials["warplink"]?["sdkKey"] ?? "")])
            #expect(validate.status == 200, "\(validate)")
            // Setting the clock again repairs the project.
            #expect(try await ExtremeNumbersTests.send(server, "PUT", "/__admin/projects/clocked/clock", #"{"mode":"real"}"#).status == 200)
            #expect(try await ExtremeNumbersTests.send(server, "GET", "/__admin/projects/clocked/clock").status == 200)
        }
    }
}
