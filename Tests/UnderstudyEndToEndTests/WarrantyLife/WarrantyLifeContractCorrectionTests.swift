import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The WarrantyLife wire corrections: repeats keep their own ids, rule 6 for the voucher's own
/// warranty, the developer key before routing, Smart Saver options refused in sensor events,
/// EXPIRED on the clock, and bodies that are not UTF-8.
@Suite("WarrantyLife contract corrections")
struct WarrantyLifeContractCorrectionTests {
    /// A logged-in repository with an item on `device`; returns the repository, its login and the item id.
    static func signedIn(_ f: WarrantyLifeFixture, device: String = "PHONE") async throws -> (WarrantyLifeRepository, WarrantyLifeLoginResponse, String) {
        try await f.user("jane@example.com")
        let repo = f.repository(device: device)
        let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
        let item = try await repo.createItem(model: "iPhone 13", mpn: "iPhone14,5")
        return (repo, login, try #require(item["id"]?.string))
    }

    @Test("repeated sensor events and diagnostics get new ids by default and stay marked as repeats")
    func repeatsAreNotDeduplicated() async throws {
        // The repeats are the mistake the checks report: an app that re-creates stages the SDK reuses.
        try await WarrantyLifeFixture.with(expectingFindings: true) { f in
            let (repo, _, itemID) = try await Self.signedIn(f)
            let event: [String: AnyJSON] = ["eventAt": "2026-11-30 09:00:00.000", "sensorEventType": 1111]
            let first = try await repo.createSensorEvent(itemId: itemID, body: event)
            let second = try await repo.createSensorEvent(itemId: itemID, body: event)
            #expect(first != second)
            let events = try await f.admin.list("sensor-events", itemID: itemID)
            #expect(events.map { $0["id"]?.string } == [first, second] && events.map { $0["duplicateOf"]?.string } == [nil, first])

            let reportA = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple", "ram": 4])
            let reportB = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["ram": 4, "brand": "Apple"])
            #expect(reportA != reportB)
            #expect(try await f.admin.list("diagnostics", itemID: itemID).map { $0["sameHashAs"]?.string } == [nil, reportA])
            #expect(try await f.projectAdmin.findings().map(\.rule).sorted() == ["warrantylife.diagnostic-recreated", "warrantylife.sensor-event-recreated"])
        }
    }

    @Test("sensorEventDedupe and uploadDedupe opt into answering a repeat with the first id")
    func dedupeIsOptIn() async throws {
        try await WarrantyLifeFixture.with(configure: { $0.platforms[.warrantylife] = ["sensorEventDedupe": true, "uploadDedupe": true] }, expectingFindings: true) { f in
            let (repo, _, itemID) = try await Self.signedIn(f)
            let event: [String: AnyJSON] = ["eventAt": "2026-11-30 09:00:00.000", "sensorEventType": 1111]
            let first = try await repo.createSensorEvent(itemId: itemID, body: event)
            #expect(try await repo.createSensorEvent(itemId: itemID, body: event) == first)
            let report = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple"])
            #expect(try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple"]) == report)
            #expect(try await f.admin.list("sensor-events", itemID: itemID).count == 2)
            // Answered with the first ids, the repeats were still sent: the checks report them.
            #expect(try await f.projectAdmin.findings().map(\.rule).sorted() == ["warrantylife.diagnostic-recreated", "warrantylife.sensor-event-recreated"])
        }
    }

    @Test("rule 6: a voucher whose own active warranty is on the requesting device is an activeWarrantyConflict")
    func ownWarrantyConflicts() async throws {
        try await WarrantyLifeFixture.with { f in
            let owner = try await f.user("owner@example.com")
            try await f.admin.createItem(["deviceId": "PHONE", "userId": .string(owner)])
            try await f.admin.createVoucher(["code": "MINE"])
            try await f.admin.createWarranty(["deviceId": "PHONE", "voucherCode": "MINE"])
            let repo = f.repository(device: "PHONE")
            try await repo.getTokenViaUserPassword(username: "owner@example.com", password: "secret-pass")
            let voucher = try await repo.getVoucherByVoucherCode(voucherCode: "MINE")
            #expect(voucher.action == "activeWarrantyConflict" && voucher.isError)
            #expect(try await f.repository(device: "OTHER-PHONE").getVoucherByVoucherCode(voucherCode: "MINE").action != "activeWarrantyConflict")
        }
    }

    @Test("the developer key is checked before routing: unknown routes and methods answer 401 for a bad key")
    func keyBeforeRouting() async throws {
        try await WarrantyLifeFixture.with { f in
            func send(_ method: String, _ path: String, key: String?, host: String? = nil) async throws -> ClientResponse {
                var headers: [String: String] = [:]
                if let key { headers["X-WL-Developer-Key"] = key }
                if let host { headers["Host"] = host }
                return try await f.client.send(ClientRequest(method: method, path: path, headers: headers))
            }
            for path in ["/warrantylife/mapi/wi/100/no-such-route", "/warrantylife/elsewhere", "/warrantylife"] {
                let unknownKey = try await send("GET", path, key: "not-a-key")
                #expect(try unknownKey.status == 401 && wlError(unknownKey).errorCode == 1002, "\(path)")
                let missing = try await send("POST", path, key: nil)
                #expect(try missing.status == 401 && wlError(missing).errorCode == 1001, "\(path)")
                let known = try await send("GET", path, key: f.key)
                #expect(try known.status == 404 && wlError(known).error == "route_not_found" && wlError(known).errorCode == 1404, "\(path)")
                #expect(known.headers["x-understudy-trace"] != nil)
            }
            let hosted = try await send("GET", "/mapi/wi/100/no-such-route", key: "not-a-key", host: "www.warrantylife.com")
            #expect(try hosted.status == 401 && wlError(hosted).errorCode == 1002)

            // A known path with another method: 401 for a bad key, 405 with `Allow` for a good one.
            #expect(try await send("DELETE", "/warrantylife/mapi/wi/100/whoami", key: "not-a-key").status == 401)
            let wrongMethod = try await send("DELETE", "/warrantylife/mapi/wi/100/whoami", key: f.key)
            #expect(try wrongMethod.status == 405 && wlError(wrongMethod).errorCode == 1405)
            #expect(wrongMethod.headers["allow"] == "GET, HEAD")
            // Real routes are unaffected.
            #expect(try await send("GET", "/warrantylife/mapi/wi/100/app-config", key: f.key).status == 200)
            #expect(try await send("GET", "/warrantylife/mapi/wi/100/app-config", key: "not-a-key").status == 401)
        }
    }

    @Test("a Smart Saver option the plan does not offer travels in a stored sensor event (202) and is recorded as not effective")
    func smartSaverEventRefused() async throws {
        try await WarrantyLifeFixture.with { f in
            let (_, login, itemID) = try await Self.signedIn(f)
            let json = ["Content-Type": "application/json"]
            // No active warranty yet: stored, not effective.
            let early = try await f.raw(
                "PUT", "/items/\(itemID)", headers: json,
                body: Data(#"{"eventAt":"2026-11-30 08:59:00.000","sensorEventType":3000,"ssr":true}"#.utf8), login: login)
            #expect(early.status == 202)
            try await f.admin.createVoucher(["code": "SS", "ssrOffered": true, "ssdOffered": false])
            try await f.admin.createWarranty(["itemId": .string(itemID), "voucherCode": "SS"])
            let notOffered = try await f.raw(
                "PUT", "/items/\(itemID)", headers: json,
                body: Data(#"{"eventAt":"2026-11-30 09:00:00.000","sensorEventType":3000,"smartSaver":{"ssd":true},"notificationToken":"fcm-x"}"#.utf8),
                login: login)
            #expect(notOffered.status == 202, "\(String(decoding: notOffered.body, as: UTF8.self))")
            #expect(try await f.admin.list("sensor-events", itemID: itemID).count == 2)
            let recorded = try await f.admin.list("opt-ins", itemID: itemID)
            #expect(recorded.map { $0["program"]?.string } == ["SSR", "SSD"])
            #expect(recorded.map { $0["notEffectiveReason"]?.string } == ["no_active_warranty", "not_offered"])
            #expect(try await f.admin.list("fcm-tokens", itemID: itemID).count == 1)
            let item = try await f.admin.list("items").first
            #expect(item?["ssd"]?.bool == false && item?["ssr"]?.bool == false, "not-effective opt-ins change no flag")
            // The dedicated routes are off by default: an unknown route in WarrantyLife's format.
            let dedicated = try await f.raw("GET", "/items/\(itemID)/smart-saver", login: login)
            #expect(try dedicated.status == 404 && wlError(dedicated).errorCode == 1404)

            // An offered option, and opting out of one that is not offered, are recorded as before.
            let accepted = try await f.raw(
                "PUT", "/items/\(itemID)", headers: json,
                body: Data(#"{"eventAt":"2026-11-30 09:00:01.000","sensorEventType":3000,"ssr":true,"ssd":false}"#.utf8), login: login)
            #expect(accepted.status == 202)
            let all = try await f.admin.list("opt-ins", itemID: itemID)
            #expect(all.map { $0["program"]?.string } == ["SSR", "SSD", "SSR", "SSD"])
            #expect(all.suffix(2).allSatisfy { $0["notEffectiveReason"] == nil || $0["notEffectiveReason"]?.isNull == true })
            #expect(try await f.admin.list("items").first?["ssr"]?.bool == true)
        }
    }

    @Test("a warranty past its coverage end reads EXPIRED on the project clock, and ACTIVE again when the clock goes back")
    func expiredOnTheClock() async throws {
        try await WarrantyLifeFixture.with { f in
            _ = try await f.projectAdmin.freezeClock(at: "2026-11-30T12:00:00Z")
            let (repo, _, itemID) = try await Self.signedIn(f)
            try await f.admin.createVoucher(["code": "COVER", "coverageMonths": 1])
            let created = try await f.admin.createWarranty(["itemId": .string(itemID), "voucherCode": "COVER"])
            let id = try #require(created["id"]?.string)
            #expect(try await repo.getWarrantyById(warrantyId: id).status == "ACTIVE")

            _ = try await f.projectAdmin.freezeClock(at: "2026-12-30T12:00:00Z")
            let expired = try await repo.getWarrantyById(warrantyId: id)
            #expect(expired.status == "EXPIRED" && !expired.hasActiveCoverage)
            #expect(try await repo.getAllWarranties().map(\.status) == ["EXPIRED"])
            #expect(try await repo.getItemByDeviceIdPublic()["warrantyStatus"]?.string == "EXPIRED")

            _ = try await f.projectAdmin.freezeClock(at: "2026-12-01T12:00:00Z")
            #expect(try await repo.getWarrantyById(warrantyId: id).status == "ACTIVE")
        }
    }

    @Test("a JSON body that is not UTF-8 is a 400 in WarrantyLife's envelope")
    func invalidUTF8() async throws {
        try await WarrantyLifeFixture.with { f in
            let (_, login, itemID) = try await Self.signedIn(f)
            var feedback = Data(#"{"message":""#.utf8)
            feedback.append(contentsOf: [0xFF, 0xFE])
            feedback.append(contentsOf: Data(#""}"#.utf8))
            let json = ["Content-Type": "application/json"]
            for (method, path) in [("POST", "/feedback"), ("PUT", "/items/\(itemID)"), ("POST", "/items/\(itemID)/diagnostics"), ("POST", "/auth/recover")] {
                let response = try await f.raw(method, path, headers: json, body: feedback, login: login)
                #expect(try response.status == 400 && wlError(response).errorCode == 1400 && wlError(response).error == "validation_failed", "\(method) \(path)")
                #expect(try wlError(response).errorMessage?.contains("UTF-8") == true)
            }
            #expect(try await f.admin.list("submissions").isEmpty)
            var readings = Data(#"[{"readingAt":""#.utf8)
            readings.append(0xC3)
            readings.append(contentsOf: Data(#""}]"#.utf8))
            let event = try await f.raw("PUT", "/items/\(itemID)", headers: json, body: Data(#"{"eventAt":"2026-11-30 09:00:00.000"}"#.utf8), login: login)
            let eventID = try #require(try event.json()["data"]?["sensorEventId"]?.string)
            let rejected = try await f.raw("POST", "/items/\(itemID)/events/\(eventID)/readings", body: readings, login: login)
            #expect(try rejected.status == 400 && wlError(rejected).errorCode == 1400)
        }
    }
}

/// Database constraints reach the client as the platform's or the control plane's 409, never SQL.
@Suite("WarrantyLife: stored-data clashes")
struct WarrantyLifeClashTests {
    @Test("a developer key another project (or this one) holds is a 409 naming the key, without SQL")
    func developerKeyClash() async throws {
        try await WarrantyLifeFixture.with { f in
            let path = "/__admin/projects/\(f.project.id)/warrantylife/developer-keys"
            func create() async throws -> ClientResponse {
                try await f.client.admin.raw(
                    ClientRequest(method: "POST", path: path, headers: ["Content-Type": "application/json"], body: Data(#"{"key":"k-clash"}"#.utf8)))
            }
            #expect(try await create().status == 201)
            let again = try await create()
            let text = String(decoding: again.body, as: UTF8.self)
            #expect(again.status == 409 && text.contains("Developer key already exists."), "\(text)")
            #expect(!text.contains("INSERT") && !text.lowercased().contains("constraint"))
        }
    }
}
