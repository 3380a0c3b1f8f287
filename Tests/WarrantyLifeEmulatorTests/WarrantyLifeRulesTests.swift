import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Testing

@testable import WarrantyLifeEmulator

@Suite("WarrantyLife rules")
struct WarrantyLifeRulesTests {
    let now = Timestamp.parse("2026-11-30T12:00:00Z")!

    @Test("the voucher decision table: first matching rule wins")
    func actionTable() throws {
        func action(_ facts: VoucherLookupFacts) throws -> VoucherAction { try VoucherActionResolver.action(for: facts, now: now) }
        #expect(try action(VoucherLookupFacts()) == .normalRegistration)
        // 1 beats 2: a forced action wins even for a redeemed voucher.
        #expect(try action(VoucherLookupFacts(forcedAction: .differentEmailClaimed, status: .redeemed)) == .differentEmailClaimed)
        #expect(throws: WarrantyLifeError.voucherRedeemed) { try action(VoucherLookupFacts(status: .redeemed, isPlanTransfer: true)) }
        #expect(throws: WarrantyLifeError.voucherExpired) { try action(VoucherLookupFacts(expiresAt: now, isPlanTransfer: true)) }
        #expect(try action(VoucherLookupFacts(expiresAt: now.addingTimeInterval(1))) == .normalRegistration)
        #expect(try action(VoucherLookupFacts(transferable: false, isPlanTransfer: true, activeWarrantiesInCurrentDevice: 3)) == .warrantyNotTransferable)
        #expect(try action(VoucherLookupFacts(transferable: true, isPlanTransfer: true)) == .startWarrantyTransfer)
        #expect(try action(VoucherLookupFacts(claimedByUserID: "1", deviceHasActiveWarranty: true)) == .activeWarrantyConflict)
        #expect(try action(VoucherLookupFacts(claimedByUserID: "1", originalDeviceID: "A", deviceID: "B")) == .userNotLoggedInClaimed)
        #expect(try action(VoucherLookupFacts(claimedByUserID: "1", originalDeviceID: "A", callerUserID: "2", deviceID: "B")) == .differentEmailClaimed)
        #expect(try action(VoucherLookupFacts(transferable: true, claimedByUserID: "1", originalDeviceID: "A", callerUserID: "1", deviceID: "B")) == .deviceTransferablePopup)
        #expect(try action(VoucherLookupFacts(originalDeviceID: "A", deviceID: "B")) == .deviceNonTransferablePopup)
        #expect(try action(VoucherLookupFacts(originalDeviceID: "A", deviceID: "A")) == .normalRegistration)
        #expect(VoucherAction.allCases.filter(\.isError) == [.activeWarrantyConflict, .warrantyNotTransferable])
    }

    @Test("masked e-mail, codes, dates and local timestamps")
    func formats() {
        #expect(WarrantyLifeService.maskEmail("jdoe@gmail.com") == "j*****e@*.com")
        #expect(WarrantyLifeService.maskEmail("l7@mail.example.ca") == "l*****7@*.ca")
        #expect(WarrantyLifeService.normalizedVoucherCode("  abc-1234-xyz\n") == "ABC-1234-XYZ")
        #expect(WarrantyLifeService.encodedID("500123") == "NTAwMTIz")
        #expect(WarrantyLifeService.parseDay("2024-02-29") != nil)
        #expect(WarrantyLifeService.parseDay("2026-02-29") == nil)
        #expect(WarrantyLifeService.parseDay("2026-1-01") == nil)
        #expect(WarrantyLifeService.parseDate("2026-01-15T10:00:00Z") != nil)
        #expect(WarrantyLifeService.isLocalTimestamp("2026-11-30 10:15:00.250"))
        #expect(WarrantyLifeService.isLocalTimestamp("2026-11-30 10:15:00"))
        #expect(!WarrantyLifeService.isLocalTimestamp("2026-11-30T10:15:00.250"))
        #expect(!WarrantyLifeService.isLocalTimestamp("2026-11-30 24:00:00.000"))
        #expect(!WarrantyLifeService.isLocalTimestamp("2026-11-30 10:15:00."))
    }

    @Test("days parse to midnight UTC of the shared hand count, and the server's own stamps to what the grammar check gives")
    func handParsedDates() {
        // The count itself is checked against the calendar in EmulatorCore's tests.
        for text in ["2026-12-05", "2024-02-29", "1970-01-01", "1969-12-31", "1582-10-04", "9999-12-31", "2026-02-29", "2026-1-05", ""] {
            #expect(WarrantyLifeService.parseDay(text) == Timestamp.dayNumber(text).map { Date(timeIntervalSince1970: Double($0) * 86_400) }, "\(text)")
        }
        #expect(WarrantyLifeService.parseDay("2026-12-05") == Timestamp.parse("2026-12-05T00:00:00Z"))
        #expect(WarrantyLifeService.parseDay("2026-04-31") == nil)
        // Stamps in the server's own form skip the grammar check; they must give what it gives.
        for stamp in [
            "2026-11-30T10:00:00Z", "2026-11-30T10:00:00.250Z", "2024-02-29T23:59:59Z", "1970-01-01T00:00:00.000Z", "2026-02-29T10:00:00Z",
            "2026-11-30T24:00:00Z", "2026-11-30T10:60:00Z", "2026-11-30T10:00:00.25Z", "2026-11-30T10:00:00+01:00",
        ] {
            let reference = WarrantyLifeService.isTimestamp(stamp) ? Timestamp.parse(stamp) : nil
            #expect(WarrantyLifeService.parseDate(stamp) == reference, "\(stamp)")
        }
        #expect(WarrantyLifeService.parseDate("2026-11-30T10:00:00.250Z") == Date(timeIntervalSince1970: 1_796_032_800.25))
    }

    @Test("coverage needs ACTIVE and the clock inside the coverage dates")
    func coverage() {
        #expect(WarrantyLifeService.hasActiveCoverage(status: "ACTIVE", start: "2026-01-01", end: "2027-01-01", now: now))
        #expect(!WarrantyLifeService.hasActiveCoverage(status: "CANCELLED", start: nil, end: nil, now: now))
        #expect(!WarrantyLifeService.hasActiveCoverage(status: "ACTIVE", start: "2026-12-01", end: nil, now: now))
        #expect(!WarrantyLifeService.hasActiveCoverage(status: "ACTIVE", start: nil, end: "2026-11-30T12:00:00Z", now: now))
        #expect(Timestamp.format(WarrantyLifeService.adding(months: 12, to: now), fractionalSeconds: false) == "2027-11-30T12:00:00Z")
    }

    @Test("readings: an array of objects with local readingAt and numeric sensor fields")
    func readings() throws {
        #expect(try WarrantyLifeService.validateReadings([["readingAt": "2026-11-30 10:00:00.001", "accelerationX": 1.5, "phase": -1], [:]]) == 2)
        #expect(try WarrantyLifeService.validateReadings([]) == 0)
        #expect(throws: WarrantyLifeError.self) { try WarrantyLifeService.validateReadings(["readingAt": "x"]) }
        #expect(throws: WarrantyLifeError.self) { try WarrantyLifeService.validateReadings([1]) }
        #expect(throws: WarrantyLifeError.validation("Field `0.pitch` must be a number.")) { try WarrantyLifeService.validateReadings([["pitch": "up"]]) }
    }

    @Test("Smart Saver flags top level or under smartSaver; sorted hash ignores key order")
    func flagsAndHash() throws {
        let flags = WarrantyLifeService.smartSaverFlags(in: ["ssr": true, "smartSaver": ["ssd": false, "tradeIn": true]])
        #expect(flags.map(\.program.rawValue) == ["SSR", "SSD", "TRADE_IN"] && flags.map(\.optedIn) == [true, false, true])
        #expect(WarrantyLifeService.smartSaverFlags(in: ["eventAt": "x"]).isEmpty)
        let a = try JSONValue.parse(Data(#"{"b":1,"a":{"y":2,"x":1}}"#.utf8)), b = try JSONValue.parse(Data(#"{"a":{"x":1,"y":2},"b":1}"#.utf8))
        #expect(WarrantyLifeService.sortedHash(a) == WarrantyLifeService.sortedHash(b))
        #expect(WarrantyLifeService.sortedHash(a).count == 64)
    }

    @Test("insight seeds are checked against the SDK model; a generated one passes")
    func insights() {
        let generated = InsightGenerator.generate(now: now, timeZone: TimeZone(identifier: "Asia/Tokyo")!, seed: 1)
        #expect(InsightModel.problems(generated) == [])
        #expect(generated["dropRank"]?["daily"]?.arrayValue?.last?["date"]?.stringValue == "2026-11-30")
        var broken = generated.objectValue ?? [:]
        broken["tip"] = ["daily": [], "weekly": [], "monthly": []]
        #expect(InsightModel.problems(.object(broken)).contains("`tip.current` must be an object"))
        #expect(!InsightModel.problems(["generatedAt": 1]).isEmpty)
        let normalized = InsightModel.normalized(["rewards": ["history": []]])
        #expect(normalized["rewards"]?["current"] == .null && normalized["rewards"]?["projected"] == .null)
    }

    @Test("records: a row decodes; a missing, NULL or mistyped column throws instead of defaulting")
    func records() throws {
        let columns = ["key", "project_id", "name", "environment", "state", "unavailable_mode", "created_at"]
        func row(_ values: [SQLValue]) -> Row { Row(columns: columns, values: values) }
        let good: [SQLValue] = [.text("k"), .text("p"), .text("n"), .text("sandbox"), .text("unavailable"), .text("hang"), .text("2026-01-01T00:00:00Z")]
        let key = try DeveloperKeyRecord(row: row(good))
        #expect(key.state == .unavailable && key.unavailableMode == .hang)
        var unknownState = good
        unknownState[4] = .text("paused")
        #expect(throws: RowDecodingError.self) { try DeveloperKeyRecord(row: row(unknownState)) }
        var mistyped = good
        mistyped[2] = .integer(3)
        #expect(throws: RowDecodingError.wrongType(column: "name", expected: "String", found: "INTEGER")) { try DeveloperKeyRecord(row: row(mistyped)) }
        #expect(throws: RowDecodingError.missingColumn("created_at")) { try DeveloperKeyRecord(row: Row(columns: Array(columns.dropLast()), values: Array(good.dropLast()))) }
        let userColumns = ["id", "email", "password", "token", "activated", "profile", "created_at"]
        let user: [SQLValue] = [.text("1"), .text("a@b.c"), .null, .text("t"), .integer(1), .text(#"{"city":"X"}"#), .text("2026")]
        #expect(try UserRecord(row: Row(columns: userColumns, values: user)).profile["city"] == "X")
        var badProfile = user
        badProfile[5] = .text("not json")
        #expect(throws: RowDecodingError.self) { try UserRecord(row: Row(columns: userColumns, values: badProfile)) }
        var nullActivated = user
        nullActivated[4] = .null
        #expect(throws: RowDecodingError.unexpectedNull("activated")) { try UserRecord(row: Row(columns: userColumns, values: nullActivated)) }
        // Warranty documents are parsed once per text: a second row with the same text gets the same
        // members, and text that is not a JSON object still throws every time (a failure is not kept).
        let warrantyColumns = ["id", "item_id", "user_id", "voucher_code", "document"]
        func warranty(_ document: String) throws -> WarrantyRecord {
            try WarrantyRecord(row: Row(columns: warrantyColumns, values: [.text("w1"), .text("i1"), .null, .null, .text(document)]))
        }
        let text = #"{"status":"EXPIRED","coverageEndDate":"2027-11-30T10:00:00Z"}"#
        #expect(try warranty(text).status == "EXPIRED" && warranty(text).document == warranty(text).document)
        #expect(try warranty(#"{"status":"CANCELLED"}"#).status == "CANCELLED")
        for _ in 0..<2 {
            #expect(throws: RowDecodingError.wrongType(column: "document", expected: "JSON", found: "TEXT")) { try warranty("{\"status\":") }
            #expect(throws: RowDecodingError.wrongType(column: "document", expected: "JSON object", found: "TEXT")) { try warranty("[1]") }
        }
    }

    @Test("settings: the configuration section over the defaults; values the contract does not allow keep the default")
    func settings() {
        #expect(WarrantyLifeSettings(.null) == WarrantyLifeSettings())
        let custom = WarrantyLifeSettings(["loginFailureStatus": 401, "loginStatus": 200, "envelope": "bare", "maxUploadBytes": 10, "uploadDedupe": false])
        #expect(custom.loginFailureStatus == 401 && custom.loginStatus == 200 && custom.bareEnvelope && custom.maxUploadBytes == 10 && !custom.uploadDedupe)
        let ignored = WarrantyLifeSettings(["loginFailureStatus": 500, "loginStatus": "fast", "maxUploadBytes": 0, "requireActivation": "yes"])
        #expect(ignored == WarrantyLifeSettings())
    }

    @Test("errors: core failures and injected statuses use the catalogue; credentials parse Basic and Bearer")
    func errorsAndCredentials() throws {
        let platform = WarrantyLifePlatform()
        let notFound = platform.errorResponse(for: .routeNotFound, requestID: "7")
        #expect(notFound.status == 404 && notFound.headers["x-understudy-trace"] == "7")
        #expect(try JSONValue.parse(notFound.body) == ["error": "route_not_found", "errorMessage": "No such route.", "errorCode": 1404])
        let limited = platform.errorResponse(for: .injected(status: 429), requestID: "1")
        #expect(try limited.headers["retry-after"] == "1" && JSONValue.parse(limited.body)["errorCode"] == 1429)
        for (status, code) in [(408, 1408), (500, 5000), (502, 5002), (503, 5003), (504, 5004), (418, 1418)] {
            let response = platform.errorResponse(for: .injected(status: status), requestID: "1")
            #expect(try response.status == status && JSONValue.parse(response.body)["errorCode"]?.intValue == code)
        }
        func credentials(_ header: String?) -> UserCredentials? {
            var headers = HTTPHeaders()
            if let header { headers.set("Authorization", header) }
            return UserCredentials(Request(method: .get, target: "/x", headers: headers))
        }
        let basic = credentials("Basic " + Data("jane@example.com:abc".utf8).base64EncodedString())
        #expect(basic == credentials("basic " + Data("jane@example.com:abc".utf8).base64EncodedString()))
        #expect(basic?.identity == "jane@example.com" && basic?.token == "abc")
        #expect(credentials("Bearer xyz")?.token == "xyz" && credentials("Bearer xyz")?.identity == nil)
        #expect(credentials("Basic !!!") == nil && credentials("Digest x") == nil && credentials(nil) == nil)
        func encoded(_ text: String, padding: String = "") -> UserCredentials? { credentials("Basic " + padding + Data(text.utf8).base64EncodedString() + padding) }
        #expect(encoded("a:b:c")?.identity == "a:b" && encoded("a:b:c")?.token == "c", "the last colon splits")
        #expect(encoded("jane:abc", padding: " \t\u{A0}")?.token == "abc", "Unicode white space around the value is dropped")
        #expect(encoded("jöe:tök")?.identity == "jöe" && encoded("jöe:tök")?.token == "tök")
        #expect(encoded("joe:\u{301}x")?.identity == nil, "a colon under a combining mark is no colon: no credentials")
        #expect(encoded("joe:") == nil && encoded("nocolon") == nil)
        #expect(platform.pathPrefix(forHost: "www.warrantylife.com") == "/warrantylife" && platform.pathPrefix(forHost: "warrantylife.com") == nil)
        #expect(WarrantyLifePlatform(configuration: ["hosts": ["sandbox.warrantylife.com"]]).pathPrefix(forHost: "sandbox.warrantylife.com") == "/warrantylife")
    }

    @Test("wire bodies: JSON or form, typed reads name the field")
    func wireBodies() throws {
        let form = Request(method: .post, target: "/x", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("password=p%40ss&username=a%40b.c&n=5".utf8))
        let body = try WireBody.objectOrForm(form)
        #expect(try body.string("username") == "a@b.c" && body.string("password") == "p@ss" && body.int("n") == 5)
        let json = try WireBody.objectOrForm(Request(method: .post, target: "/x", body: Data(#"{"country":"CA","ok":"yes"}"#.utf8)))
        #expect(throws: WarrantyLifeError.validation("Field `country` must be an integer.")) { try json.int("country") }
        #expect(throws: WarrantyLifeError.validation("Field `ok` must be a boolean.")) { try json.bool("ok") }
        #expect(throws: WarrantyLifeError.self) { try WireBody.object(Request(method: .post, target: "/x", body: Data("[]".utf8))) }
    }
}
