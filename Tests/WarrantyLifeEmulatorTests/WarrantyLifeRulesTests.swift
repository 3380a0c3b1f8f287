import EmulatorCore
import Foundation
import HTTPServer
import Testing
@testable import WarrantyLifeEmulator

@Suite("WarrantyLife rules")
struct WarrantyLifeRulesTests {
    let now = Timestamp.parse("2026-11-30T12:00:00Z")!

    @Test("the voucher decision table: first matching rule wins")
    func actionTable() throws {
        func action(_ facts: VoucherLookupFacts) throws -> VoucherAction { try WarrantyLifeRules.action(for: facts, now: now) }
        #expect(try action(VoucherLookupFacts()) == .normalRegistration)
        // 1 beats 2: a forced action wins even for a redeemed voucher.
        #expect(try action(VoucherLookupFacts(forcedAction: .differentEmailClaimed, status: "redeemed")) == .differentEmailClaimed)
        #expect(throws: WarrantyLifeError.voucherRedeemed) { try action(VoucherLookupFacts(status: "redeemed", isPlanTransfer: true)) }
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
        #expect(WarrantyLifeRules.maskEmail("jdoe@gmail.com") == "j*****e@*.com")
        #expect(WarrantyLifeRules.maskEmail("l7@mail.example.ca") == "l*****7@*.ca")
        #expect(WarrantyLifeRules.normalizedVoucherCode("  abc-1234-xyz\n") == "ABC-1234-XYZ")
        #expect(WarrantyLifeRules.encodedID("500123") == "NTAwMTIz")
        #expect(WarrantyLifeRules.parseDay("2024-02-29") != nil)
        #expect(WarrantyLifeRules.parseDay("2026-02-29") == nil)
        #expect(WarrantyLifeRules.parseDay("2026-1-01") == nil)
        #expect(WarrantyLifeRules.parseDate("2026-01-15T10:00:00Z") != nil)
        #expect(WarrantyLifeRules.isLocalTimestamp("2026-11-30 10:15:00.250"))
        #expect(WarrantyLifeRules.isLocalTimestamp("2026-11-30 10:15:00"))
        #expect(!WarrantyLifeRules.isLocalTimestamp("2026-11-30T10:15:00.250"))
        #expect(!WarrantyLifeRules.isLocalTimestamp("2026-11-30 24:00:00.000"))
        #expect(!WarrantyLifeRules.isLocalTimestamp("2026-11-30 10:15:00."))
    }

    @Test("coverage needs ACTIVE and the clock inside the coverage dates")
    func coverage() {
        #expect(WarrantyLifeRules.hasActiveCoverage(status: "ACTIVE", start: "2026-01-01", end: "2027-01-01", now: now))
        #expect(!WarrantyLifeRules.hasActiveCoverage(status: "CANCELLED", start: nil, end: nil, now: now))
        #expect(!WarrantyLifeRules.hasActiveCoverage(status: "ACTIVE", start: "2026-12-01", end: nil, now: now))
        #expect(!WarrantyLifeRules.hasActiveCoverage(status: "ACTIVE", start: nil, end: "2026-11-30T12:00:00Z", now: now))
        #expect(Timestamp.format(WarrantyLifeRules.adding(months: 12, to: now), fractionalSeconds: false) == "2027-11-30T12:00:00Z")
    }

    @Test("readings: an array of objects with local readingAt and numeric sensor fields")
    func readings() throws {
        #expect(try WarrantyLifeRules.validateReadings([["readingAt": "2026-11-30 10:00:00.001", "accelerationX": 1.5, "phase": -1], [:]]) == 2)
        #expect(try WarrantyLifeRules.validateReadings([]) == 0)
        #expect(throws: WarrantyLifeError.self) { try WarrantyLifeRules.validateReadings(["readingAt": "x"]) }
        #expect(throws: WarrantyLifeError.self) { try WarrantyLifeRules.validateReadings([1]) }
        #expect(throws: WarrantyLifeError.validation("Field `0.pitch` must be a number.")) { try WarrantyLifeRules.validateReadings([["pitch": "up"]]) }
    }

    @Test("Smart Saver flags top level or under smartSaver; sorted hash ignores key order")
    func flagsAndHash() throws {
        let flags = WarrantyLifeRules.smartSaverFlags(in: ["ssr": true, "smartSaver": ["ssd": false, "tradeIn": true]])
        #expect(flags.map(\.program) == ["SSR", "SSD", "TRADE_IN"] && flags.map(\.optedIn) == [true, false, true])
        #expect(WarrantyLifeRules.smartSaverFlags(in: ["eventAt": "x"]).isEmpty)
        let a = try JSONValue.parse(Data(#"{"b":1,"a":{"y":2,"x":1}}"#.utf8)), b = try JSONValue.parse(Data(#"{"a":{"x":1,"y":2},"b":1}"#.utf8))
        #expect(WarrantyLifeRules.sortedHash(a) == WarrantyLifeRules.sortedHash(b))
        #expect(WarrantyLifeRules.sortedHash(a).count == 64)
    }

    @Test("insight seeds are checked against the SDK model; a generated one passes")
    func insights() {
        let generated = InsightGenerator.generate(now: now, timeZone: TimeZone(identifier: "Asia/Tokyo")!, seed: 1)
        #expect(WarrantyLifeRules.insightProblems(generated) == [])
        #expect(generated["dropRank"]?["daily"]?.arrayValue?.last?["date"]?.stringValue == "2026-11-30")
        var broken = generated.objectValue ?? [:]
        broken["tip"] = ["daily": [], "weekly": [], "monthly": []]
        #expect(WarrantyLifeRules.insightProblems(.object(broken)).contains("`tip.current` must be an object"))
        #expect(!WarrantyLifeRules.insightProblems(["generatedAt": 1]).isEmpty)
        let normalized = WarrantyLifeRules.normalizedInsight(["rewards": ["history": []]])
        #expect(normalized["rewards"]?["current"] == .null && normalized["rewards"]?["projected"] == .null)
    }

    @Test("multipart: parts, quoted boundary, truncation and missing names are rejected")
    func multipart() throws {
        let body = Data("--x\r\nContent-Disposition: form-data; name=\"image\"; filename=\"123\"\r\nContent-Type: image/jpg\r\n\r\nAB\r\nCD\r\n--x\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--x--\r\n".utf8)
        #expect(MultipartParser.boundary(fromContentType: "multipart/form-data; boundary=\"x\"") == "x")
        #expect(MultipartParser.boundary(fromContentType: "application/json") == nil)
        let parts = try MultipartParser.parse(body, boundary: "x")
        #expect(parts.map(\.name) == ["image", "note"])
        #expect(parts[0].body == Data("AB\r\nCD".utf8) && parts[0].contentType == "image/jpg" && parts[0].filename == "123")
        #expect(parts[1].contentType == "application/octet-stream")
        #expect(throws: MultipartParser.Failure.self) { try MultipartParser.parse(body.prefix(60), boundary: "x") }
        #expect(throws: MultipartParser.Failure.self) { try MultipartParser.parse(Data("--x\r\nX: y\r\n\r\nz\r\n--x--".utf8), boundary: "x") }
        #expect(throws: MultipartParser.Failure.self) { try MultipartParser.parse(Data("nothing".utf8), boundary: "x") }
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
        let basic = UserCredentials(header: "Basic " + Data("jane@example.com:abc".utf8).base64EncodedString())
        #expect(basic == UserCredentials(header: "basic " + Data("jane@example.com:abc".utf8).base64EncodedString()))
        #expect(basic?.identity == "jane@example.com" && basic?.token == "abc")
        #expect(UserCredentials(header: "Bearer xyz")?.token == "xyz")
        #expect(UserCredentials(header: "Basic !!!") == nil && UserCredentials(header: "Digest x") == nil && UserCredentials(header: nil) == nil)
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
