import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarrantyLife configuration alternatives")
struct WarrantyLifeConfigurationTests {
    @Test("requireActivation, loginFailureStatus 401, bare envelope; Bearer tokens; drop-data sync")
    func alternatives() async throws {
        try await WarrantyLifeFixture.with(
            configure: {
                $0.platforms[.warrantylife] = ["requireActivation": true, "loginFailureStatus": 401, "envelope": "bare", "sensorEventDedupe": false, "uploadDedupe": false]
            }, expectingFindings: true
        ) { f in
            let register = try await f.raw("POST", "/auth/user", headers: ["Content-Type": "application/json"], body: Data(#"{"email":"new@example.com","password":"pw"}"#.utf8))
            let created = try register.json()
            #expect(register.status == 201 && created["token"]?.string != nil && created["data"] == Optional<AnyJSON>.none)
            let form = Data("password=pw&username=new%40example.com".utf8)
            let inactive = try await f.raw("POST", "/auth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
            #expect(try inactive.status == 403 && wlError(inactive).errorCode == 1103)
            let mails = try await f.projectAdmin.outbox(platform: "warrantylife", kind: "email")
            #expect(mails.map(\.subject) == ["Activate your WarrantyLife account"])
            try await f.admin.updateUser(created["userId"]?.string ?? "", ["activated": true])
            let login = try await f.raw("POST", "/auth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
            #expect(login.status == 202)
            let wrong = try await f.raw("POST", "/auth/token", body: Data("password=no&username=new%40example.com".utf8))
            #expect(try wrong.status == 401 && wlError(wrong).errorCode == 1101)

            let token = try login.json()["token"]?.string ?? ""
            let me = try await f.raw("GET", "/whoami", headers: ["Authorization": "Bearer \(token)"])
            #expect(try me.status == 200 && me.json()["email"]?.string == "new@example.com")
            #expect(try await f.raw("GET", "/whoami", headers: ["Authorization": "Bearer wrong"]).status == 401)
            let mismatched = "Basic " + Data("someone@example.com:\(token)".utf8).base64EncodedString()
            #expect(try await f.raw("GET", "/whoami", headers: ["Authorization": mismatched]).status == 401)

            // Without dedupe every repeat gets its own id (still marked in the inspection API).
            let bearer = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
            let item = try await f.raw("POST", "/items", headers: bearer, body: Data(#"{"deviceId":"D1"}"#.utf8)).json()
            let itemID = item["id"]?.string ?? ""
            let event = Data(#"{"eventAt":"2026-11-30 10:00:00.000","sensorEventType":1111}"#.utf8)
            let first = try await f.raw("PUT", "/items/\(itemID)", headers: bearer, body: event).json()["sensorEventId"]?.string
            let second = try await f.raw("PUT", "/items/\(itemID)", headers: bearer, body: event).json()["sensorEventId"]?.string
            #expect(first != nil && second != nil && first != second)
            let diagnostic = Data(#"{"brand":"Apple"}"#.utf8)
            let reportA = try await f.raw("POST", "/items/\(itemID)/diagnostics", headers: bearer, body: diagnostic).json()["id"]?.string
            let reportB = try await f.raw("POST", "/items/\(itemID)/diagnostics", headers: bearer, body: diagnostic).json()["id"]?.string
            #expect(reportA != nil && reportA != reportB)
            // Ids made in a row count up, so they append to their tables' indexes (eight digits).
            let made = [itemID, first, second, reportA, reportB].map { $0.flatMap { Int($0) } ?? 0 }
            #expect(made == Array(made[0]...made[0] + 4) && made.allSatisfy { String($0).count == 8 }, "\(made)")
            #expect(try await f.admin.list("diagnostics").last?["sameHashAs"]?.string == reportA)
            // The repeats sent on purpose are what the checks report.
            #expect(try await f.projectAdmin.findings().map(\.rule).sorted() == ["warrantylife.diagnostic-recreated", "warrantylife.sensor-event-recreated"])
        }
    }

    @Test("syncDropData sends a 1200 event with volume -1, then its readings")
    func dropData() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            #expect(await repo.syncDropData(eventAt: "2026-11-30 08:00:00.000", readings: [["phase": 1000]]) == false) // no item yet
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            try await repo.createItem(model: "iPhone", mpn: "iPhone14,2")
            #expect(await repo.syncDropData(eventAt: "2026-11-30 08:00:00.000", readings: [["phase": 1000], ["phase": 2000]]))
            let events = try await f.admin.list("sensor-events")
            #expect(events.count == 1 && events[0]["sensorEventType"]?.int == 1200 && events[0]["body"]?["volumeSetting"]?.int == -1)
            #expect(try await f.admin.list("readings").first?["count"]?.int == 2)
            // A receipt-requiring voucher makes registerDevice fail locally without one.
            try await f.admin.createVoucher(["code": "R", "receiptRequired": true])
            try await repo.getVoucherByVoucherCode(voucherCode: "R")
            #expect(await repo.registerDevice(WarrantyLifeFixture.registration()) == [.submitted, .validationError("missingReceiptImage")])
        }
    }
}
