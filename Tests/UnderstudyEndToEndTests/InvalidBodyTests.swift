import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// JSON bodies that are not UTF-8, and control-plane bodies with unknown keys: each answered with
/// a 400 in the format of whoever owns the route, and nothing stored. (Asleep and WarrantyLife have
/// their own cases in their contract tests.)
@Suite("Invalid JSON bodies")
struct InvalidBodyTests {
    static let json = ["Content-Type": "application/json"]

    /// `prefix`, a byte no UTF-8 text contains, then `suffix`: valid JSON in every other way.
    static func notUTF8(_ prefix: String, _ suffix: String) -> Data { Data(prefix.utf8) + Data([0xFF]) + Data(suffix.utf8) }

    @Test("WarpLink: a match body that is not UTF-8 is a 400 VALIDATION_ERROR and records no install")
    func warpLink() async throws {
        try await WarpLinkHarness.with { h in
            var body = try JSONEncoder().encode(WarpLinkAttributionRequest(platform: "android", fingerprintVersion: "basic", acceptLanguage: "en", timezoneOffset: 0))
            // An extra member the route ignores, so only the bytes themselves can make it fail.
            body.removeLast()
            body += Self.notUTF8(#","note":"a"#, #""}"#)
            let response = try await h.server.client.send(
                ClientRequest(method: "POST", path: "/warplink/v1/attribution/match", headers: Self.json.merging(["Authorization": "Bearer " + h.sdkKey]) { $1 }, body: body))
            #expect(response.status == 400, "\(response.text)")
            #expect(try response.json()["error"]?["code"]?.string == "VALIDATION_ERROR")
            #expect(try await h.admin.installs().isEmpty)
        }
    }

    @Test("Telematics: a vehicle body that is not UTF-8 is a 400 INVALID_REQUEST and creates no vehicle")
    func telematics() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let token = try await admin.mintTokens(userId: 1).token
            let body = Self.notUTF8(#"{"plate": "X"#, #"1", "type": 1, "fuelType": 1}"#)
            let (status, error) = try await TelematicsBadInputTests.send(server, "PUT", "/vehicles/current", token: token, body: body)
            #expect(status == 400 && error?.code == "INVALID_REQUEST" && error?.status == 400)
            let current = try await TelematicsBadInputTests.send(server, "GET", "/vehicles/current", token: token)
            #expect(current.0 != 200)
        }
    }

    @Test("control plane: a body that is not UTF-8 is a 400 invalid_json and creates no project")
    func controlPlane() async throws {
        try await UnderstudyTestServer.with { server in
            let response = try await server.client.send(
                ClientRequest(method: "POST", path: "/__admin/projects", headers: Self.json, body: Self.notUTF8(#"{"name": "a"#, #""}"#)))
            #expect(response.status == 400)
            let error = try response.decode(AdminErrorBody.self).error
            #expect(error.code == "invalid_json" && error.message.contains("UTF-8"), "\(error.message)")
            #expect(try await server.client.admin.projects().isEmpty)
        }
    }

    @Test("control plane: an unknown key is a 400 naming it even when its value is null; a known optional null is fine")
    func unknownNullKey() async throws {
        try await UnderstudyTestServer.with { server in
            let typo = try await server.client.send(.json("POST", "/__admin/projects", ["name": "a", "sede": AnyJSON.null] as [String: AnyJSON]))
            #expect(typo.status == 400)
            let error = try typo.decode(AdminErrorBody.self).error
            #expect(error.code == "unknown_field" && error.message.contains("`sede`"), "\(error.message)")
            #expect(try await server.client.admin.projects().isEmpty)
            let known = try await server.client.send(.json("POST", "/__admin/projects", ["name": "a", "seed": AnyJSON.null] as [String: AnyJSON]))
            #expect(known.status == 201, "\(known.text)")
        }
    }
}
