import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife registration flow")
struct WarrantyLifeRegistrationTests {
    @Test("the guide's flow: voucher → diagnostics → login → receipt → IMEI + registerDevice → purchase date → Smart Saver → createWarranty")
    func wholeFlow() async throws {
        try await WarrantyLifeFixture.with { f in
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T15:00:00Z")
            try await f.user("jane@example.com")
            try await f.admin.createVoucher([
                "code": "ABC-1234-XYZ", "receiptRequired": true, "purchaseDateRequired": true, "transferable": false,
                "plan": ["currency": "CAD", "rewardAmountMax": 40], "ssrOffered": true, "ssdOffered": false,
                "bluetoothScan": true, "recordAudio": true, "sensorTest": "standard",
            ])
            try await f.admin.createVoucher(["code": "NO-SENSOR-TEST"])
            let repo = f.repository()
            // A voucher seeded without a Sensor Test has none: the SDK's isSensorTestAvailable() is false.
            let plain = try await repo.getVoucherByVoucherCode(voucherCode: "NO-SENSOR-TEST").raw?["diagnosticRequirements"]
            #expect(plain?["sensorTest"]?.isNull == true && plain?["sensorTestRequired"]?.bool == false)
            await #expect(throws: UnderstudyClientError.self, "only \"standard\", an object or null") {
                try await f.admin.createVoucher(["code": "ODD-SENSOR-TEST", "sensorTest": "fancy"])
            }

            // 1. Voucher: action, requirements and the Sensor Test configuration.
            let voucher = try await repo.getVoucherByVoucherCode(voucherCode: " abc-1234-xyz ")
            #expect(voucher.action == "normalRegistration" && !voucher.isError && voucher.receiptRequired && voucher.purchaseDateRequired)
            let requirements = voucher.raw?["diagnosticRequirements"]
            #expect(requirements?["sensorTestRequired"]?.bool == true && requirements?["bluetoothScan"]?.bool == true && requirements?["recordAudio"]?.bool == true)
            #expect(requirements?["sensorTest"]?["sensorTestPhases"]?.array?.count == 5)
            #expect(voucher.raw?["plan"]?["currency"]?.string == "CAD")

            // 2–3. Diagnostics run locally; then login (202) and the foreground refresh: no item yet.
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let noItem = await wlError { try await repo.getItemByDeviceID() }
            #expect(noItem?.status == 404 && noItem?.errorCode == 1301)
            #expect(try await repo.getAllWarranties().isEmpty)

            // 4–5. Receipt + IMEI, registerDevice.
            let data = WarrantyLifeFixture.registration(images: [("reference", Data("front".utf8)), ("test", Data("back".utf8)), ("receipt", Data("receipt".utf8))])
            let states = await repo.registerDevice(data)
            #expect(states == [.submitted, .progress(25), .progress(50), .progress(75), .progress(100), .success])
            let itemID = try #require(repo.itemID)
            let events = try await f.admin.list("sensor-events", itemID: itemID)
            #expect(events.count == 1 && events.first?["sensorEventType"]?.int == 1111 && events.first?["eventAt"]?.string == "2026-11-30 10:15:00.250")
            let readings = try await f.admin.list("readings", itemID: itemID)
            #expect(readings.first?["count"]?.int == 5 && readings.first?["gzipped"]?.bool == true && readings.first?["readings"]?.array?.count == 5)
            #expect(try await f.admin.list("audio-clips", itemID: itemID).first?["recordedAt"]?.string == "2026-11-30 10:15:00.250")
            let diagnostics = try await f.admin.list("diagnostics", itemID: itemID)
            #expect(diagnostics.count == 1 && diagnostics.first?["body"]?["imei"]?.string == "356938035643809")
            let images = try await f.admin.list("images", itemID: itemID)
            #expect(images.map { $0["kind"]?.string } == ["reference", "test", "receipt"])
            #expect(images.allSatisfy { $0["duplicate"]?.bool == false && $0["contentType"]?.string == "image/jpg" && $0["sha256"]?.string?.count == 64 })

            // 6–8. Purchase date, Smart Saver selection during registration (saved only), createWarranty.
            #expect(await repo.setSmartSaver("SSR", true) == nil)
            let missingDate = await wlError { try await repo.createWarranty(model: ["firstName": "Jane", "country": 2, "state": 202]) }
            #expect(missingDate?.status == 400 && missingDate?.errorMessage?.contains("dateOfPurchase") == true)
            let warranty = try await repo.createWarranty(model: [
                "firstName": "Jane", "lastName": "Doe", "city": "Vancouver", "zip": "V5K 0A1", "state": 202, "country": 2,
                "phone": "555-0100", "dateOfPurchase": "2026-11-01", "acceptedMarketing": true, "isDeviceInsured": false,
            ])
            #expect(warranty.id == voucher.warrantyId && warranty.status == "ACTIVE" && warranty.hasActiveCoverage && warranty.ssr && !warranty.ssd)
            #expect(warranty.raw?["planCurrency"]?.string == "CAD" && warranty.raw?["coverageEndDate"]?.string == "2027-11-30T15:00:00Z")
            #expect(repo.hasActiveCoverage)
            let optIns = try await f.admin.list("opt-ins", itemID: itemID)
            #expect(optIns.count == 1 && optIns.first?["program"]?.string == "SSR" && optIns.first?["optedIn"]?.bool == true)
            let claimed = try await f.admin.voucher("ABC-1234-XYZ")
            #expect(claimed["status"]?.string == "claimed" && claimed["originalDeviceId"]?.string == repo.deviceID)

            // Afterwards: the device has coverage publicly and the voucher now conflicts on this device.
            let device = try await f.repository().getItemByDeviceIdPublic()
            #expect(device["hasActiveCoverage"]?.bool == true && device["ssr"]?.bool == true && device["warrantyId"]?.string == warranty.id)
            try await f.admin.createVoucher(["code": "SECOND"])
            #expect(try await repo.getVoucherByVoucherCode(voucherCode: "SECOND").action == "activeWarrantyConflict")
            let again = await wlError { try await repo.createWarranty(model: ["voucherCode": "ABC-1234-XYZ", "dateOfPurchase": "2026-11-01"]) }
            #expect(again?.status == 409 && again?.errorCode == 1502)

            // updateWarrantyById and coverage ending with the clock.
            #expect(try await repo.updateWarrantyById(warrantyId: warranty.id, rewardAmount: 12.5).rewardAmount == 12.5)
            let tooMuch = await wlError { _ = try await repo.updateWarrantyById(warrantyId: warranty.id, rewardAmount: 41) }
            #expect(tooMuch?.status == 400)
            _ = try await f.projectAdmin.advanceClock(by: 366 * 86_400)
            #expect(try await repo.getWarrantyById(warrantyId: warranty.id).hasActiveCoverage == false)
            #expect(await wlError { _ = try await repo.getWarrantyById(warrantyId: "999") }?.errorCode == 1501)
        }
    }

    @Test("registerDevice after an upload fault reuses the stages that completed")
    func retryReusesStages() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            // Readings fail twice with retryable statuses: the SDK retries within the same attempt.
            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", method: "POST", path: "**/readings"),
                    action: .init(type: "status", status: 503), times: 2))
            // The diagnostic report is not in the SDK's retry scope: one 500 ends this attempt after stage 75.
            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", method: "POST", path: "**/diagnostics"),
                    action: .init(type: "status", status: 500), times: 1))
            let data = WarrantyLifeFixture.registration()
            let first = await repo.registerDevice(data)
            #expect(first.last == .uploadError(message: "Internal server error.", code: 5000))
            #expect(first.contains(.progress(75)))
            let readingPosts = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", method: "POST", path: "**/readings"), count: 3)
            #expect(readingPosts.requests.sorted { $0.id < $1.id }.map(\.status) == [503, 503, 201])

            let second = await repo.registerDevice(data)
            #expect(second.last == .success)
            let puts = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", method: "PUT"), count: 1)
            #expect(puts.requests.count == 1)
            let all = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", method: "POST", path: "**/diagnostics"), count: 2)
            #expect(all.requests.sorted { $0.id < $1.id }.map(\.status) == [500, 201])
            #expect(try await f.projectAdmin.requests(JournalQuery(platform: "warrantylife", method: "POST", path: "**/readings")).requests.count == 3)
            #expect(try await f.admin.list("sensor-events").count == 1)
            #expect(try await f.admin.list("images").count == 2)

            // A third call uploads nothing new; a changed diagnostic is a new report and re-uploads the images.
            #expect(await repo.registerDevice(data).last == .success)
            var changed = data
            changed.diagnostic["osVersion"] = "18.0"
            #expect(await repo.registerDevice(changed).last == .success)
            let diagnostics = try await f.admin.list("diagnostics")
            #expect(diagnostics.count == 2 && diagnostics.allSatisfy { $0["sameHashAs"] == .null })
            #expect(try await f.admin.list("images").count == 4)
        }
    }

    @Test("images after four retryable failures end as uploadError; the item of another account is a 1302")
    func uploadErrorsAndOtherAccount() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            _ = try await f.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warrantylife", method: "POST", path: "**/images/*"),
                    action: .init(type: "status", status: 429, retryAfter: 1), times: 4))
            let states = await repo.registerDevice(WarrantyLifeFixture.registration())
            #expect(states.last == .uploadError(message: "Too many requests.", code: 1429))
            let attempts = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", path: "**/images/*"), count: 4)
            #expect(attempts.requests.count == 4 && attempts.requests.allSatisfy { $0.status == 429 && $0.responseHeaders["retry-after"] == "1" })

            try await f.admin.createItem(["deviceId": "OTHER-DEVICE", "ownerEmail": "jdoe@gmail.com"])
            let other = f.repository(device: "OTHER-DEVICE")
            try await other.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let error = await wlError { try await other.getItemByDeviceID() }
            #expect(error?.status == 401 && error?.errorCode == 1302)
            #expect(error?.errorMessage == "This device was originally registered under a different account (j*****e@*.com). Please log in with that account and try again.")
            let create = await wlError { try await other.createItem(model: "iPhone", mpn: "iPhone14,2") }
            #expect(create?.errorCode == 1302)
            #expect(await other.registerDevice(WarrantyLifeFixture.registration()).last == .uploadError(message: error?.errorMessage ?? "", code: 1302))
        }
    }
}
