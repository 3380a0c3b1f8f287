import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife fixtures, faults and project state")
struct WarrantyLifeProjectTests {
    @Test("the demo project's fixtures: login, vouchers, another account's device, generated insights")
    func demoFixtures() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            let repo = server.client.warrantyLife.repository(apiKey: demo.credential("warrantylife", "developerKey"), deviceID: "DEMO-OLD-DEVICE", retryDelays: [0, 0, 0])
            try await repo.getTokenViaUserPassword(username: "demo@example.com", password: "demo-password")
            #expect(try await repo.getVoucherByVoucherCode(voucherCode: "DEMO-NORMAL").action == "activeWarrantyConflict")
            let fresh = server.client.warrantyLife.repository(apiKey: demo.credential("warrantylife", "developerKey"), deviceID: "NEW-DEVICE")
            #expect(try await fresh.getVoucherByVoucherCode(voucherCode: "DEMO-NORMAL").action == "normalRegistration")
            #expect(try await fresh.getVoucherByVoucherCode(voucherCode: "DEMO-TRANSFER", isPlanTransfer: true).action == "startWarrantyTransfer")
            #expect(try await fresh.getVoucherByVoucherCode(voucherCode: "DEMO-CLAIMED").action == "userNotLoggedInClaimed")
            #expect(try await repo.getInsightData()?["timeZone"]?.string == "America/Toronto")
            #expect(try await repo.getAllWarranties().first?.hasActiveCoverage == true)
            let other = server.client.warrantyLife.repository(apiKey: demo.credential("warrantylife", "developerKey"), deviceID: "DEMO-OTHER-ACCOUNT-DEVICE")
            try await other.getTokenViaUserPassword(username: "demo@example.com", password: "demo-password")
            #expect(await wlError { try await other.getItemByDeviceID() }?.errorMessage?.contains("j*****e@*.com") == true)
        }
    }

    @Test("a connection dropped after the headers is retried (the server kept the first batch); a 413 is tried once; reset and snapshots keep the key working")
    func faultsAndState() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            _ = try await f.projectAdmin.addFault(
                FaultRule(match: .init(platform: "warrantylife", method: "POST", path: "**/readings"), action: .init(type: "closeAfterHeaders"), times: 1))
            #expect(await repo.registerDevice(WarrantyLifeFixture.registration()).last == .success)
            let readings = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", path: "**/readings"), count: 2)
            #expect(readings.requests.count == 2 && readings.requests.allSatisfy { $0.status == 201 })
            // The handler ran before the connection was cut, so both batches are stored: visible, as on a real server.
            #expect(try await f.admin.list("readings").count == 2)

            let other = f.repository(device: "SECOND")
            try await other.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", method: "POST", path: "**/images/*"),
                    action: .init(type: "status", status: 413), times: 1))
            guard case .uploadError(_, 1413)? = await other.registerDevice(WarrantyLifeFixture.registration()).last else {
                Issue.record("a non-retryable 413 ends registerDevice"); return
            }
            _ = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", status: 413), count: 1)
            let images = try await f.projectAdmin.requests(JournalQuery(platform: "warrantylife", status: 413))
            #expect(images.requests.count == 1)

            _ = try await f.projectAdmin.saveSnapshot("registered")
            try await f.admin.createVoucher(["code": "AFTER"])
            try await f.projectAdmin.restoreSnapshot("registered")
            #expect(await wlError { _ = try await repo.getVoucherByVoucherCode(voucherCode: "AFTER") }?.errorCode == 1201)
            #expect(try await f.admin.list("sensor-events").count == 2)
            _ = try await f.projectAdmin.reset()
            #expect(await f.repository().validateAPIKey() == .valid(name: "Understudy", environment: "sandbox"))
            #expect(try await f.admin.list("users").isEmpty)
        }
    }
}
