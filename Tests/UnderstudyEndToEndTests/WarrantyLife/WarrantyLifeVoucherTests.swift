import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife vouchers and Smart Saver")
struct WarrantyLifeVoucherTests {
    @Test("every VoucherAction is reachable from seeded vouchers and caller state; redeemed, expired and unknown codes fail as documented")
    func actions() async throws {
        try await WarrantyLifeFixture.with { f in
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T12:00:00Z")
            let owner = try await f.user("owner@example.com")
            try await f.user("other@example.com")
            try await f.admin.createVoucher(["code": "NORMAL"])
            try await f.admin.createVoucher(["code": "FORCED", "forceAction": "deviceTransferablePopup"])
            try await f.admin.createVoucher(["code": "TRANSFER-OK", "transferable": true])
            try await f.admin.createVoucher(["code": "TRANSFER-NO", "transferable": false])
            try await f.admin.createVoucher(["code": "CLAIMED", "claimedByUserId": .string(owner)])
            try await f.admin.createVoucher(["code": "ON-DEVICE-T", "originalDeviceId": "OLD-PHONE", "transferable": true])
            try await f.admin.createVoucher(["code": "ON-DEVICE-N", "originalDevice": ["deviceId": "OLD-PHONE", "model": "iPhone 12", "mpn": "iPhone13,2"]])
            try await f.admin.createVoucher(["code": "REDEEMED", "status": "redeemed"])
            try await f.admin.createVoucher(["code": "EXPIRED", "expiresAt": "2026-11-30T11:59:59Z"])
            let anonymous = f.repository(device: "NEW-PHONE")

            func action(_ repo: WarrantyLifeRepository, _ code: String, transfer: Bool = false, active: Int = 0) async throws -> WarrantyLifeVoucher {
                try await repo.getVoucherByVoucherCode(voucherCode: code, isPlanTransfer: transfer, activeWarrantiesInCurrentDevice: active)
            }
            #expect(try await action(anonymous, "normal").action == "normalRegistration")
            #expect(try await action(anonymous, "FORCED").action == "deviceTransferablePopup")
            #expect(try await action(anonymous, "TRANSFER-OK", transfer: true).action == "startWarrantyTransfer")
            let notTransferable = try await action(anonymous, "TRANSFER-NO", transfer: true)
            #expect(notTransferable.action == "warrantyNotTransferable" && notTransferable.isError)
            let conflict = try await action(anonymous, "NORMAL", active: 1)
            #expect(conflict.action == "activeWarrantyConflict" && conflict.isError)
            #expect(try await action(anonymous, "CLAIMED").action == "userNotLoggedInClaimed")
            let other = f.repository(device: "NEW-PHONE")
            try await other.getTokenViaUserPassword(username: "other@example.com", password: "secret-pass")
            #expect(try await action(other, "CLAIMED").action == "differentEmailClaimed")
            let same = f.repository(device: "NEW-PHONE")
            try await same.getTokenViaUserPassword(username: "owner@example.com", password: "secret-pass")
            #expect(try await action(same, "CLAIMED").action == "normalRegistration")
            let transferable = try await action(anonymous, "ON-DEVICE-T")
            #expect(transferable.action == "deviceTransferablePopup" && transferable.raw?["originalDevice"]?["deviceId"]?.string == "OLD-PHONE")
            let fixed = try await action(anonymous, "ON-DEVICE-N")
            #expect(fixed.action == "deviceNonTransferablePopup" && fixed.raw?["originalDevice"]?["model"]?.string == "iPhone 12")
            #expect(try await action(f.repository(device: "OLD-PHONE"), "ON-DEVICE-N").action == "normalRegistration")

            let redeemed = await wlError { _ = try await action(anonymous, "REDEEMED") }
            #expect(redeemed?.status == 403 && redeemed?.errorCode == 1202 && redeemed?.errorMessage == "Voucher has already been redeemed.")
            let expired = await wlError { _ = try await action(anonymous, "EXPIRED") }
            #expect(expired?.status == 410 && expired?.errorCode == 1203)
            let unknown = await wlError { _ = try await action(anonymous, "NOPE") }
            #expect(unknown?.status == 404 && unknown?.errorCode == 1201)
            let badFlag = try await f.raw("GET", "/vouchers/NORMAL", query: [("isPlanTransfer", "maybe")])
            #expect(try badFlag.status == 400 && wlError(badFlag).errorCode == 1400)
            // Expiry follows the project clock.
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T11:00:00Z")
            #expect(try await action(anonymous, "EXPIRED").action == "normalRegistration")
            #expect(try await f.admin.list("voucher-lookups").count == 12) // failed lookups are not recorded
        }
    }

    @Test("a voucher replaced through the control plane answers with its new attributes at once")
    func replacedVoucher() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.admin.createVoucher(["code": "SWAP", "plan": ["planName": "Basic"]])
            let repo = f.repository(device: "PHONE-1")
            for _ in 0..<2 {
                let voucher = try await repo.getVoucherByVoucherCode(voucherCode: "SWAP", isPlanTransfer: false, activeWarrantiesInCurrentDevice: 0)
                #expect(voucher.raw?["plan"]?["planName"]?.string == "Basic")
            }
            try await f.admin.createVoucher(["code": "SWAP", "plan": ["planName": "Premium"]])
            let replaced = try await repo.getVoucherByVoucherCode(voucherCode: "SWAP", isPlanTransfer: false, activeWarrantiesInCurrentDevice: 0)
            #expect(replaced.raw?["plan"]?["planName"]?.string == "Premium" && replaced.action == "normalRegistration")
            let conflict = try await repo.getVoucherByVoucherCode(voucherCode: "SWAP", isPlanTransfer: false, activeWarrantiesInCurrentDevice: 2)
            #expect(conflict.action == "activeWarrantyConflict" && conflict.raw?["plan"]?["planName"]?.string == "Premium")
            try await f.admin.createVoucher(["code": "SWAP", "plan": ["planName": "Premium"], "forceAction": "deviceTransferablePopup"])
            #expect(
                try await repo.getVoucherByVoucherCode(voucherCode: "SWAP", isPlanTransfer: false, activeWarrantiesInCurrentDevice: 0).action
                    == "deviceTransferablePopup")
        }
    }

    @Test("a plan transfer moves the warranty to the new owner's device; the old item loses coverage")
    func transfer() async throws {
        try await WarrantyLifeFixture.with { f in
            let seller = try await f.user("seller@example.com")
            try await f.user("buyer@example.com")
            try await f.admin.createItem(["deviceId": "OLD", "userId": .string(seller)])
            try await f.admin.createVoucher(["code": "PLAN", "transferable": true, "warrantyId": "500123"])
            try await f.admin.createWarranty(["deviceId": "OLD", "voucherCode": "PLAN"])
            #expect(try await f.repository(device: "OLD").getItemByDeviceIdPublic()["hasActiveCoverage"]?.bool == true)

            let buyer = f.repository(device: "NEW")
            try await buyer.getTokenViaUserPassword(username: "buyer@example.com", password: "secret-pass")
            #expect(try await buyer.getVoucherByVoucherCode(voucherCode: "PLAN", isPlanTransfer: true).action == "startWarrantyTransfer")
            try await buyer.createItem(model: "iPhone 15", mpn: "iPhone16,1")
            let moved = try await buyer.updateWarranty(model: ["firstName": "Buyer"])
            #expect(moved.id == "500123" && moved.hasActiveCoverage && moved.itemId == buyer.itemID)
            #expect(try await f.repository(device: "OLD").getItemByDeviceIdPublic()["hasActiveCoverage"]?.bool == false)
            #expect(try await buyer.getAllWarranties().map(\.id) == ["500123"])
        }
    }

    @Test("Smart Saver: each OptInError, and a successful opt-in recorded from its Sensor Event")
    func smartSaver() async throws {
        // The dedicated routes at the end are optional: the project's server serves them on request.
        try await WarrantyLifeFixture.with(configure: { $0.platforms[.warrantylife] = ["smartSaverRoutes": true] }) { f in
            let user = try await f.user("jane@example.com")
            let item = try await f.admin.createItem(["deviceId": "PHONE", "userId": .string(user)])
            let itemID = try #require(item["id"]?.string)
            let repo = f.repository(device: "PHONE")

            #expect(await repo.setSmartSaver("SSR", true) == .notLoggedIn)
            #expect(try await repo.foregroundRefresh() == false)
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(try await repo.foregroundRefresh() == false)
            #expect(await repo.setSmartSaver("SSR", true) == .noActiveCoverage)

            try await f.admin.createVoucher(["code": "SS", "ssrOffered": true, "ssdOffered": false])
            try await f.admin.createWarranty(["itemId": .string(itemID), "voucherCode": "SS"])
            #expect(try await repo.foregroundRefresh())
            #expect(repo.hasActiveCoverage && repo.itemID == itemID && !repo.canProcessDropDetection())
            #expect(await repo.setSmartSaver("SSD", true) == .optionNotOffered("SSD"))
            #expect(await repo.setSmartSaver("SSR", true, permissionsGranted: false) == .requiredPermissionsNotGranted("Motion && (Notification || LocationAlways)"))

            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", method: "PUT", path: "/mapi/wi/100/items/*"),
                    action: .init(type: "status", status: 503), times: 1))
            #expect(await repo.setSmartSaver("SSR", true) == .sensorEventFailed("The service is temporarily unavailable.", errorCode: 5003))
            #expect(try await f.admin.list("opt-ins").isEmpty)

            #expect(await repo.setSmartSaver("SSR", true) == nil)
            #expect(repo.canProcessDropDetection() && !repo.canProcessDropDetection(permissionsGranted: false))
            let warranty = try #require(try await repo.getAllWarranties().first)
            #expect(warranty.ssr && !warranty.ssd)
            // Logged out, the public refresh still sees the coverage; Drop Detection stops.
            repo.logout()
            #expect(try await repo.foregroundRefresh() && !repo.canProcessDropDetection())
            let optIns = try await f.admin.list("opt-ins", itemID: itemID)
            #expect(optIns.count == 1 && optIns.first?["sensorEventId"]?.string != nil)

            // The optional dedicated routes agree, and refuse an option that is not offered.
            let programs = try await f.raw(
                "GET", "/items/\(itemID)/smart-saver", login: try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass"))
            #expect(programs.status == 200)
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let refused = try await f.raw(
                "POST", "/items/\(itemID)/smart-saver/opt-ins", headers: ["Content-Type": "application/json"],
                body: Data(#"{"program":"SSD","optIn":true}"#.utf8), login: login)
            #expect(try refused.status == 409 && wlError(refused).errorCode == 1601)
        }
    }
}
