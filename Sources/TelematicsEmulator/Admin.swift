import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Control-plane routes under `/__admin/projects/{id}/telematics` [§10.2]: users and account
/// states, token minting and lifecycle, catalogues, vehicles, service codes, settings, seeded
/// trips and periods, "process now", and inspection of batches and events.
enum TelematicsAdmin {
    struct UserBody: Codable {
        var userId: Int?
        var userName: String?
        var state: String?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var disabledFeatures: [String]?
    }

    struct UserPatch: Codable {
        var userName: String?
        var state: String?
        var currentVehicleId: Int?
        var clearCurrentVehicle: Bool?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var disabledFeatures: [String]?
    }

    struct TokenBody: Codable {
        var userId: Int
        var userName: String?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var withRefreshToken: Bool?
        var tokenExpires: String?
        var refreshTokenExpires: String?
    }

    struct TokenAction: Codable {
        var token: String
    }

    struct VehicleBody: Codable {
        var plate: String
        var internalPlate: String?
        var type: Int
        var fuelType: Int
        var addReason: Int?
        var currentForUserId: Int?
    }

    struct KilometersBody: Codable {
        var kilometers: Double
        var observations: String?
        var readAt: String?
    }

    struct ServiceCodesBody: Codable {
        var mode: String
        var codes: [TelematicsSettings.ServiceCode]?
    }

    struct TripBody: Codable {
        var userId: Int
        var vehicleId: Int?
        var samples: [JSONValue]?
        var events: [JSONValue]?
        var attentionEvents: [JSONValue]?
        var startedAt: String?
        var endedAt: String?
        var distanceKm: Double?
        var maxSpeedKmh: Double?
    }

    struct PeriodBody: Codable {
        var userId: Int
        var startedAt: String
        var endedAt: String?
        var isProcessed: Bool?
        var count: Int?
        var spacingSeconds: Double?
        var vehicleId: Int?
        var serviceCode: String?
    }

    static let states: Set<String> = ["ACTIVE", "INACTIVE", "DENIED"]
    static let features: Set<String> = ["TRIPS", "KILOMETERS", "ATTENTION"]

    static func checkLifetimes(_ values: Double?...) throws {
        for ttl in values.compactMap({ $0 }) where !(ttl > 0 && ttl <= TelematicsSettings.maxSeconds) {
            throw AdminError.badRequest("Token lifetimes must be between 0 and \(Int(TelematicsSettings.maxSeconds)) seconds.")
        }
    }

    static func checkFeatures(_ list: [String]?) throws -> String? {
        guard let list else { return nil }
        if let unknown = list.first(where: { !features.contains($0) }) { throw AdminError.badRequest("Unknown feature `\(unknown)`; use TRIPS, KILOMETERS or ATTENTION.") }
        return list.joined(separator: ",")
    }

    static func decode<T: Codable>(_ type: T.Type, _ request: Request) throws -> T {
        try JSONBody.decode(type, from: request, rejectUnknownKeys: true)
    }

    static func json(_ value: JSONValue, status: Int = 200) -> Response { .json(status: status, bytes: value.encoded()) }

    static func userParameter(_ context: EmulatorContext) throws -> Int {
        guard let id = Int(context.parameter("userId")) else { throw AdminError.badRequest("`userId` must be an integer.") }
        return id
    }

    static func date(_ text: String?, _ field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = Timestamp.parse(text) else { throw AdminError.badRequest("`\(field)` must be an ISO 8601 timestamp.") }
        return date
    }

    static func adminUser(_ user: UserRecord) -> JSONValue {
        ["userId": .int(Int64(user.userID)), "userName": .string(user.userName), "state": .string(user.state),
         "currentVehicleId": Wire.int(user.currentVehicleID), "accessTtlSeconds": user.accessTtl.map { .double($0) } ?? .null,
         "refreshTtlSeconds": user.refreshTtl.map { .double($0) } ?? .null, "createdAt": .string(user.createdAt),
         "disabledFeatures": .array(user.disabledFeatures.map { .string($0) })]
    }

    static func adminPair(_ pair: PairRecord, now: Date) -> JSONValue {
        let t = now.timeIntervalSince1970
        let accessState = pair.accessRevokedAt != nil ? "revoked" : pair.accessExpires <= t ? "expired" : "active"
        let refreshState: JSONValue
        if pair.refreshToken == nil { refreshState = .null }
        else if pair.refreshRevokedAt != nil { refreshState = "revoked" }
        else if pair.rotatedAt != nil { refreshState = "rotated" }
        else if (pair.refreshExpires ?? 0) <= t { refreshState = "expired" }
        else { refreshState = "active" }
        return ["id": .string(pair.id), "userId": .int(Int64(pair.userID)), "token": .string(pair.accessToken), "tokenExpires": Wire.iso(pair.accessExpires),
                "refreshToken": Wire.str(pair.refreshToken), "refreshTokenExpires": Wire.iso(pair.refreshExpires), "accessState": .string(accessState),
                "refreshState": refreshState, "parentId": Wire.str(pair.parentID), "successorId": Wire.str(pair.successorID),
                "rotatedAt": Wire.iso(pair.rotatedAt), "createdAt": Wire.iso(pair.createdAt)]
    }

    static func routes() -> [Route] {
        var routes: [Route] = []

        // MARK: Settings, catalogues, service codes

        routes.append(Route(.get, "/settings") { _, context in
            let settings = try await context.database.read { try TelematicsStore.settings($0, context.projectID!) }
            return json(try JSONValue.from(settings))
        })
        routes.append(Route(.patch, "/settings") { request, context in
            guard let patch = (try? JSONValue.parse(request.body))?.objectValue else { throw AdminError.badRequest("The body must be a JSON object of settings.") }
            let project = context.projectID!
            let settings = try await context.database.write { c -> TelematicsSettings in
                guard case .object(var current) = try JSONValue.from(try TelematicsStore.settings(c, project)) else { throw AdminError.badRequest("settings") }
                for (key, value) in patch {
                    guard current[key] != nil else { throw AdminError(status: 400, code: "unknown_field", message: "Unknown setting `\(key)`.") }
                    current[key] = value
                }
                let merged: TelematicsSettings
                do { merged = try JSONValue.object(current).decode(TelematicsSettings.self) }
                catch { throw AdminError.badRequest("A setting has the wrong type: \(error)") }
                if let problem = merged.problems.first { throw AdminError.badRequest(problem) }
                try TelematicsStore.saveSettings(c, project, merged)
                return merged
            }
            return json(try JSONValue.from(settings))
        })
        for (path, kind) in [("vehicle-types", 0), ("fuel-types", 1), ("add-reasons", 2)] {
            routes.append(Route(.get, "/catalogues/" + path) { _, context in
                let settings = try await context.database.read { try TelematicsStore.settings($0, context.projectID!) }
                return json(Wire.catalogue(kind == 0 ? settings.vehicleTypes : kind == 1 ? settings.fuelTypes : settings.addReasons))
            })
            routes.append(Route(.put, "/catalogues/" + path) { request, context in
                let map = try decode([String: Int].self, request)
                guard !map.isEmpty else { throw AdminError.badRequest("A catalogue needs at least one name → code entry.") }
                let project = context.projectID!
                try await context.database.write { c in
                    var settings = try TelematicsStore.settings(c, project)
                    switch kind {
                    case 0: settings.vehicleTypes = map
                    case 1: settings.fuelTypes = map
                    default: settings.addReasons = map
                    }
                    try TelematicsStore.saveSettings(c, project, settings)
                }
                return json(Wire.catalogue(map))
            })
        }
        routes.append(Route(.get, "/service-codes") { _, context in
            let settings = try await context.database.read { try TelematicsStore.settings($0, context.projectID!) }
            return json(serviceCodes(settings))
        })
        routes.append(Route(.put, "/service-codes") { request, context in
            let body = try decode(ServiceCodesBody.self, request)
            guard body.mode == "open" || body.mode == "allowList" else { throw AdminError.badRequest("`mode` must be `open` or `allowList`.") }
            let project = context.projectID!
            let settings = try await context.database.write { c -> TelematicsSettings in
                var settings = try TelematicsStore.settings(c, project)
                settings.serviceCodes = body.mode == "open" ? nil : (body.codes ?? [])
                try TelematicsStore.saveSettings(c, project, settings)
                return settings
            }
            return json(serviceCodes(settings))
        })

        // MARK: Users

        routes.append(Route(.post, "/users") { request, context in
            let body = try decode(UserBody.self, request)
            let state = body.state ?? "ACTIVE"
            guard states.contains(state) else { throw AdminError.badRequest("`state` must be ACTIVE, INACTIVE or DENIED.") }
            let disabled = try checkFeatures(body.disabledFeatures)
            try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
            let project = context.projectID!
            let user = try await context.database.write { c -> UserRecord in
                if let id = body.userId, try TelematicsStore.user(c, project, id) != nil {
                    throw AdminError(status: 409, code: "conflict", message: "User \(id) already exists.")
                }
                let user = try TelematicsStore.insertUser(c, project, userID: body.userId, userName: body.userName ?? "Test Driver", state: state,
                                                          accessTtl: body.accessTtlSeconds, refreshTtl: body.refreshTtlSeconds, now: context.now)
                guard let disabled else { return user }
                try TelematicsStore.updateUser(c, project, user.userID, name: nil, state: nil, accessTtl: nil, refreshTtl: nil, disabledFeatures: disabled)
                return try TelematicsStore.user(c, project, user.userID)!
            }
            return json(adminUser(user), status: 201)
        })
        routes.append(Route(.get, "/users") { _, context in
            let users = try await context.database.read { try TelematicsStore.users($0, context.projectID!) }
            return json(["users": .array(users.map(adminUser))])
        })
        routes.append(Route(.get, "/users/{userId}") { _, context in
            let id = try userParameter(context)
            guard let user = try await context.database.read({ try TelematicsStore.user($0, context.projectID!, id) }) else { throw AdminError.notFound("User \(id)") }
            return json(adminUser(user))
        })
        routes.append(Route(.patch, "/users/{userId}") { request, context in
            let id = try userParameter(context)
            let body = try decode(UserPatch.self, request)
            if let state = body.state, !states.contains(state) { throw AdminError.badRequest("`state` must be ACTIVE, INACTIVE or DENIED.") }
            let disabled = try checkFeatures(body.disabledFeatures)
            try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
            let project = context.projectID!
            let user = try await context.database.write { c -> UserRecord in
                guard try TelematicsStore.user(c, project, id) != nil else { throw AdminError.notFound("User \(id)") }
                try TelematicsStore.updateUser(c, project, id, name: body.userName, state: body.state, accessTtl: body.accessTtlSeconds,
                                               refreshTtl: body.refreshTtlSeconds, disabledFeatures: disabled)
                if let vehicle = body.currentVehicleId {
                    guard try TelematicsStore.vehicle(c, project, id: vehicle) != nil else { throw AdminError.notFound("Vehicle \(vehicle)") }
                    try TelematicsStore.setCurrentVehicle(c, project, userID: id, vehicleID: vehicle)
                }
                if body.clearCurrentVehicle == true { try TelematicsStore.setCurrentVehicle(c, project, userID: id, vehicleID: nil) }
                return try TelematicsStore.user(c, project, id)!
            }
            return json(adminUser(user))
        })
        routes.append(Route(.post, "/users/{userId}/process") { _, context in
            let id = try userParameter(context)
            let project = context.projectID!
            let result = try await context.database.write { c -> (Int, Int) in
                guard try TelematicsStore.user(c, project, id) != nil else { throw AdminError.notFound("User \(id)") }
                let settings = try TelematicsStore.settings(c, project)
                return try TelematicsProcessing.processNow(c, project, userID: id, settings: settings, now: context.now)
            }
            return json(["periodsProcessed": .int(Int64(result.0)), "tripsCreated": .int(Int64(result.1))])
        })

        // MARK: Tokens

        routes.append(Route(.post, "/tokens") { request, context in
            let body = try decode(TokenBody.self, request)
            try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
            let accessAt = try date(body.tokenExpires, "tokenExpires"), refreshAt = try date(body.refreshTokenExpires, "refreshTokenExpires")
            let project = context.projectID!
            let secrets = context.services.generateIDs(for: project) { TokenSecrets.draw(&$0) }
            let now = context.now
            let pair = try await context.database.write { c -> PairRecord in
                let settings = try TelematicsStore.settings(c, project)
                let user = try TelematicsStore.user(c, project, body.userId)
                    ?? TelematicsStore.insertUser(c, project, userID: body.userId, userName: body.userName ?? "Test Driver", state: "ACTIVE",
                                                  accessTtl: nil, refreshTtl: nil, now: now)
                let accessTtl = body.accessTtlSeconds ?? user.accessTtl ?? settings.defaultAccessTtlSeconds
                let refreshTtl = body.refreshTtlSeconds ?? user.refreshTtl ?? settings.defaultRefreshTtlSeconds
                let withRefresh = body.withRefreshToken ?? true
                return try TelematicsStore.mintPair(c, project, userID: user.userID,
                                                    accessExpires: accessAt?.timeIntervalSince1970 ?? now.timeIntervalSince1970 + accessTtl,
                                                    refreshExpires: withRefresh ? (refreshAt?.timeIntervalSince1970 ?? now.timeIntervalSince1970 + refreshTtl) : nil,
                                                    accessTtl: accessTtl, refreshTtl: withRefresh ? refreshTtl : nil, parentID: nil, now: now, secrets: secrets)
            }
            return json(Wire.tokenPair(pair, now: now, aliases: false), status: 201)
        })
        routes.append(Route(.get, "/tokens") { request, context in
            var userID: Int?
            if let text = request.queryValue("userId") {
                guard let id = Int(text) else { throw AdminError.badRequest("`userId` must be an integer.") }
                userID = id
            }
            let filter = userID
            let pairs = try await context.database.read { try TelematicsStore.pairs($0, context.projectID!, userID: filter) }
            return json(["tokens": .array(pairs.map { adminPair($0, now: context.now) })])
        })
        for action in [TelematicsStore.TokenAction.expire, .revoke] {
            routes.append(Route(.post, "/tokens/" + action.rawValue) { request, context in
                let body = try decode(TokenAction.self, request)
                let project = context.projectID!
                let t = context.now.timeIntervalSince1970
                let pair = try await context.database.write { c -> PairRecord in
                    if let pair = try TelematicsStore.apply(action, token: body.token, c, project, at: t) { return pair }
                    throw AdminError.notFound("Token")
                }
                return json(adminPair(pair, now: context.now))
            })
        }

        // MARK: Vehicles

        routes.append(Route(.post, "/vehicles") { request, context in
            let body = try decode(VehicleBody.self, request)
            guard !body.plate.trimmingCharacters(in: .whitespaces).isEmpty else { throw AdminError.badRequest("`plate` must not be empty.") }
            let project = context.projectID!
            let (vehicle, settings) = try await context.database.write { c -> (VehicleRecord, TelematicsSettings) in
                let settings = try TelematicsStore.settings(c, project)
                let (vehicle, _) = try TelematicsStore.upsertVehicle(c, project, plate: body.plate, internalPlate: body.internalPlate, type: body.type,
                                                                     fuelType: body.fuelType, addReason: body.addReason, now: context.now)
                if let user = body.currentForUserId {
                    guard try TelematicsStore.user(c, project, user) != nil else { throw AdminError.notFound("User \(user)") }
                    try TelematicsStore.setCurrentVehicle(c, project, userID: user, vehicleID: vehicle.id)
                }
                return (vehicle, settings)
            }
            return json(Wire.vehicle(vehicle, settings: settings), status: 201)
        })
        routes.append(Route(.get, "/vehicles") { _, context in
            let (vehicles, settings) = try await context.database.read { c in
                (try TelematicsStore.vehicles(c, context.projectID!), try TelematicsStore.settings(c, context.projectID!))
            }
            return json(["vehicles": .array(vehicles.map { Wire.vehicle($0, settings: settings) })])
        })
        routes.append(Route(.post, "/vehicles/{vehicleId}/kilometers") { request, context in
            let body = try decode(KilometersBody.self, request)
            guard body.kilometers >= 0 else { throw AdminError.badRequest("`kilometers` must not be negative.") }
            let readAt = try date(body.readAt, "readAt") ?? context.now
            guard let vehicleID = Int(context.parameter("vehicleId")) else { throw AdminError.badRequest("`vehicleId` must be an integer.") }
            let report = try await context.database.write { c -> ReportRecord in
                guard try TelematicsStore.vehicle(c, context.projectID!, id: vehicleID) != nil else { throw AdminError.notFound("Vehicle \(vehicleID)") }
                return try TelematicsStore.insertReport(c, context.projectID!, vehicleID: vehicleID, userID: nil, kilometers: body.kilometers,
                                                        observations: body.observations, readAt: readAt.timeIntervalSince1970, now: context.now)
            }
            return json(Wire.report(report), status: 201)
        })
        routes.append(Route(.get, "/vehicles/{vehicleId}/kilometers") { _, context in
            guard let vehicleID = Int(context.parameter("vehicleId")) else { throw AdminError.badRequest("`vehicleId` must be an integer.") }
            let reports = try await context.database.read { try TelematicsStore.latestReports($0, context.projectID!, vehicleID: vehicleID, limit: 10_000) }
            return json(["reports": .array(reports.map(Wire.report))])
        })

        // MARK: Seeding trips and periods

        routes.append(Route(.post, "/trips") { request, context in
            let body = try decode(TripBody.self, request)
            let project = context.projectID!
            let trip = try await context.database.write { c -> Row in
                guard try TelematicsStore.user(c, project, body.userId) != nil else { throw AdminError.notFound("User \(body.userId)") }
                let settings = try TelematicsStore.settings(c, project)
                return try TelematicsSeeding.trip(c, project, body: body, settings: settings, now: context.now)
            }
            return json(Wire.tripResume(trip), status: 201)
        })
        routes.append(Route(.post, "/periods") { request, context in
            let body = try decode(PeriodBody.self, request)
            guard let start = try date(body.startedAt, "startedAt") else { throw AdminError.badRequest("`startedAt` is required.") }
            let end = try date(body.endedAt, "endedAt")
            if let end, end < start { throw AdminError.badRequest("`endedAt` must not be before `startedAt`.") }
            let count = body.count ?? 1
            guard (1...1000).contains(count) else { throw AdminError.badRequest("`count` must be 1…1000.") }
            if let spacing = body.spacingSeconds, !(0...31_536_000).contains(spacing) { throw AdminError.badRequest("`spacingSeconds` must be 0…31536000.") }
            let project = context.projectID!
            let rows = try await context.database.write { c -> [Row] in
                guard try TelematicsStore.user(c, project, body.userId) != nil else { throw AdminError.notFound("User \(body.userId)") }
                return try TelematicsSeeding.periods(c, project, body: body, start: start, end: end, count: count, now: context.now)
            }
            return json(["periods": .array(rows.map(Wire.period))], status: 201)
        })

        // MARK: Inspection

        routes.append(Route(.get, "/trips") { request, context in
            let rows = try await inspect(request, context, "SELECT * FROM telematics_trips WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY started_ms DESC, id DESC")
            return json(["trips": .array(rows.map { row in
                guard case .object(var members) = Wire.tripResume(row) else { return .null }
                members["userId"] = .int(Int64(row.int("user_id") ?? 0))
                return .object(members)
            })])
        })
        routes += tripDetailRoutes()
        routes.append(Route(.get, "/periods") { request, context in
            let rows = try await inspect(request, context, "SELECT * FROM telematics_periods WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY started_ms DESC, id DESC")
            return json(["periods": .array(rows.map { row in
                guard case .object(var members) = Wire.period(row) else { return .null }
                members["userId"] = .int(Int64(row.int("user_id") ?? 0))
                return .object(members)
            })])
        })
        routes.append(Route(.get, "/batches") { request, context in
            let rows = try await inspect(request, context, "SELECT * FROM telematics_batches WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY received_at, rowid")
            return json(["batches": .array(rows.map { row in
                let declared = row.int("declared_user_id")
                return ["batchId": Wire.str(row.string("batch_id")), "userId": .int(Int64(row.int("user_id") ?? 0)), "declaredUserId": Wire.int(declared),
                        "userMismatch": .bool(declared != nil && declared != row.int("user_id")), "vehicleId": Wire.int(row.int("vehicle_id")),
                        "serviceCode": Wire.str(row.string("service_code")), "deviceId": Wire.str(row.string("device_id")),
                        "accepted": .int(Int64(row.int("sample_count") ?? 0)), "eventCount": .int(Int64(row.int("event_count") ?? 0)),
                        "attentionEventCount": .int(Int64(row.int("attention_event_count") ?? 0)),
                        "repeatCount": .int(Int64(row.int("repeat_count") ?? 0)), "receivedAt": Wire.iso(row.double("received_at") ?? 0)]
            })])
        })
        routes.append(Route(.get, "/attention-events") { request, context in
            let rows = try await inspect(request, context, """
                SELECT a.*, (SELECT t.id FROM telematics_trips t WHERE t.project_id = a.project_id AND t.user_id = a.user_id
                    AND t.ended_ms >= a.start_ms AND t.started_ms <= a.end_ms ORDER BY t.id LIMIT 1) AS trip_id
                FROM telematics_attention_events a WHERE a.project_id = ? AND (? IS NULL OR a.user_id = ?) ORDER BY a.start_ms, a.id
                """)
            return json(["events": .array(rows.map { row in
                guard case .object(var members) = Wire.attentionEvent(row) else { return .null }
                members["userId"] = .int(Int64(row.int("user_id") ?? 0))
                members["duplicateCount"] = .int(Int64(row.int("duplicate_count") ?? 0))
                members["tripId"] = Wire.int(row.int("trip_id"))
                members["receivedAt"] = Wire.iso(row.double("received_at") ?? 0)
                return .object(members)
            })])
        })
        routes.append(Route(.get, "/manual-events") { request, context in
            let rows = try await inspect(request, context, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY ts_ms, id")
            return json(["events": .array(rows.map { row in
                guard case .object(var members) = Wire.manualEvent(row) else { return .null }
                members["userId"] = .int(Int64(row.int("user_id") ?? 0))
                return .object(members)
            })])
        })
        return routes
    }

    static func serviceCodes(_ settings: TelematicsSettings) -> JSONValue {
        guard let codes = settings.serviceCodes else { return ["mode": "open", "codes": []] }
        return ["mode": "allowList", "codes": (try? JSONValue.from(codes)) ?? []]
    }

    /// Rows of an inspection query filtered by the optional `userId` query parameter.
    static func inspect(_ request: Request, _ context: EmulatorContext, _ sql: String) async throws -> [Row] {
        var userID: Int?
        if let text = request.queryValue("userId") {
            guard let id = Int(text) else { throw AdminError.badRequest("`userId` must be an integer.") }
            userID = id
        }
        let filter = userID
        return try await context.database.read { try $0.query(sql, context.projectID!, filter, filter) }
    }
}
