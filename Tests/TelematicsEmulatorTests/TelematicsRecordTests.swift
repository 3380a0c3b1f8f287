import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Testing

@testable import TelematicsEmulator

@Suite("Telematics records and settings")
struct TelematicsRecordTests {
    static func userRow(state: SQLValue = .text("ACTIVE"), userID: SQLValue = .integer(1001)) -> Row {
        Row(
            columns: ["user_id", "user_name", "state", "current_vehicle_id", "access_ttl_seconds", "refresh_ttl_seconds", "created_at", "disabled_features"],
            values: [userID, .text("Driver"), state, .null, .real(60), .null, .text("2026-01-01T00:00:00Z"), .text("TRIPS,ATTENTION")])
    }

    @Test("a user row decodes; a mistyped, unknown-state or missing column throws")
    func userDecoding() throws {
        let user = try UserRecord(row: Self.userRow())
        #expect(user.userID == 1001 && user.state == .active && user.accessTtl == 60 && user.disabledFeatures == ["TRIPS", "ATTENTION"])
        #expect(throws: RowDecodingError.wrongType(column: "user_id", expected: "Int", found: "TEXT")) { try UserRecord(row: Self.userRow(userID: .text("x"))) }
        #expect(throws: RowDecodingError.self) { try UserRecord(row: Self.userRow(state: .text("SUSPENDED"))) }
        let short = Row(columns: ["user_id"], values: [.integer(1)])
        #expect(throws: RowDecodingError.missingColumn("user_name")) { try UserRecord(row: short) }
    }

    @Test("a manual event with an unknown stored type throws instead of being skipped")
    func manualEventDecoding() throws {
        func row(type: String) -> Row {
            Row(
                columns: ["id", "client_event_id", "user_id", "type", "ts_ms", "received_at", "latitude", "longitude", "vehicle_id", "trip_id", "period_id"],
                values: [.integer(1), .null, .integer(1001), .text(type), .integer(5), .real(1.5), .null, .null, .null, .integer(3), .null])
        }
        let event = try ManualEventRecord(row: row(type: "tripStart"))
        #expect(event.type == .tripStart && event.tripID == 3 && event.periodID == nil)
        #expect(throws: RowDecodingError.self) { try ManualEventRecord(row: row(type: "teleport")) }
    }

    @Test("settings layers: defaults, configuration, stored document; catalogues are replaced whole; null falls back")
    func settingsLayers() throws {
        #expect(try TelematicsSettings.resolve([]) == TelematicsSettings())
        let configured: JSONValue = ["rotationGraceSeconds": 30, "vehicleTypes": ["Car": 1, "Bus": 9]]
        let stored = TelematicsSettings.replacing(.null, with: ["vehicleTypes": ["Sedan": 7], "tripGapSeconds": 120])
        let settings = try TelematicsSettings.resolve([configured, .null, stored])
        #expect(settings.rotationGraceSeconds == 30 && settings.tripGapSeconds == 120)
        #expect(settings.vehicleTypes == ["Sedan": 7])
        let reverted = TelematicsSettings.replacing(stored, with: ["vehicleTypes": .null])
        #expect(try TelematicsSettings.resolve([configured, reverted]).vehicleTypes == ["Car": 1, "Bus": 9])
        #expect(throws: (any Error).self) { try TelematicsSettings.resolve([["tripGapSeconds": "long"]]) }
    }

    @Test("the tokens a request presents are read once, by where they came from, and kept as sent when they name no tenant")
    func presentedTokens() throws {
        let platform = try TelematicsPlatform()
        func presented(_ path: String, bearer: String?, body: String = "") -> [PresentedCredential] {
            var headers = HTTPHeaders()
            if let bearer { headers.add("Authorization", "Bearer " + bearer) }
            return platform.presentedCredentials(in: Request(method: .post, target: path, headers: headers, body: Data(body.utf8)))
        }
        let access = presented("/telematics/api/v1/users/me", bearer: "tma_t1_s")
        #expect(access == [PresentedCredential(kind: "accessToken", value: "t1", sent: "tma_t1_s", carrier: .header("Authorization"))])
        // A malformed bearer token still reaches the route, which answers "malformed or unknown", not "no token".
        #expect(presented("/telematics/api/v1/users/me", bearer: "junk") == [PresentedCredential(kind: "accessToken", value: "", sent: "junk", carrier: .header("Authorization"))])
        let body = #"{"refreshToken":"tmr_t2_s"}"#
        #expect(
            presented("/telematics/api/v1/auth/refresh", bearer: "tma_t1_s", body: body) == [
                PresentedCredential(kind: "refreshToken", value: "t2", sent: "tmr_t2_s", carrier: .bodyField("refreshToken"))
            ])
        #expect(presented("/telematics/api/v1/auth/logout", bearer: nil, body: body).map(\.kind) == ["refreshToken"])
        #expect(presented("/telematics/api/v1/auth/refresh", bearer: "tma_t1_s").map(\.kind) == ["accessToken"])
        #expect(presented("/telematics/api/v1/users/me", bearer: nil).isEmpty)
    }

    @Test("a request whose token names no known tenant is the platform's 401, not a crash")
    func unknownTenant() throws {
        #expect(throws: TelematicsError.accessTokenRejected("The access token is malformed or unknown.")) {
            try TelematicsService.project(token: "tma_nobody_secret", credential: nil)
        }
        #expect(throws: TelematicsError.accessTokenRejected("The request carries no bearer access token.")) {
            try TelematicsService.project(token: nil, credential: nil)
        }
        let credential = CredentialRecord(project: "p1", kind: "tenantKey", value: "abc")
        #expect(try TelematicsService.project(token: "tma_abc_secret", credential: credential).project == "p1")
    }

    @Test("an unavailable store answers 503 SERVICE_UNAVAILABLE in the platform's format")
    func storageUnavailable() throws {
        let response = try TelematicsPlatform().errorResponse(for: .storageUnavailable, requestID: "9")
        #expect(response.status == 503)
        let body = try JSONValue.parse(response.body)
        #expect(body["code"] == "SERVICE_UNAVAILABLE" && body["status"] == 503 && body["traceId"] == "9")
    }
}

@Suite("Telematics OpenAPI document")
struct TelematicsOpenAPIDocumentTests {
    @Test("every operation has a unique operationId and a description; control-plane paths carry their own server")
    func operations() throws {
        let document = TelematicsOpenAPI.document(apiRoot: "/api/v1")
        let paths = try #require(document["paths"]?.objectValue)
        var ids: [String] = []
        for (path, item) in paths {
            let members = try #require(item.objectValue)
            for method in ["get", "put", "post", "patch", "delete"] {
                guard let operation = members[method] else { continue }
                let id = try #require(operation["operationId"]?.stringValue, "\(method) \(path) has no operationId")
                #expect(operation["description"]?.stringValue?.isEmpty == false, "\(method) \(path) has no description")
                ids.append(id)
            }
            #expect((members["servers"] != nil) == path.hasPrefix("/__admin"), "\(path): servers only on control-plane paths")
            #expect(!path.hasPrefix("/telematics"), "\(path) doubles the prefix the server already has")
        }
        #expect(ids.count == 53 && Set(ids).count == ids.count)
    }
}
