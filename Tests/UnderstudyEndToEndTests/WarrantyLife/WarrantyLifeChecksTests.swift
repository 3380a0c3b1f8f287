import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// WarrantyLife's integration checks end to end: for each rule, the registration the iOS guide
/// describes (a host that retries `registerDevice`, an SDK that backs off 1, 2 and 4 s) raises no
/// finding, and the mistake exactly one. The repository's back-off moves the frozen project clock.
@Suite("WarrantyLife integration checks")
struct WarrantyLifeChecksTests {
    /// A signed-in repository on a frozen clock, with its item.
    static func with(_ body: (WarrantyLifeFixture, WarrantyLifeRepository, WarrantyLifeLoginResponse) async throws -> Void) async throws {
        try await WarrantyLifeFixture.with(expectingFindings: true) { (f: WarrantyLifeFixture) async throws in
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T10:00:00Z")
            try await f.user("jane@example.com")
            let repo = f.repository()
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            try await body(f, repo, login)
        }
    }

    static func rules(_ f: WarrantyLifeFixture) async throws -> [String] { try await f.projectAdmin.findings().map(\.rule).sorted() }

    static func fail(_ f: WarrantyLifeFixture, _ path: String, status: Int, times: Int) async throws {
        _ = try await f.projectAdmin.addFault(
            FaultRule(match: .init(platform: "warrantylife", method: "POST", path: path), action: .init(type: "status", status: status), times: times))
    }

    @Test("the guide's retry of registerDevice (transient readings, a failed report) raises nothing; a rebuilt SDK re-creating the Sensor Event one finding")
    func sensorEventRecreated() async throws {
        try await Self.with { (f: WarrantyLifeFixture, repo: WarrantyLifeRepository, _) async throws in
            try await Self.fail(f, "**/readings", status: 503, times: 2)
            try await Self.fail(f, "**/diagnostics", status: 500, times: 1)
            let data = WarrantyLifeFixture.registration()
            #expect(await repo.registerDevice(data).last == .uploadError(message: "Internal server error.", code: 5000))
            #expect(await repo.registerDevice(data).last == .success)
            #expect(await repo.registerDevice(data).last == .success)
            #expect(try await Self.rules(f) == [])

            // A second SDK on the same device, with none of the first one's stored stages.
            let rebuilt = f.repository()
            try await rebuilt.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(await rebuilt.registerDevice(data).last == .success)
            let found = try await f.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warrantylife.sensor-event-recreated"])
            #expect(found.first?.device.hasPrefix("item:") == true && found.first?.whatTheAppDid.contains("2026-11-30 10:15:00.250") == true)
        }
    }

    @Test("readings and audio go up once per Sensor Event; uploading either again is one finding each")
    func readingsAndAudioReuploaded() async throws {
        try await Self.with { (f: WarrantyLifeFixture, repo: WarrantyLifeRepository, _) async throws in
            #expect(await repo.registerDevice(WarrantyLifeFixture.registration()).last == .success)
            let itemID = try #require(repo.itemID)
            // A new Sensor Test: a new event, its own readings and audio.
            let event = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 11:00:00.000", "sensorEventType": 1111])
            _ = try await repo.uploadSensorReadings(itemId: itemID, sensorEventId: event, readings: [["phase": 1]])
            _ = try await repo.uploadSensorAudio(itemId: itemID, sensorEventId: event, createdAt: "2026-11-30 11:00:00.000", audio: Data("a".utf8))
            #expect(try await Self.rules(f) == [])

            _ = try await repo.uploadSensorReadings(itemId: itemID, sensorEventId: event, readings: [["phase": 1]])
            #expect(try await Self.rules(f) == ["warrantylife.readings-reuploaded"])
            _ = try await repo.uploadSensorAudio(itemId: itemID, sensorEventId: event, createdAt: "2026-11-30 11:00:00.000", audio: Data("a".utf8))
            #expect(try await Self.rules(f) == ["warrantylife.audio-reuploaded", "warrantylife.readings-reuploaded"])
        }
    }

    @Test("a changed diagnostic is a new report with its images; the same report or image again is one finding each")
    func diagnosticAndImageRecreated() async throws {
        try await Self.with { (f: WarrantyLifeFixture, repo: WarrantyLifeRepository, _) async throws in
            var data = WarrantyLifeFixture.registration()
            #expect(await repo.registerDevice(data).last == .success)
            data.diagnostic["osVersion"] = "18.0"
            #expect(await repo.registerDevice(data).last == .success)
            #expect(try await f.admin.list("images").count == 4)
            #expect(try await Self.rules(f) == [])

            let itemID = try #require(repo.itemID)
            let report = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple", "ram": 4])
            _ = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["ram": 4, "brand": "Apple"]) // the same JSON, keys in another order
            #expect(try await Self.rules(f) == ["warrantylife.diagnostic-recreated"])
            _ = try await repo.uploadImage(itemId: itemID, diagnosticId: report, kind: "reference", image: Data("glass".utf8))
            _ = try await repo.uploadImage(itemId: itemID, diagnosticId: report, kind: "test", image: Data("glass".utf8)) // another kind: another stage
            _ = try await repo.uploadImage(itemId: itemID, diagnosticId: report, kind: "reference", image: Data("glass".utf8))
            #expect(try await Self.rules(f) == ["warrantylife.diagnostic-recreated", "warrantylife.image-reuploaded"])
        }
    }

    @Test("four attempts 1, 2 and 4 s apart, then the host's registerDevice at once, raise nothing; a retry without the back-off one finding")
    func uploadRetriedWithoutBackoff() async throws {
        try await Self.with { (f: WarrantyLifeFixture, repo: WarrantyLifeRepository, login: WarrantyLifeLoginResponse) async throws in
            try await Self.fail(f, "**/images/*", status: 503, times: 5)
            let data = WarrantyLifeFixture.registration()
            #expect(await repo.registerDevice(data).last == .uploadError(message: "The service is temporarily unavailable.", code: 5003))
            #expect(await repo.registerDevice(data).last == .success) // the host retries at once: a new round of attempts
            #expect(try await Self.rules(f) == [])

            let itemID = try #require(repo.itemID)
            let event = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 12:00:00.000", "sensorEventType": 1111])
            try await Self.fail(f, "**/readings", status: 503, times: 1)
            let path = "/items/\(itemID)/events/\(event)/readings"
            #expect(try await f.raw("POST", path, body: Data(#"[{"phase":1}]"#.utf8), login: login).status == 503)
            _ = try await f.projectAdmin.advanceClock(by: 0.2)
            #expect(try await f.raw("POST", path, body: Data(#"[{"phase":1}]"#.utf8), login: login).status == 201)
            let found = try await f.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warrantylife.upload-retried-without-backoff"])
            #expect(found.first?.whatTheAppDid.contains("waits 1 s before attempt 2") == true)
        }
    }
}
