import Foundation
import TestPostgres
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The per-device view end to end: the journal records the installation each SDK request
/// concerns, the control plane lists devices and one device's requests, and forgetting a device
/// removes what its platform keeps for it, so the first launch can run again.
@Suite("Devices: the per-device view and forgetting a device")
struct DevicesTests {
    static let product = AsleepProductInfo(model: "model-123", identifierValue: "SN-0001")
    static let device = "SERIAL:SN-0001"

    /// The status of the control-plane error `body` threw; nil when it threw none.
    static func status(_ body: () async throws -> Void) async -> Int? {
        do { try await body() } catch let UnderstudyClientError.unexpectedStatus(status, _) { return status } catch { return -1 }
        return nil
    }

    /// An Asleep first launch on `server`'s project: registration, then the config with its product key.
    static func firstLaunch(_ server: UnderstudyTestServer, apiKey: String) async throws -> AsleepProductRegistration {
        let registration = try await server.client.asleep.setup(apiKey: apiKey, productInfo: product)
        _ = try await server.client.asleep.initAsleepConfig(apiKey: apiKey, productKey: registration.productKey)
        return registration
    }

    @Test("Asleep: a registered product is a device with its requests in order; forgotten, it registers as new")
    func asleep() async throws {
        try await AsleepFixture.with { (f: AsleepFixture) async throws in
            _ = try await f.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            let first = try await Self.firstLaunch(f.server, apiKey: f.apiKey)
            #expect(first.created)

            let devices = try await f.projectAdmin.devices()
            let listed = try #require(devices.first { $0.device == Self.device })
            #expect(listed.platform == "asleep" && listed.requests == 2 && listed.findings == 0 && listed.firstSeen <= listed.lastSeen)
            #expect(try await f.projectAdmin.devices(platform: "warrantylife").isEmpty)
            let timeline = try await f.projectAdmin.device(platform: "asleep", id: Self.device)
            #expect(timeline.timeline.map(\.path) == ["/asleep/ai/v1/products", "/asleep/ai/v1/users"])
            #expect(timeline.timeline.allSatisfy { $0.device == Self.device } && timeline.timeline.map(\.id) == timeline.timeline.map(\.id).sorted())
            #expect(try await f.projectAdmin.device(platform: "asleep", id: Self.device, limit: 1).timeline.count == 1)
            let filtered = try await f.projectAdmin.requests(JournalQuery(device: Self.device)).requests
            #expect(Set(filtered.map(\.id)) == Set(timeline.timeline.map(\.id)))

            #expect(try await f.projectAdmin.forgetDevice(platform: "asleep", id: Self.device) == 1)
            let again = try await f.server.client.asleep.setup(apiKey: f.apiKey, productInfo: Self.product)
            #expect(again.created && again.productId != first.productId)
            // The forget is journalled as a control-plane write; the device keeps its history.
            let writes = try await f.projectAdmin.requests(JournalQuery(platform: "admin", method: "DELETE")).requests
            #expect(writes.contains { $0.path.hasPrefix("/__admin/projects/\(f.project.id)/devices/asleep/") })
            #expect(try await f.projectAdmin.device(platform: "asleep", id: Self.device).requests == 3)
            // Forgotten again: no product is left, but the journal knows the device.
            #expect(try await f.projectAdmin.forgetDevice(platform: "asleep", id: Self.device) == 1)
            #expect(try await f.projectAdmin.forgetDevice(platform: "asleep", id: Self.device) == 0)
        }
    }

    @Test("WarpLink: a deferred check's device_id is a device; forgotten, its next check claims the click again as a first install")
    func warpLink() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/forget"))
            let fingerprint = String(repeating: "cd", count: 32)
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: "8.8.8.8", fingerprint: fingerprint, ageSeconds: 600))
            let idfv = UUID().uuidString
            var check = WarpLinkAttributionRequest(
                platform: "ios", sdkVersion: "1.1.1", fingerprintVersion: "enriched", isReinstall: false, deviceID: idfv,
                acceptLanguage: "en-US,en", timezoneOffset: 300)
            check.fingerprint = fingerprint
            #expect(try await h.warpLink.matchAttribution(check, apiKey: h.sdkKey).get().matched)
            #expect(try await h.admin.installs().map(\.outcome) == ["fingerprint"])
            let listed = try await h.projectAdmin.devices(platform: "warplink")
            #expect(listed.map(\.device) == [idfv] && listed.first?.requests == 1)

            // Forgotten: the install goes and its click is claimable again, so the app's next first
            // launch is matched by the click, not by an earlier install of the device.
            #expect(try await h.projectAdmin.forgetDevice(platform: "warplink", id: idfv) == 2) // one install, one click released
            #expect(try await h.admin.installs().isEmpty)
            _ = try await h.projectAdmin.advanceClock(by: 60)
            #expect(try await h.warpLink.matchAttribution(check, apiKey: h.sdkKey).get().matched)
            #expect(try await h.admin.installs().map(\.outcome) == ["fingerprint"])
            #expect(try await h.projectAdmin.device(platform: "warplink", id: idfv).requests == 2)
        }
    }

    @Test("Telematics: a user is a device; forgotten, the app's stored tokens are unknown and the user stays")
    func telematics() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let user = try await admin.createUser(userName: "forget-me")
            let pair = try await admin.mintTokens(userId: user.userId)
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
            _ = try await sdk.getCurrentUserInfo()
            let projectAdmin = server.client.admin.project(project.id)
            let device = String(user.userId)
            #expect(try await projectAdmin.devices(platform: "telematics").map(\.device) == [device])
            #expect(try await projectAdmin.forgetDevice(platform: "telematics", id: device) >= 1)
            await #expect { _ = try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)?.0 == 401 }
            #expect(try await admin.user(user.userId).userId == user.userId)
            #expect(try await admin.tokens(userId: user.userId).isEmpty)
        }
    }

    @Test("unknown devices and platforms are 404s; a platform's device that is not an installation is a 409")
    func unknown() async throws {
        try await AsleepFixture.with { (f: AsleepFixture) async throws in
            _ = try await Self.firstLaunch(f.server, apiKey: f.apiKey)
            #expect(await Self.status { _ = try await f.projectAdmin.device(platform: "asleep", id: "SERIAL:NOPE") } == 404)
            #expect(await Self.status { try await f.projectAdmin.forgetDevice(platform: "asleep", id: "SERIAL:NOPE") } == 404)
            #expect(await Self.status { try await f.projectAdmin.forgetDevice(platform: "nope", id: Self.device) } == 404)
            #expect(await Self.status { _ = try await f.projectAdmin.devices(platform: "nope") } == 400)
            #expect(await Self.status { _ = try await f.server.client.admin.project("nope").devices() } == 404)
            // A request that names its user: a device the journal knows, whose state Asleep does not keep per installation.
            let config = try await f.server.client.asleep.initAsleepConfig(apiKey: f.apiKey)
            _ = try await f.server.client.asleep.initAsleepConfig(apiKey: f.apiKey, userId: config.userId)
            let user = "user:" + config.userId
            #expect(try await f.projectAdmin.devices().contains { $0.device == user })
            #expect(await Self.status { try await f.projectAdmin.forgetDevice(platform: "asleep", id: user) } == 409)
        }
    }

    @Test("WarrantyLife: a device's lookups and item go; the next lookup is a first one; key validation is in no timeline")
    func warrantyLife() async throws {
        try await WarrantyLifeFixture.with { (f: WarrantyLifeFixture) async throws in
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T10:00:00Z")
            try await f.user("jane@example.com")
            try await f.admin.createVoucher(["code": "NORMAL"])
            let repo = f.repository(device: "PHONE-1")
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let lookup = { try await repo.getVoucherByVoucherCode(voucherCode: "NORMAL", isPlanTransfer: false, activeWarrantiesInCurrentDevice: 0) }
            #expect(try await lookup().action == "normalRegistration")
            #expect(await repo.registerDevice(WarrantyLifeFixture.registration()).last == .success)
            let item = try #require(repo.itemID)
            _ = try await f.admin.createWarranty(["deviceId": "PHONE-1"])
            #expect(try await lookup().action == "activeWarrantyConflict")

            let devices = Set(try await f.projectAdmin.devices(platform: "warrantylife").map(\.device))
            #expect(devices == ["PHONE-1", "item:" + item])
            let forgotten = try await f.projectAdmin.forgetDevice(platform: "warrantylife", id: "PHONE-1")
            #expect(forgotten >= 5) // two lookups, the item, its warranty and its stages
            #expect(try await f.admin.list("items").isEmpty)
            #expect(try await f.admin.list("voucher-lookups").isEmpty)
            #expect(try await lookup().action == "normalRegistration")
            #expect(try await f.admin.list("voucher-lookups").count == 1)
            #expect(try await f.projectAdmin.forgetDevice(platform: "warrantylife", id: "item:" + item) == 0)

            // Key validation names no device: it is journalled, and in no device's timeline.
            let all = try await f.projectAdmin.requests(JournalQuery(platform: "warrantylife", limit: 1000)).requests
            let unnamed = all.filter { $0.device == nil }
            #expect(!unnamed.isEmpty)
            var named: Set<Int> = []
            for device in try await f.projectAdmin.devices() {
                named.formUnion(try await f.projectAdmin.device(platform: device.platform, id: device.device, limit: 1000).timeline.map(\.id))
            }
            #expect(named.isDisjoint(with: unnamed.map(\.id)) && named.count + unnamed.count == all.count)
        }
    }

    @Test("snapshots, bundles and reset keep working: a restore brings the product back, a reset empties the list")
    func snapshotsBundlesReset() async throws {
        try await AsleepFixture.with { (f: AsleepFixture) async throws in
            _ = try await f.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            _ = try await Self.firstLaunch(f.server, apiKey: f.apiKey)
            _ = try await f.projectAdmin.saveSnapshot("registered")
            try await f.projectAdmin.forgetDevice(platform: "asleep", id: Self.device)
            try await f.projectAdmin.restoreSnapshot("registered")
            _ = try await f.projectAdmin.advanceClock(by: 600)
            #expect(try await f.server.client.asleep.setup(apiKey: f.apiKey, productInfo: Self.product).created == false)

            let bundle = try await f.projectAdmin.export()
            try await f.projectAdmin.forgetDevice(platform: "asleep", id: Self.device)
            _ = try await f.server.client.admin.importProject(bundle, replacing: f.project.id) // the bundle holds the product
            _ = try await f.projectAdmin.devices()
            _ = try await f.projectAdmin.advanceClock(by: 600)
            #expect(try await f.server.client.asleep.setup(apiKey: f.apiKey, productInfo: Self.product).created == false)
            _ = try await f.projectAdmin.reset()
            #expect(try await f.projectAdmin.devices().isEmpty)
        }
    }

    @Test("PostgreSQL: the journal records devices, lists them and forgets one")
    func postgres() async throws {
        try await TestPostgres.withDatabase { url in
            let server = try await UnderstudyTestServer.start { $0.databasePath = url }
            do {
                let project = try await server.makeProject(name: "devices")
                let apiKey = project.credential("asleep", "apiKey")
                let admin = server.client.admin.project(project.id)
                _ = try await admin.freezeClock(at: "2026-03-01T22:00:00Z")
                _ = try await Self.firstLaunch(server, apiKey: apiKey)
                #expect(try await admin.devices().map(\.device) == [Self.device])
                #expect(try await admin.device(platform: "asleep", id: Self.device).timeline.count == 2)
                #expect(try await admin.requests(JournalQuery(device: Self.device)).requests.count == 2)
                #expect(try await admin.forgetDevice(platform: "asleep", id: Self.device) == 1)
                #expect(try await server.client.asleep.setup(apiKey: apiKey, productInfo: Self.product).created)
                try await server.expectNoFindings(project: project.id)
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }
    }
}
