import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The control-plane routes the dashboard draws from: a session's report, a trip with its
/// samples, the voucher-action preview and paged links.
@Suite("Inspection routes for the dashboard")
struct InspectionRoutesTests {
    /// `path` may end in `?a=b&c=d`; the client encodes the query itself.
    static func call(_ server: UnderstudyTestServer, _ method: String, _ path: String, _ body: String? = nil) async throws -> (status: Int, json: JSONValue) {
        let parts = path.split(separator: "?", maxSplits: 1).map(String.init)
        let query =
            parts.count > 1
            ? parts[1].split(separator: "&").map { pair -> (String, String) in
                let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (halves[0], halves.count > 1 ? halves[1] : "")
            } : []
        let response = try await server.client.send(
            ClientRequest(
                method: method, path: parts[0], query: query,
                headers: body == nil ? [:] : ["Content-Type": "application/json"], body: body.map { Data($0.utf8) }))
        return (response.status, (try? JSONValue.parse(response.body)) ?? .null)
    }

    @Test("an Asleep session's report carries one stage per epoch, as seeded")
    func asleepReport() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        let base = "/__admin/projects/\(project.id)/asleep"
        #expect(try await Self.call(server, "POST", base + "/users", #"{"userId": "sleeper-\#(project.id)"}"#).status == 201)
        let stages = Array(repeating: 0, count: 12) + Array(repeating: 2, count: 20) + Array(repeating: 3, count: 8)
        let seeded = try await Self.call(server, "POST", base + "/sessions", #"{"userId": "sleeper-\#(project.id)", "state": "COMPLETE", "chunks": 40, "sleepStages": \#(stages)}"#)
        let id = try #require(seeded.json["sessionId"]?.stringValue)
        let report = try await Self.call(server, "GET", base + "/sessions/\(id)/report")
        #expect(report.status == 200)
        #expect(report.json["session"]?["sleep_stages"]?.arrayValue?.compactMap(\.intValue) == stages)
        #expect(report.json["stat"]?["time_in_deep"]?.intValue == 20 * 30)
        #expect(try await Self.call(server, "GET", base + "/sessions/nope/report").status == 404)
    }

    @Test("a Telematics trip comes with every sample and its events")
    func telematicsTrip() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        let base = "/__admin/projects/\(project.id)/telematics"
        #expect(try await Self.call(server, "POST", base + "/users", #"{"userId": 41}"#).status == 201)
        let samples = (0..<25).map { #"{"timestampMs": \#(1_800_000_000_000 + $0 * 4000), "latitude": \#(40 + Double($0) * 0.001), "longitude": -8.5, "speedKmh": 40}"# }
        let body = #"{"userId": 41, "samples": [\#(samples.joined(separator: ","))], "events": [{"type": "hardBraking", "timestampMs": 1800000040000}]}"#
        let trip = try await Self.call(server, "POST", base + "/trips", body)
        let id = try #require(trip.json["id"]?.intValue)
        let detail = try await Self.call(server, "GET", base + "/trips/\(id)")
        #expect(detail.status == 200 && detail.json["userId"]?.intValue == 41)
        #expect(detail.json["samples"]?.arrayValue?.count == 25)
        #expect(detail.json["events"]?.arrayValue?.first?["type"]?.stringValue?.hasPrefix("hardBraking") == true)
        #expect(try await Self.call(server, "GET", base + "/trips/999").status == 404)
        #expect(try await Self.call(server, "GET", base + "/trips/abc").status == 400)
    }

    @Test("the voucher-action preview follows the caller and device, and records no lookup")
    func voucherActions() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        let base = "/__admin/projects/\(project.id)/warrantylife"
        let user = try await Self.call(server, "POST", base + "/users", #"{"email": "a@example.com"}"#)
        let userID = try #require(user.json["userId"]?.stringValue)
        #expect(try await Self.call(server, "POST", base + "/vouchers", #"{"code": "V-CLAIMED", "claimedByUserId": "\#(userID)"}"#).status == 201)
        #expect(try await Self.call(server, "POST", base + "/vouchers", #"{"code": "V-GONE", "status": "redeemed"}"#).status == 201)
        func actions(_ query: String) async throws -> [String: String] {
            let list = try await Self.call(server, "GET", base + "/voucher-actions" + query).json["voucherActions"]?.arrayValue ?? []
            return Dictionary(uniqueKeysWithValues: list.map { ($0["code"]?.stringValue ?? "", $0["action"]?.stringValue ?? $0["error"]?.stringValue ?? "") })
        }
        #expect(try await actions("") == ["V-CLAIMED": "userNotLoggedInClaimed", "V-GONE": "voucher_redeemed"])
        #expect(try await actions("?userId=\(userID)")["V-CLAIMED"] == "normalRegistration")
        #expect(try await actions("?userId=someone-else")["V-CLAIMED"] == "differentEmailClaimed")
        #expect(try await Self.call(server, "GET", base + "/voucher-actions?isPlanTransfer=maybe").status == 400)
        #expect(try await Self.call(server, "GET", base + "/voucher-lookups").json["voucherLookups"]?.arrayValue?.isEmpty == true)
    }

    @Test("links page with limit and offset and report the total")
    func linkPages() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        let base = "/__admin/projects/\(project.id)/warplink/links"
        for index in 0..<7 {
            #expect(
                try await Self.call(
                    server, "POST", base, #"{"slug": "s\#(index)", "destination_url": "https://x.example/\#(index)", "created_at": "2026-01-0\#(index + 1)T00:00:00Z"}"#
                ).status == 201)
        }
        let page = try await Self.call(server, "GET", base + "?limit=3&offset=3")
        #expect(page.json["total"]?.intValue == 7)
        #expect(page.json["links"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["s3", "s4", "s5"])
        #expect(try await Self.call(server, "GET", base).json["links"]?.arrayValue?.count == 7, "no paging asked for: every link")
        for query in ["?limit=0", "?limit=10001", "?offset=-1", "?page=2"] {
            #expect(try await Self.call(server, "GET", base + query).status == 400, "\(query)")
        }
    }
}
