import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// An SDK configured with a base URL ending in `/` joins its paths with a second slash.
@Suite("Telematics base URL with a trailing slash")
struct TelematicsBaseURLTests {
    @Test("`…/telematics//api/v1/…` answers as `…/telematics/api/v1/…` and is journalled under the routed path")
    func doubledSlash() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let token = try await admin.mintTokens(userId: 2).token
            let headers = ["Authorization": "Bearer " + token]
            let single = try await server.client.send(ClientRequest(method: "GET", path: "/telematics/api/v1/trips", headers: headers))
            let doubled = try await server.client.send(ClientRequest(method: "GET", path: "/telematics//api/v1/trips", headers: headers))
            #expect(single.status == 200 && doubled.status == 200)
            #expect(doubled.body == single.body)
            let page = try await server.client.admin.project(project.id).requests(JournalQuery(platform: "telematics", limit: 1))
            #expect(page.requests.first?.path == "/telematics/api/v1/trips" && page.requests.first?.status == 200, "\(page.requests.map(\.path))")
        }
    }
}
