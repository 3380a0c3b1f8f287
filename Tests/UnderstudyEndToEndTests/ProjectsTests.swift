import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Projects")
struct ProjectsTests {
    @Test("a new project gets credentials and base URLs for all four platforms")
    func createProject() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.client.admin.createProject(name: "checkout")
            #expect(project.name == "checkout")
            #expect(project.id.hasPrefix("prj_"))
            let sdkKey = project.credential("warplink", "sdkKey")
            #expect(sdkKey.hasPrefix("wl_live_") && sdkKey.count == 8 + 32)
            #expect(!project.credential("asleep", "apiKey").isEmpty)
            #expect(!project.credential("warrantylife", "developerKey").isEmpty)
            #expect(!project.credential("telematics", "serviceCode").isEmpty)
            #expect(Set(project.baseURLs.keys) == ["warplink", "asleep", "warrantylife", "telematics"])
            #expect(project.baseURLs["asleep"] == server.url.absoluteString + "/asleep")

            let fetched = try await server.client.admin.project(project.id).get()
            #expect(fetched.id == project.id && fetched.createdAt == project.createdAt)
            #expect(fetched.credentials == project.credentials && fetched.sdkSettings == project.sdkSettings)
            let all = try await server.client.admin.projects()
            #expect(all.map(\.id).contains(project.id))
        }
    }

    @Test("seeded projects get repeatable credentials")
    func seeded() async throws {
        try await UnderstudyTestServer.with { first in
            try await UnderstudyTestServer.with { second in
                let a = try await first.client.admin.createProject(name: "a", seed: 42)
                let b = try await second.client.admin.createProject(name: "a", seed: 42)
                #expect(a.id == b.id)
                #expect(a.credentials == b.credentials)
                await #expect(throws: UnderstudyClientError.self) {
                    _ = try await first.client.admin.createProject(name: "again", seed: 42)
                }
            }
        }
    }

    @Test("unknown project is a 404 in the control plane's format; bad JSON is a 400")
    func errors() async throws {
        try await UnderstudyTestServer.with { server in
            let missing = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/projects/prj_nope"))
            #expect(missing.status == 404)
            #expect(try missing.decode(AdminErrorBody.self).error.code == "not_found")
            let bad = try await server.client.send(
                ClientRequest(method: "POST", path: "/__admin/projects", headers: ["Content-Type": "application/json"], body: Data("{nope".utf8)))
            #expect(bad.status == 400)
            #expect(try bad.decode(AdminErrorBody.self).error.code == "invalid_json")
            let unknownKey = try await server.client.send(.json("POST", "/__admin/projects", ["nmae": "typo"]))
            #expect(unknownKey.status == 400)
            #expect(try unknownKey.decode(AdminErrorBody.self).error.code == "unknown_field")
            #expect(try await server.client.admin.projects().isEmpty)
        }
    }

    @Test("deleting a project removes it; reset keeps its credentials")
    func deleteAndReset() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject()
            let reset = try await server.client.admin.project(project.id).reset()
            #expect(reset.credentials == project.credentials)
            try await server.client.admin.project(project.id).delete()
            let missing = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/projects/\(project.id)"))
            #expect(missing.status == 404)
        }
    }
}
