import EmulatorCore
import Foundation
import Storage
import Testing

@testable import WarpLinkEmulator

/// The 1.1 SDKs' local key check: `wl_live_` + 32 alphanumerics, nothing else.
private func passesSDK11Check(_ key: String) -> Bool {
    key.range(of: "^wl_live_[a-zA-Z0-9]{32}$", options: .regularExpression) != nil
}

@Suite("WarpLink keys, SDK settings and storage errors")
struct KeyFormatAndErrorTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("generated project keys are wl_live_ keys the 1.1 SDKs accept locally")
    func generatedKeys() {
        var generator = IDGenerator(seed: 42)
        let credentials = WarpLinkPlatform().makeCredentials(using: &generator)
        #expect(Set(credentials.keys) == ["sdkKey", "apiKey"])
        for (name, value) in credentials { #expect(passesSDK11Check(value), "\(name)=\(value)") }
        #expect(credentials["sdkKey"] != credentials["apiKey"])
        var again = IDGenerator(seed: 7)
        #expect(passesSDK11Check(WarpLinkNames.liveKey(using: &again)))
    }

    @Test("wl_test_ keys stay well-formed for explicit seeding")
    func testKeysStayAccepted() {
        #expect(WarpLinkNames.isWellFormedKey("wl_test_" + String(repeating: "a", count: 32)))
        #expect(!passesSDK11Check("wl_test_" + String(repeating: "a", count: 32)))
    }

    @Test("every WarpLink key in the shipped fixtures passes the 1.1 SDK check")
    func fixtureKeys() throws {
        let fixtures = Self.repository.appendingPathComponent("Config/fixtures")
        let warplink = try JSONValue.parse(Data(contentsOf: fixtures.appendingPathComponent("warplink.json")))
        let seeded = (warplink["keys"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
        #expect(seeded.count == 2)
        let project = try JSONValue.parse(Data(contentsOf: fixtures.appendingPathComponent("project.json")))
        let credentials = ["sdkKey", "apiKey"].compactMap { project["credentials"]?["warplink"]?[$0]?.stringValue }
        #expect(credentials.count == 2)
        for key in seeded + credentials { #expect(passesSDK11Check(key), "\(key)") }
    }

    @Test("sdkSettings names only SDK settings: apiEndpoint and the SDK key as apiKey, never the API key")
    func sdkSettings() {
        let settings = WarpLinkPlatform().sdkSettings(
            endpoints: AdvertisedEndpoints(baseURL: "http://127.0.0.1:8080"),
            credentials: [
                "sdkKey": "wl_live_" + String(repeating: "s", count: 32),
                "apiKey": "wl_live_" + String(repeating: "a", count: 32),
            ])
        #expect(settings == ["apiEndpoint": "http://127.0.0.1:8080/warplink/v1", "apiKey": "wl_live_" + String(repeating: "s", count: 32)])
        #expect(WarpLinkPlatform().sdkConnection == .baseURL(setting: "apiEndpoint"))
    }

    /// SQLite's own words and table names in any case, statement keywords in upper case.
    static func showsSQL(_ body: Data) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        return ["sqlite", "constraint failed", "warplink_"].contains { text.range(of: $0, options: .caseInsensitive) != nil }
            || ["INSERT", "SELECT", "UPDATE", "DELETE", "WHERE", "VALUES"].contains { text.contains($0) }
    }

    @Test("constraint failures become 409 (unique) or 400 (other) in both formats, without SQL text")
    func constraintFailures() throws {
        let unique = SQLiteError(
            code: 2067, message: "UNIQUE constraint failed: warplink_installs.project_id, warplink_installs.id",
            sql: "INSERT INTO warplink_installs (project_id, id) VALUES (?, ?)")
        let check = SQLiteError(code: 275, message: "CHECK constraint failed: kind IN ('sdk', 'api')", sql: "INSERT INTO warplink_keys …")
        let sdkConflict = WarpLinkError(failure: .constraintViolation(unique: unique.isUniqueViolation)).response
        #expect(sdkConflict.status == 409 && !Self.showsSQL(sdkConflict.body))
        #expect(try JSONValue.parse(sdkConflict.body)["error"]?["code"]?.stringValue == "CONFLICT")
        let sdkInvalid = WarpLinkError(failure: .constraintViolation(unique: check.isUniqueViolation)).response
        #expect(sdkInvalid.status == 400 && !Self.showsSQL(sdkInvalid.body))
        #expect(try JSONValue.parse(sdkInvalid.body)["error"]?["code"]?.stringValue == "VALIDATION_ERROR")
        let adminConflict = AdminError(constraint: unique).response
        #expect(adminConflict.status == 409 && !Self.showsSQL(adminConflict.body))
        #expect(try JSONValue.parse(adminConflict.body)["error"]?["code"]?.stringValue == "conflict")
        let adminInvalid = AdminError(constraint: check).response
        #expect(adminInvalid.status == 400 && !Self.showsSQL(adminInvalid.body))
    }
}
