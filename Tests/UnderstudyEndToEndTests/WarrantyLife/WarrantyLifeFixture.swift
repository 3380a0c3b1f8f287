import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// A running server, a fresh project and its WarrantyLife key, for one test.
struct WarrantyLifeFixture {
    let server: UnderstudyTestServer
    let project: Project
    let key: String

    var client: Understudy { server.client }
    var admin: WarrantyLifeAdmin { server.client.warrantyLife.admin(project.id) }
    var projectAdmin: ProjectAdmin { server.client.admin.project(project.id) }

    /// Runs `body` with a fresh fixture and stops its server before returning, also when `body` throws.
    /// The client goes through the server's pipeline in process (`.router`) unless `transport` says `.live`.
    /// Unless `expectingFindings`, the test then fails on any integration-check finding of the
    /// project: every flow these tests drive uses the SDK as its documentation says.
    static func with<T>(
        transport: UnderstudyTestServer.Transport = .router, configure: (inout ServerConfiguration) -> Void = { _ in },
        expectingFindings: Bool = false, _ body: (WarrantyLifeFixture) async throws -> T
    ) async throws -> T {
        try await UnderstudyTestServer.with(transport: transport, configure: configure) { server in
            let project = try await server.makeProject(name: "warrantylife")
            let result = try await body(WarrantyLifeFixture(server: server, project: project, key: project.credential("warrantylife", "developerKey")))
            if !expectingFindings { try await server.expectNoFindings(project: project.id) }
            return result
        }
    }

    /// An SDK repository for `device`, whose upload back-off (1, 2, 4 s) moves the project's
    /// clock on instead of sleeping.
    func repository(device: String = "6F1C2A9E-0B2D-4C5E-9F00-1234567890AB", key: String? = nil) -> WarrantyLifeRepository {
        let project = projectAdmin
        return client.warrantyLife.repository(apiKey: key ?? self.key, deviceID: device) { seconds in _ = try await project.advanceClock(by: seconds) }
    }

    /// Creates a user and returns its id.
    @discardableResult
    func user(_ email: String, password: String = "secret-pass", activated: Bool = true) async throws -> String {
        let created = try await admin.createUser(["email": .string(email), "password": .string(password), "firstName": "Jane", "activated": .bool(activated)])
        return created["userId"]?.string ?? ""
    }

    /// A raw SDK-route request with the project's key.
    func raw(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:], body: Data? = nil,
        key: String? = nil, login: WarrantyLifeLoginResponse? = nil
    ) async throws -> ClientResponse {
        var all = headers
        if let key = key ?? Optional(self.key), !key.isEmpty { all["X-WL-Developer-Key"] = key }
        if let login { all["Authorization"] = "Basic " + Data("\(login.identity):\(login.token)".utf8).base64EncodedString() }
        return try await client.send(ClientRequest(method: method, path: "/warrantylife/mapi/wi/100" + path, query: query, headers: all, body: body))
    }

    /// Registration data as the SDK collects it after the tests.
    static func registration(
        eventAt: String = "2026-11-30 10:15:00.250", imei: String? = "356938035643809",
        images: [(String, Data)] = [("reference", Data("front-glass".utf8)), ("test", Data("back-glass".utf8))]
    ) -> WarrantyLifeRegistrationData {
        let readings: [AnyJSON] = (0..<5).map { index in
            [
                "readingAt": .string("2026-11-30 10:15:00.\(300 + index)"), "accelerationX": .double(0.1 * Double(index)), "accelerationY": 0.0, "accelerationZ": -9.81,
                "gyroscopeX": 0.0, "gyroscopeY": 0.0, "gyroscopeZ": 0.0, "pitch": 1.0, "roll": 2.0, "yaw": 3.0, "relativeAltitude": -1, "pressure": -1, "phase": 5000,
            ]
        }
        return WarrantyLifeRegistrationData(
            model: "iPhone 13 Pro", mpn: "iPhone14,2", imei: imei, eventAt: eventAt, readings: readings, audio: Data("RIFFaudio".utf8),
            diagnostic: [
                "brand": "Apple", "resultCode": "P", "sim": "N/A", "appVersion": "3.1.0", "osVersion": "17.5",
                "screenResolution": "390 x 844 pixels", "storage": 128, "storageUsed": 64, "ram": 6_000_000_000,
            ],
            images: images.map { (kind: $0.0, data: $0.1) })
    }
}

/// A WarrantyLife error body from a response.
func wlError(_ response: ClientResponse) throws -> WarrantyLifeAPIError {
    var error = try response.decode(WarrantyLifeAPIError.self)
    error.status = response.status
    return error
}

/// The WarrantyLife error a client call threw.
func wlError(_ body: () async throws -> Void) async -> WarrantyLifeAPIError? {
    do { try await body() } catch let error as UnderstudyClientError { return WarrantyLifeAPIError(error) } catch { return nil }
    return nil
}
