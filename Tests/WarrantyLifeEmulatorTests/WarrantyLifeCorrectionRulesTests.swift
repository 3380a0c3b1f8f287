import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Testing

@testable import WarrantyLifeEmulator

@Suite("WarrantyLife contract corrections (rules)")
struct WarrantyLifeCorrectionRulesTests {
    let now = Timestamp.parse("2026-11-30T12:00:00Z")!

    @Test("repeats are not deduplicated unless the configuration opts in")
    func dedupeDefaults() {
        let defaults = WarrantyLifeSettings()
        #expect(!defaults.sensorEventDedupe && !defaults.uploadDedupe)
        let opted = WarrantyLifeSettings(["sensorEventDedupe": true, "uploadDedupe": true])
        #expect(opted.sensorEventDedupe && opted.uploadDedupe)
    }

    @Test("an ACTIVE warranty reads EXPIRED from its coverage end on; other statuses are kept")
    func expiredStatus() {
        func warranty(_ status: String, end: String?) -> WarrantyRecord {
            var document: [String: JSONValue] = ["status": .string(status)]
            if let end { document["coverageEndDate"] = .string(end) }
            return WarrantyRecord(id: "1", itemID: "2", userID: "3", voucherCode: nil, document: document)
        }
        #expect(warranty("ACTIVE", end: "2026-11-30T12:00:01Z").status(now: now) == "ACTIVE")
        #expect(warranty("ACTIVE", end: "2026-11-30T12:00:00Z").status(now: now) == "EXPIRED")
        #expect(warranty("ACTIVE", end: "2026-11-01").status(now: now) == "EXPIRED")
        #expect(warranty("ACTIVE", end: nil).status(now: now) == "ACTIVE")
        #expect(warranty("CANCELLED", end: "2026-11-01").status(now: now) == "CANCELLED")
        let expired = warranty("ACTIVE", end: "2026-11-01").wire(now: now, item: nil)
        #expect(expired["status"] == "EXPIRED" && expired["hasActiveCoverage"] == false)
    }

    @Test("a body that is not UTF-8 is a 400 naming the encoding, before JSON parsing")
    func invalidUTF8() {
        var bytes = Data(#"{"a":""#.utf8)
        bytes.append(0xFF)
        bytes.append(contentsOf: Data(#""}"#.utf8))
        let request = Request(method: .post, target: "/x", headers: ["Content-Type": "application/json"], body: bytes)
        #expect(throws: WarrantyLifeError.validation("The request body is not valid UTF-8.")) { try WireBody.object(request) }
        #expect(throws: WarrantyLifeError.validation("The request body is not valid UTF-8.")) { try WireBody.objectOrForm(request) }
        #expect(throws: WarrantyLifeError.validation("The request body is not valid JSON.")) {
            try WireBody.object(Request(method: .post, target: "/x", body: Data("{".utf8)))
        }
    }

    @Test("insight seeds are FNV-1a of the item id: the same in every process")
    func stableInsightSeed() {
        // FNV-1a 64-bit reference values.
        #expect(InsightGenerator.seed(forItem: "") == 0xcbf2_9ce4_8422_2325)
        #expect(InsightGenerator.seed(forItem: "a") == 0xaf63_dc4c_8601_ec8c)
        #expect(InsightGenerator.seed(forItem: "foobar") == 0x8594_4171_f739_67e8)
        let zone = TimeZone(identifier: "UTC")!
        let seed = InsightGenerator.seed(forItem: "100234")
        #expect(InsightGenerator.generate(now: now, timeZone: zone, seed: seed) == InsightGenerator.generate(now: now, timeZone: zone, seed: seed))
    }

    @Test("a request no route took: 405 with Allow for a known path, 404 otherwise")
    func unrouted() throws {
        let refused = WarrantyLifeRoutes.unrouted(.methodNotAllowed(allowed: [.get, .head]))
        #expect(refused.status == 405 && refused.code == 1405)
        let response = refused.response(trace: "9")
        #expect(response.headers["allow"] == "GET, HEAD" && response.headers["x-understudy-trace"] == "9")
        #expect(WarrantyLifeRoutes.unrouted(.notFound) == .routeNotFound)
        let routes = WarrantyLifeRoutes(settings: WarrantyLifeSettings()).routes()
        // The fallback comes after every real route, one per method it answers.
        #expect(routes.suffix(WarrantyLifeRoutes.fallbackMethods.count).allSatisfy { $0.path == "/{path...}" })
        #expect(routes.filter { $0.path == "/{path...}" }.map(\.method) == WarrantyLifeRoutes.fallbackMethods)
    }

    @Test("the platform reads the key and the user credentials once; routes take them from the context, the index looks up only the key")
    func presentedCredentials() async throws {
        let platform = WarrantyLifePlatform()
        var headers: HTTPHeaders = ["X-WL-Developer-Key": " k1 "]
        headers.set("Authorization", "Basic " + Data("jane@example.com:tok".utf8).base64EncodedString())
        let presented = platform.presentedCredentials(in: Request(method: .get, target: "/x", headers: headers))
        #expect(presented.map(\.kind) == ["developerKey", "userToken", "userIdentity"])
        #expect(presented.map(\.value) == ["k1", "tok", "jane@example.com"])
        // Only the developer key names a project: a request with user credentials alone presented none that could.
        #expect(presented.map(\.namesProject) == [true, false, false])
        #expect(presented.map(\.carrier) == [.header("X-WL-Developer-Key"), .header("Authorization"), .header("Authorization")])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wl-presented-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let services = EmulatorServices(database: try SQLiteDatabase(path: path), settings: EmulatorSettings())
        func context(_ presented: [PresentedCredential]) -> EmulatorContext {
            EmulatorContext(
                requestID: "1", platform: .warrantylife, parameters: [:], route: "/", projectID: nil, presentedCredentials: presented, now: now,
                services: services)
        }
        let basic = UserCredentials(presentedIn: context(presented))
        #expect(basic?.identity == "jane@example.com" && basic?.token == "tok")
        let bearer = platform.presentedCredentials(in: Request(method: .get, target: "/x", headers: ["Authorization": "Bearer xyz"]))
        let fromBearer = UserCredentials(presentedIn: context(bearer))
        #expect(fromBearer != nil && fromBearer?.identity == nil && fromBearer?.token == "xyz")
        #expect(UserCredentials(presentedIn: context([])) == nil)
        // A user token never names a project, even one that equals a developer key.
        #expect(try await platform.lookUpCredential(PresentedCredential(kind: "userToken", value: "k1"), services: services) == nil)
    }

    @Test("Smart Saver offers come from the active warranty; none offers nothing")
    func offers() {
        let warranty = WarrantyRecord(id: "1", itemID: "2", userID: "3", voucherCode: nil, document: ["ssrOffered": true, "ssdOffered": false])
        #expect(WarrantyLifeService.offers(.ssr, warranty) && !WarrantyLifeService.offers(.ssd, warranty) && !WarrantyLifeService.offers(.tradeIn, warranty))
        #expect(!WarrantyLifeService.offers(.ssr, nil))
    }

    @Test("dates and whole numbers follow the grammar the OpenAPI document states")
    func documentedGrammar() {
        #expect(WarrantyLifeService.parseDate("2026-11-01") != nil)
        #expect(WarrantyLifeService.parseDate("2026-11-01T10:00:00Z") != nil)
        #expect(WarrantyLifeService.parseDate("2026-11-01T10:00:00.123-18:00") != nil)
        // The format style would take these; the document does not.
        for lenient in [
            "2026-11-01T24:00:00Z", "2026-02-29T00:00:00Z", "2026-11-01T10:00:00+0100", "2026-11-01T10:00:00+19:00",
            "2026-11-01T10:00:60Z", "2026-11-01T10:00:00.1234Z", "2026-11-01T10:00:00z", "+026-11-01",
        ] {
            #expect(WarrantyLifeService.parseDate(lenient) == nil, "\(lenient)")
        }
        #expect(!WarrantyLifeService.isLocalTimestamp("2026-11-30 10:15:00.٣"))
        #expect(WireBody.wholeNumber(5) == 5 && WireBody.wholeNumber(5.0) == 5 && WireBody.wholeNumber(5.5) == nil)
        #expect(WireBody.wholeNumber(.int(9_000_000_000_000_000)) == nil && WireBody.wholeNumber(.int(8_999_999_999_999_999)) == 8_999_999_999_999_999)
        // Int64.min has no positive counterpart: `abs` of it traps, so this once stopped the server.
        #expect(WireBody.wholeNumber(.int(Int64.min)) == nil && WireBody.wholeNumber(.int(Int64.max)) == nil && WireBody.wholeNumber(.double(-9.3e18)) == nil)
        #expect(WireBody.isBlank(" \u{3000}\n") && !WireBody.isBlank(" x ") && WireBody.trimmed("\u{85} a@b \t") == "a@b")
    }
}
