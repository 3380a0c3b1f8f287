import Foundation
import HTTPServer
import Storage
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

@Suite("WarrantyLife devices, insights, content and bad input")
struct WarrantyLifeDeviceTests {
    static let insight: AnyJSON = [
        "generatedAt": "2026-09-11T22:17:43Z", "timeZone": "America/Toronto",
        "dropRank": [
            "hourly": [["hour": 14, "date": "2026-09-11", "rank": 72, "isProjected": true]],
            "daily": [["date": "2026-09-10", "rank": 65, "isProjected": false]],
            "weekly": [["startDate": "2026-09-07", "rank": 68, "isProjected": true]],
            "monthly": [["month": "2026-08", "rank": 61, "isProjected": false]],
        ],
        "batteryRank": ["hourly": [], "daily": [], "weekly": [], "monthly": []],
        "coaching": ["generalHints": ["Use a case with raised edges."], "batteryHints": [], "tipHints": []],
        "rewards": ["current": ["month": "2026-09", "amount": 25.0], "history": [["month": "2026-08", "amount": 20.0]]],
        "tip": ["current": ["date": "2026-09-11", "percentage": 82.0, "value": 310.0], "daily": [], "weekly": [], "monthly": []],
    ]

    @Test("insights: seeded, absent (data null), generated in the device time zone, 404 and 1302")
    func insights() async throws {
        try await WarrantyLifeFixture.with { f in
            let user = try await f.user("jane@example.com")
            let item = try await f.admin.createItem(["deviceId": "PHONE", "userId": .string(user)])
            let itemID = try #require(item["id"]?.string)
            let repo = f.repository(device: "PHONE")
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(try await repo.getInsightData() == Optional<AnyJSON>.none)
            let raw = try await f.raw(
                "GET", "/insights", query: [("deviceId", "PHONE")], login: try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass"))
            #expect(raw.text == #"{"data":null}"#)

            try await f.admin.setInsights(itemID: itemID, Self.insight)
            let data = try #require(try await repo.getInsightData())
            #expect(data["dropRank"]?["hourly"]?[0]?["rank"]?.int == 72 && data["rewards"]?["projected"] == .null && data["rewards"]?["current"]?["amount"]?.double == 25)
            #expect(data["batteryRank"]?["daily"]?.array?.isEmpty == true)

            var noTip = Self.insight
            if case .object(var members) = noTip, case .object(var tip)? = members["tip"] {
                tip.removeValue(forKey: "current"); members["tip"] = .object(tip); noTip = .object(members)
            }
            await #expect(throws: UnderstudyClientError.self) { try await f.admin.setInsights(itemID: itemID, noTip) }
            // Values of the right JSON type outside what the SDK documents are refused too.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            let seedText = String(decoding: try encoder.encode(Self.insight), as: UTF8.self)
            let outOfRange = [
                (#""rank":72"#, #""rank":101"#), (#""rank":72"#, #""rank":0"#), (#""hour":14"#, #""hour":24"#),
                (#""2026-08""#, #""2026-13""#), (#""2026-09-10""#, #""2026-09-31""#),
                (#""2026-09-11T22:17:43Z""#, #""yesterday""#), (#""America/Toronto""#, #""Not/AZone""#),
            ]
            for (from, to) in outOfRange {
                #expect(seedText.contains(from), "the seed holds \(from)")
                let variant = try JSONDecoder().decode(AnyJSON.self, from: Data(seedText.replacingOccurrences(of: from, with: to).utf8))
                await #expect(throws: UnderstudyClientError.self, "\(to) is accepted") { try await f.admin.setInsights(itemID: itemID, variant) }
            }

            _ = try await f.projectAdmin.freezeClock(at: "2026-09-11T02:30:00Z")
            try await f.admin.generateInsights(itemID: itemID, timeZone: "America/Toronto")
            let generated = try #require(try await repo.getInsightData())
            #expect(generated["timeZone"]?.string == "America/Toronto" && generated["generatedAt"]?.string == "2026-09-11T02:30:00Z")
            // 02:30 UTC is 22:30 the day before in Toronto; reward months stay UTC.
            #expect(generated["dropRank"]?["daily"]?.array?.last?["date"]?.string == "2026-09-10")
            #expect(generated["rewards"]?["current"]?["month"]?.string == "2026-09")
            // 02:30 UTC is 08:00 the same day in Kolkata (+05:30): a name Foundation on Linux does not list.
            try await f.admin.generateInsights(itemID: itemID, timeZone: "Asia/Kolkata")
            let kolkata = try #require(try await repo.getInsightData())
            #expect(kolkata["timeZone"]?.string == "Asia/Kolkata" && kolkata["dropRank"]?["daily"]?.array?.last?["date"]?.string == "2026-09-11")
            try await f.admin.generateInsights(itemID: itemID, timeZone: "Etc/UTC")
            #expect(try await repo.getInsightData()?["timeZone"]?.string == "Etc/UTC")
            await #expect(throws: UnderstudyClientError.self, "an abbreviation is no zone name") {
                try await f.admin.generateInsights(itemID: itemID, timeZone: "PST")
            }

            try await f.admin.setInsights(itemID: itemID, .null)
            #expect(try await repo.getInsightData() == Optional<AnyJSON>.none)
            let missing = await wlError { _ = try await f.repository(device: "UNKNOWN").getInsightData() }
            #expect(missing?.status == 401) // logged-out repository
            let unknownDevice = f.repository(device: "UNKNOWN")
            try await unknownDevice.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(await wlError { _ = try await unknownDevice.getInsightData() }?.errorCode == 1301)
            try await f.admin.createItem(["deviceId": "THEIRS", "ownerEmail": "bob@example.org"])
            let theirs = f.repository(device: "THEIRS")
            try await theirs.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(await wlError { _ = try await theirs.getInsightData() }?.errorCode == 1302)
        }
    }

    @Test("items: public 404, create 201 then 200, FCM token update and capture, silent push into the outbox")
    func itemsAndTokens() async throws {
        // The repeated diagnostic report is sent on purpose; the checks report it (the repeated drop capture they leave alone).
        try await WarrantyLifeFixture.with(expectingFindings: true) { f in
            try await f.user("jane@example.com")
            let repo = f.repository(device: "PHONE")
            #expect(await wlError { _ = try await repo.getItemByDeviceIdPublic() }?.errorCode == 1301)
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let created = try await repo.createItem(model: "iPhone 13", mpn: "iPhone14,5", imei: "356938035643809")
            let again = try await f.raw(
                "POST", "/items", headers: ["Content-Type": "application/json"], body: Data(#"{"deviceId":"PHONE","categoryId":"95"}"#.utf8),
                login: try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass"))
            #expect(again.status == 200)
            let itemID = try #require(created["id"]?.string)
            #expect(created["hasActiveCoverage"]?.bool == false && created["imei"]?.string == "356938035643809" && Int(itemID) != nil)
            let token = try await repo.updateFCMToken(itemId: itemID, fcmToken: "fcm-1")
            #expect(token["notificationToken"]?.string == "fcm-1" && token["itemId"]?.string == itemID)
            let firstDrop = try await repo.createSensorEvent(
                itemId: itemID, body: ["eventAt": "2026-11-30 09:00:00.000", "sensorEventType": 1200, "volumeSetting": -1, "notificationToken": "fcm-2"])
            let tokenOnly = try await f.raw(
                "PUT", "/items/\(itemID)", headers: ["Content-Type": "application/json"], body: Data(#"{"notificationToken":"fcm-3"}"#.utf8),
                login: try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass"))
            #expect(try tokenOnly.status == 200 && tokenOnly.json()["data"]?["id"]?.string == itemID)
            let tokens = try await f.admin.list("fcm-tokens", itemID: itemID)
            #expect(tokens.map { $0["token"]?.string } == ["fcm-1", "fcm-2", "fcm-3"])
            // Same eventAt again: a new id (no dedupe by default, so an SDK that re-uploads shows), stored and marked as a duplicate.
            let repeated = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 09:00:00.000", "sensorEventType": 1200, "volumeSetting": -1])
            #expect(repeated != firstDrop)
            #expect(try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 09:00:01.000", "sensorEventType": 1200]) != firstDrop)
            let drops = try await f.admin.list("sensor-events", itemID: itemID)
            #expect(drops.count == 3 && drops[0]["id"]?.string == firstDrop && drops[1]["duplicateOf"]?.string == firstDrop && drops[2]["duplicateOf"] == .null)
            // Diagnostics: the same request fingerprint gets a new id, marked with the first one's.
            let report = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple", "ram": 4])
            #expect(try await repo.createItemDiagnosticReport(itemId: itemID, body: ["ram": 4, "brand": "Apple"]) != report)
            #expect(try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple", "ram": 8]) != report)
            #expect(try await f.admin.list("diagnostics", itemID: itemID).map { $0["sameHashAs"]?.string } == [nil, report, nil])
            // Audio, with the query as sent and with a fully percent-encoded URL (`?` as %3F).
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            #expect(
                try await f.raw("POST", "/items/\(itemID)/clips/sound/\(firstDrop)", query: [("createdAt", "2026-11-30 09:00:00.000")], body: Data("a".utf8), login: login).status
                    == 201)
            #expect(try await f.raw("POST", "/items/\(itemID)/clips/sound/\(firstDrop)%3FcreatedAt=2026-11-30%2009:00:00.000", body: Data("b".utf8), login: login).status == 201)
            #expect(try await f.admin.list("audio-clips", itemID: itemID).map { $0["recordedAt"]?.string } == ["2026-11-30 09:00:00.000", "2026-11-30 09:00:00.000"])
            try await f.admin.silentPush(itemID: itemID)
            let pushes = try await f.projectAdmin.outbox(platform: "warrantylife", kind: "push")
            #expect(pushes.count == 1 && pushes.first?.recipient == "fcm-3")
            #expect(try await f.projectAdmin.findings().map(\.rule) == ["warrantylife.diagnostic-recreated"])
        }
    }

    @Test("surveys, offers (raw HTML and JSON), feedback, sensor tests and diagnostic config")
    func content() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let survey = try await repo.getSurvey(version: 1)
            #expect(survey["questions"]?[0]?["surveyOptions"]?[0]?["transDesc"]?.string == "Never")
            #expect(try await repo.postSurvey(body: ["surveyVersion": 1, "answers": [["1": 11], ["questionId": 2, "optionId": 21]]])["id"]?.string != nil)
            let badSurvey = await wlError { _ = try await repo.postSurvey(body: ["surveyVersion": 1, "answers": [["1": "yes"]]]) }
            #expect(badSurvey?.status == 400)
            try await f.admin.setContent("offersRegistrationHTML", "<html><body>Deals for {{query}}</body></html>")
            let html = try await repo.fetchOffers(country: "CA", state: "BC", zip: "V5K", city: "Vancouver")
            #expect(html == "<html><body>Deals for city=Vancouver, country=CA, state=BC, zip=V5K</body></html>")
            #expect(try await repo.getOffers(country: "US").array?.count == 2)
            #expect(try await repo.postFeedback(model: ["rating": 5, "message": "Great"])["id"]?.string != nil)
            #expect(try await f.admin.list("submissions").map { $0["kind"]?.string } == ["survey", "feedback"])
            #expect(try await repo.getSensorTests().array?.first?["id"]?.string == "3")
            // Served content is reused between fetches, and a control-plane change shows at once.
            let firstConfig = try await f.raw("GET", "/app-config")
            #expect(try await f.raw("GET", "/app-config").text == firstConfig.text)
            try await f.admin.setContent("appConfig", ["countries": []])
            #expect(try await f.raw("GET", "/app-config").text == #"{"data":{"countries":[]}}"#)
            try await f.admin.setContent("sensorTests", [["id": "4", "name": "x", "description": "y", "sensorTestPhases": []]])
            #expect(try await repo.getSensorTests().array?.first?["id"]?.string == "4")
            #expect(try await repo.getDiagnosticConfig(model: "iPhone14,2")["diagnosticRequirements"]?["sensorTest"]?["id"]?.string == "3")
            try await f.admin.setContent("diagnosticConfig", ["iPhone14,2": ["sensorTest": ["id": "9", "name": "x", "description": "y", "sensorTestPhases": []]]])
            #expect(await wlError { _ = try await repo.getDiagnosticConfig(model: "Pixel") }?.status == 404)
        }
    }

    @Test("a gzip readings batch is kept as the stream sent, an uncompressed one as its text; both inspect alike and survive a snapshot")
    func readingsStoredAsReceived() async throws {
        // The same readings go up three times in three encodings: the repeat the checks report.
        try await WarrantyLifeFixture.with(expectingFindings: true) { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let itemID = try #require(try await repo.createItem(model: "iPhone", mpn: "iPhone14,2")["id"]?.string)
            let eventID = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 10:00:00.000", "sensorEventType": 1111])
            let path = "/items/\(itemID)/events/\(eventID)/readings"
            let json = Data(
                ("["
                    + (0..<40).map { #"{"readingAt":"2026-11-30 10:00:00.\#(String(format: "%03d", $0))","accelerationX":0.\#($0),"phase":5000}"# }
                    .joined(separator: ",") + "]").utf8)
            let gzip = Gzip.compress(json)
            #expect(try await f.raw("POST", path, body: json, login: login).status == 201)
            #expect(try await f.raw("POST", path, headers: ["Content-Encoding": "gzip"], body: gzip, login: login).status == 201)
            #expect(try await f.raw("POST", path, body: gzip, login: login).status == 201) // no header: the magic bytes decide

            let sent = try JSONDecoder().decode(AnyJSON.self, from: json)
            func expectBatches(sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let batches = try await f.admin.list("readings", itemID: itemID)
                #expect(batches.map { $0["gzipped"]?.bool } == [false, true, true], sourceLocation: sourceLocation)
                #expect(batches.allSatisfy { $0["readings"] == sent && $0["count"]?.int == 40 && $0["readingsGzip"] == nil }, sourceLocation: sourceLocation)
            }
            try await expectBatches()
            let projectID = f.project.id
            let stored = try await f.server.server.emulator.services.database.read { connection in
                try connection.query("SELECT readings, readings_gzip FROM wl_readings WHERE project_id = ? ORDER BY id", projectID)
                    .map { (row: Row) in (try row.decode("readings", as: String.self), try row.decodeIfPresent("readings_gzip", as: Data.self)) }
            }
            #expect(stored.map(\.0) == [String(decoding: json, as: UTF8.self), "", ""])
            #expect(stored.map(\.1) == [nil, gzip, gzip])

            _ = try await f.projectAdmin.saveSnapshot("three-batches")
            #expect(try await f.raw("POST", path, body: gzip, login: login).status == 201)
            try await f.projectAdmin.restoreSnapshot("three-batches")
            try await expectBatches()
            let found = try await f.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warrantylife.readings-reuploaded"] && found.first?.count == 2) // as the snapshot had it
        }
    }

    @Test("bad input: broken gzip, non-array readings, wrong types, bad dates, multipart without image, oversized uploads — 4xx, no rows")
    func badInput() async throws {
        try await WarrantyLifeFixture.with(configure: { $0.platforms[.warrantylife] = ["maxUploadBytes": 2_000] }) { f in
            try await f.user("jane@example.com")
            let repo = f.repository()
            let login = try await repo.getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let item = try await repo.createItem(model: "iPhone", mpn: "iPhone14,2")
            let itemID = try #require(item["id"]?.string)
            let eventID = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 10:00:00.000", "sensorEventType": 1111])
            let readingsPath = "/items/\(itemID)/events/\(eventID)/readings"
            func expect400(_ response: ClientResponse, _ fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
                let error = try wlError(response)
                #expect(response.status == 400 && error.errorCode == 1400, sourceLocation: sourceLocation)
                if let fragment { #expect(error.errorMessage?.contains(fragment) == true, "\(error.errorMessage ?? "")", sourceLocation: sourceLocation) }
            }
            try expect400(try await f.raw("POST", readingsPath, headers: ["Content-Encoding": "gzip"], body: Data([0x1f, 0x8b, 8, 0, 1, 2, 3]), login: login))
            try expect400(try await f.raw("POST", readingsPath, body: Data([0x1f, 0x8b, 8, 0, 1, 2, 3]), login: login), "gzip")
            try expect400(try await f.raw("POST", readingsPath, body: Data(#"{"readingAt":"x"}"#.utf8), login: login), "array")
            try expect400(try await f.raw("POST", readingsPath, body: Data(#"[{"readingAt":"2026-13-01 00:00:00.000"}]"#.utf8), login: login), "readingAt")
            try expect400(try await f.raw("POST", readingsPath, body: Data(#"[{"accelerationX":"fast"}]"#.utf8), login: login), "accelerationX")
            let big = try await f.raw("POST", readingsPath, body: Data(("[" + Array(repeating: #"{"phase":1}"#, count: 300).joined(separator: ",") + "]").utf8), login: login)
            #expect(try big.status == 413 && wlError(big).errorCode == 1413)
            let unknownEvent = try await f.raw("POST", "/items/\(itemID)/events/404404/readings", body: Data("[]".utf8), login: login)
            #expect(try unknownEvent.status == 404 && wlError(unknownEvent).errorCode == 1701)

            try expect400(
                try await f.raw("PUT", "/items/\(itemID)", headers: ["Content-Type": "application/json"], body: Data(#"{"eventAt":"2026-11-30T10:00:00Z"}"#.utf8), login: login),
                "eventAt")
            try expect400(
                try await f.raw("PUT", "/items/\(itemID)", body: Data(#"{"eventAt":"2026-11-30 10:00:00.000","sensorEventType":"drop"}"#.utf8), login: login), "sensorEventType")
            try expect400(try await f.raw("PUT", "/items/\(itemID)", body: Data("[1,2]".utf8), login: login), "object")
            try expect400(try await f.raw("PUT", "/items/\(itemID)", body: Data("{nope".utf8), login: login), "JSON")
            try expect400(try await f.raw("POST", "/items/\(itemID)/clips/sound/\(eventID)", query: [("createdAt", "yesterday")], body: Data("a".utf8), login: login), "createdAt")

            let diagnosticID = try await repo.createItemDiagnosticReport(itemId: itemID, body: ["brand": "Apple"])
            try expect400(try await f.raw("POST", "/items/\(itemID)/diagnostics", body: Data(#"{"ram":"lots"}"#.utf8), login: login), "ram")
            let imagePath = "/items/\(itemID)/diagnostics/\(diagnosticID)/images/receipt"
            let noImage = "--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"1\"\r\n\r\nxx\r\n--b--\r\n"
            try expect400(try await f.raw("POST", imagePath, headers: ["Content-Type": "multipart/form-data; boundary=b"], body: Data(noImage.utf8), login: login), "image")
            let truncated = "--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"1\"\r\n\r\nxx"
            try expect400(try await f.raw("POST", imagePath, headers: ["Content-Type": "multipart/form-data; boundary=b"], body: Data(truncated.utf8), login: login), "malformed")
            try expect400(try await f.raw("POST", imagePath, headers: ["Content-Type": "image/jpeg"], body: Data("xx".utf8), login: login), "multipart")
            let oversized = await wlError { _ = try await repo.uploadImage(itemId: itemID, diagnosticId: diagnosticID, kind: "receipt", image: Data(count: 3_000)) }
            #expect(oversized?.status == 413)
            #expect(await wlError { _ = try await repo.uploadImage(itemId: itemID, diagnosticId: "999", kind: "test", image: Data("x".utf8)) }?.errorCode == 1702)

            try expect400(try await f.raw("POST", "/warranties", body: Data(#"{"voucherCode":"X","dateOfPurchase":"2026-02-30"}"#.utf8), login: login))
            try expect400(try await f.raw("POST", "/feedback", body: Data("42".utf8), login: login))

            // Nothing from the rejected requests was stored.
            #expect(try await f.admin.list("readings").isEmpty)
            #expect(try await f.admin.list("sensor-events").count == 1)
            #expect(try await f.admin.list("audio-clips").isEmpty)
            #expect(try await f.admin.list("diagnostics").count == 1)
            #expect(try await f.admin.list("images").isEmpty)
            #expect(try await f.admin.list("submissions").isEmpty)
            // And each was journalled with its status.
            let journal = try await f.projectAdmin.waitForRequests(JournalQuery(platform: "warrantylife", status: 400), count: 16)
            #expect(journal.requests.count == 16)
        }
    }
}
