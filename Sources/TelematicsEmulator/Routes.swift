import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The SDK-facing routes [§10.1]: wire ↔ store mapping, one transaction per request that writes.
enum TelematicsRoutes {
    /// Wraps a handler so Telematics errors and body errors answer in the platform's format,
    /// with `traceId` = journal id and `X-Request-Id` echoed.
    static func route(_ method: HTTPMethod, _ path: String, _ handler: @escaping @Sendable (Request, EmulatorContext) async throws -> Response) -> Route {
        Route(method, path) { request, context in
            let requestIDHeader = request.headers["x-request-id"]
            do {
                var response = try await handler(request, context)
                if let requestIDHeader { response.headers.set("X-Request-Id", requestIDHeader) }
                return response
            } catch let error as TelematicsError {
                return error.response(traceID: context.requestID, requestIDHeader: requestIDHeader)
            } catch let error as BodyError {
                return TelematicsError.invalidRequest(error.message).response(traceID: context.requestID, requestIDHeader: requestIDHeader)
            }
        }
    }

    /// The bearer token of a request, or nil.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers["authorization"] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The authenticated user [D-TM-06]: 401 for a bad access token, 403 for refused accounts.
    static func authenticate(_ c: SQLiteConnection, token: String?, project: ProjectID?, now: Date, feature: String? = nil) throws -> UserRecord {
        guard let token else { throw TelematicsError.accessTokenRejected("The request carries no bearer access token.") }
        guard token.hasPrefix("tma_"), let project else { throw TelematicsError.accessTokenRejected("The access token is malformed or unknown.") }
        guard let pair = try TelematicsStore.pair(c, project, access: token) else { throw TelematicsError.accessTokenRejected("The access token is not known.") }
        if pair.accessRevokedAt != nil { throw TelematicsError.accessTokenRejected("The access token was revoked.") }
        if pair.accessExpires <= now.timeIntervalSince1970 { throw TelematicsError.accessTokenRejected("The access token has expired.") }
        guard let user = try TelematicsStore.user(c, project, pair.userID) else { throw TelematicsError.accessTokenRejected("The token's user no longer exists.") }
        switch user.state {
        case "INACTIVE": throw TelematicsError.accountInactive
        case "DENIED": throw TelematicsError.accessDenied("Access is denied for this user.")
        default:
            if let feature, user.disabledFeatures.contains(feature) { throw TelematicsError.accessDenied("The \(feature) feature is switched off for this user.") }
            return user
        }
    }

    /// A JSON object body (tolerating unknown keys, as the SDK routes do).
    static func objectBody(_ request: Request) throws(TelematicsError) -> [String: JSONValue] {
        guard !request.body.isEmpty, let value = try? TelematicsService.parseJSON(request.body) else { throw .invalidRequest("The body must be a JSON object.") }
        guard let object = value.objectValue else { throw .invalidRequest("The body must be a JSON object.") }
        return object
    }

    static func json(_ value: JSONValue, status: Int = 200) -> Response { .json(status: status, bytes: value.encoded()) }

    static func routes(apiRoot: String) -> [Route] {
        let api = apiRoot
        var routes: [Route] = []

        // MARK: Auth

        routes.append(route(.post, api + "/auth/refresh") { request, context in
            guard let presented = refreshToken(in: request) else {
                throw TelematicsError.invalidRequest("`refreshToken` is required (JSON `{\"refreshToken\"}` or form `refresh_token`).")
            }
            guard presented.hasPrefix("tmr_"), let project = context.projectID else {
                throw TelematicsError.refreshTokenRejected("The refresh token is malformed or unknown.")
            }
            let now = context.now
            let secrets = context.services.generateIDs(for: project) { TokenSecrets.draw(&$0) }
            let pair = try await context.database.write { c -> PairRecord in
                let settings = try TelematicsStore.settings(c, project)
                let stored = try TelematicsStore.pair(c, project, refresh: presented)
                let state = try stored.flatMap { pair in
                    try TelematicsStore.user(c, project, pair.userID).map { user in
                        TelematicsService.RefreshTokenState(expires: pair.refreshExpires ?? 0, revokedAt: pair.refreshRevokedAt, rotatedAt: pair.rotatedAt,
                                                            successorID: pair.successorID, userState: user.state)
                    }
                }
                switch TelematicsService.refresh(state, now: now.timeIntervalSince1970, grace: settings.rotationGraceSeconds) {
                case .fail(let error): throw error
                case .replay(let successor):
                    guard let next = try TelematicsStore.pair(c, project, id: successor) else { throw TelematicsError.refreshTokenRejected("The refresh token is not known.") }
                    return next
                case .rotate:
                    let old = stored!
                    let ttl = old.refreshTtl ?? settings.defaultRefreshTtlSeconds
                    let next = try TelematicsStore.mintPair(c, project, userID: old.userID, accessExpires: now.timeIntervalSince1970 + old.accessTtl,
                                                            refreshExpires: now.timeIntervalSince1970 + ttl, accessTtl: old.accessTtl, refreshTtl: ttl,
                                                            parentID: old.id, now: now, secrets: secrets)
                    try TelematicsStore.markRotated(c, project, pairID: old.id, successorID: next.id, at: now.timeIntervalSince1970)
                    return next
                }
            }
            return json(Wire.tokenPair(pair, now: now, aliases: true))
        })

        routes.append(route(.post, api + "/auth/logout") { request, context in
            let token = bearer(request)
            let project = context.projectID
            let body = (try? JSONValue.parse(request.body))?.objectValue
            try await context.database.write { c in
                let user = try authenticate(c, token: token, project: project, now: context.now)
                try TelematicsStore.revokePairs(c, project!, accessToken: token, refreshToken: body?["refreshToken"]?.stringValue, userID: user.userID,
                                                at: context.now.timeIntervalSince1970)
            }
            return .empty(204)
        })

        // MARK: User and catalogues

        routes.append(route(.get, api + "/users/me") { request, context in
            let user = try await context.database.read { c in try authenticate(c, token: bearer(request), project: context.projectID, now: context.now) }
            return json(Wire.user(user))
        })
        for (path, kind) in [("types", 0), ("fuel-types", 1), ("add-reasons", 2)] {
            routes.append(route(.get, api + "/vehicles/" + path) { request, context in
                let settings = try await context.database.read { c in
                    _ = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now)
                    return try TelematicsStore.settings(c, context.projectID!)
                }
                return json(Wire.catalogue(kind == 0 ? settings.vehicleTypes : kind == 1 ? settings.fuelTypes : settings.addReasons))
            })
        }

        // MARK: Vehicles

        routes.append(route(.put, api + "/vehicles/current") { request, context in
            let body = try objectBody(request)
            guard let plateValue = body["plate"], let plate = plateValue.stringValue else { throw TelematicsError.invalidRequest("`plate` is required and must be a string.") }
            guard !plate.trimmingCharacters(in: .whitespaces).isEmpty else { throw TelematicsError.invalidPlate }
            func code(_ key: String) throws(TelematicsError) -> Int? {
                guard let value = body[key], !value.isNull else { return nil }
                guard let number = value.intValue else { throw .invalidRequest("`\(key)` must be an integer code.") }
                return number
            }
            let type = try code("type"), fuelType = try code("fuelType"), addReason = try code("addReason")
            var internalPlate: String?
            if let value = body["internalPlate"], !value.isNull {
                guard let text = value.stringValue else { throw TelematicsError.invalidRequest("`internalPlate` must be a string.") }
                internalPlate = text
            }
            let internalPlateValue = internalPlate
            let plateOnly = type == nil && fuelType == nil && addReason == nil && internalPlate == nil
            if !plateOnly && (type == nil || fuelType == nil) {
                throw TelematicsError.invalidRequest("The full form needs `type` and `fuelType` (codes from the catalogues); send `{\"plate\"}` alone to select an existing vehicle.")
            }
            let project = context.projectID
            let (vehicle, created, settings) = try await context.database.write { c -> (VehicleRecord, Bool, TelematicsSettings) in
                let user = try authenticate(c, token: bearer(request), project: project, now: context.now)
                let settings = try TelematicsStore.settings(c, project!)
                if plateOnly {
                    guard let vehicle = try TelematicsStore.vehicle(c, project!, plateKey: TelematicsService.plateKey(plate)) else { throw TelematicsError.vehicleNotFound }
                    try TelematicsStore.setCurrentVehicle(c, project!, userID: user.userID, vehicleID: vehicle.id)
                    return (vehicle, false, settings)
                }
                guard settings.vehicleTypes.values.contains(type!) else { throw TelematicsError.unknownCode("UNKNOWN_VEHICLE_TYPE", "type", type!) }
                guard settings.fuelTypes.values.contains(fuelType!) else { throw TelematicsError.unknownCode("UNKNOWN_FUEL_TYPE", "fuelType", fuelType!) }
                if let addReason, !settings.addReasons.values.contains(addReason) { throw TelematicsError.unknownCode("UNKNOWN_ADD_REASON", "addReason", addReason) }
                let (vehicle, created) = try TelematicsStore.upsertVehicle(c, project!, plate: plate, internalPlate: internalPlateValue, type: type!, fuelType: fuelType!,
                                                                          addReason: addReason, now: context.now)
                try TelematicsStore.setCurrentVehicle(c, project!, userID: user.userID, vehicleID: vehicle.id)
                return (vehicle, created, settings)
            }
            return json(Wire.vehicle(vehicle, settings: settings), status: created ? 201 : 200)
        })
        routes.append(route(.get, api + "/vehicles/current") { request, context in
            let (vehicle, settings) = try await context.database.read { c -> (VehicleRecord, TelematicsSettings) in
                let user = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now)
                guard let id = user.currentVehicleID, let vehicle = try TelematicsStore.vehicle(c, context.projectID!, id: id) else { throw TelematicsError.noCurrentVehicle }
                return (vehicle, try TelematicsStore.settings(c, context.projectID!))
            }
            return json(Wire.vehicle(vehicle, settings: settings))
        })
        routes.append(route(.delete, api + "/vehicles/current") { request, context in
            try await context.database.write { c in
                let user = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now)
                try TelematicsStore.setCurrentVehicle(c, context.projectID!, userID: user.userID, vehicleID: nil)
            }
            return .empty(204)
        })

        // MARK: Kilometers

        routes.append(route(.post, api + "/vehicles/{vehicleId}/kilometers") { request, context in
            let body = try objectBody(request)
            guard let kilometers = body["kilometers"]?.doubleValue, kilometers.isFinite else { throw TelematicsError.invalidRequest("`kilometers` is required and must be a number.") }
            guard kilometers >= 0 else { throw TelematicsError.invalidRequest("`kilometers` must not be negative.") }
            let observations = try optionalString(body, "observations")
            var readAt = context.now.timeIntervalSince1970
            if let value = body["readAt"], !value.isNull {
                guard let text = value.stringValue, let date = Timestamp.parse(text) else { throw TelematicsError.invalidDate("readAt", value.stringValue ?? "\(value)") }
                readAt = date.timeIntervalSince1970
            }
            let vehicleParameter = context.parameter("vehicleId")
            let readAtSeconds = readAt
            let report = try await context.database.write { c -> ReportRecord in
                let user = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now, feature: "KILOMETERS")
                let vehicle = try resolveVehicle(c, context.projectID!, user: user, parameter: vehicleParameter)
                if let last = try TelematicsStore.latestReports(c, context.projectID!, vehicleID: vehicle.id, limit: 1).first, kilometers < last.kilometers {
                    throw TelematicsError.kilometersDecreasing(last.kilometers)
                }
                return try TelematicsStore.insertReport(c, context.projectID!, vehicleID: vehicle.id, userID: user.userID, kilometers: kilometers,
                                                        observations: observations, readAt: readAtSeconds, now: context.now)
            }
            return json(Wire.report(report), status: 201)
        })
        routes.append(route(.post, api + "/vehicles/{vehicleId}/kilometers/corrections") { request, context in
            let body = try objectBody(request)
            guard let kilometers = body["kilometers"]?.doubleValue, kilometers.isFinite else { throw TelematicsError.invalidRequest("`kilometers` is required and must be a number.") }
            guard kilometers >= 0 else { throw TelematicsError.invalidRequest("`kilometers` must not be negative.") }
            guard let count = body["correctionCount"]?.intValue else { throw TelematicsError.invalidRequest("`correctionCount` is required and must be an integer.") }
            let observations = try optionalString(body, "observations")
            let vehicleParameter = context.parameter("vehicleId")
            let (vehicleID, reports) = try await context.database.write { c -> (Int, [ReportRecord]) in
                let user = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now, feature: "KILOMETERS")
                let project = context.projectID!
                let vehicle = try resolveVehicle(c, project, user: user, parameter: vehicleParameter)
                let available = try TelematicsStore.reportCount(c, project, vehicleID: vehicle.id)
                guard count >= 1, count <= available else { throw TelematicsError.invalidCorrectionCount(available) }
                let targets = try TelematicsStore.latestReports(c, project, vehicleID: vehicle.id, limit: count)
                try TelematicsStore.correct(c, project, reports: targets, kilometers: kilometers, observations: observations, at: context.now.timeIntervalSince1970)
                return (vehicle.id, try TelematicsStore.latestReports(c, project, vehicleID: vehicle.id, limit: count))
            }
            return json(["vehicleId": .int(Int64(vehicleID)), "kilometers": .double(kilometers), "correctionCount": .int(Int64(count)),
                         "reports": .array(reports.map(Wire.report))])
        })
        routes.append(route(.get, api + "/vehicles/{vehicleId}/estimated-mileage") { request, context in
            let vehicleParameter = context.parameter("vehicleId")
            let body = try await context.database.read { c -> JSONValue in
                let user = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now, feature: "KILOMETERS")
                let vehicle = try resolveVehicle(c, context.projectID!, user: user, parameter: vehicleParameter)
                guard let last = try TelematicsStore.latestReports(c, context.projectID!, vehicleID: vehicle.id, limit: 1).first else {
                    return ["vehicleId": .int(Int64(vehicle.id)), "estimatedKilometers": -1.0, "lastReportedKilometers": .null, "lastReportedAt": .null,
                            "trackedKilometersSinceReport": 0.0, "estimatedAt": Wire.iso(context.now.timeIntervalSince1970)]
                }
                let tracked = try TelematicsStore.trackedKm(c, context.projectID!, vehicleID: vehicle.id, sinceMs: Int64(last.readAt * 1000))
                return ["vehicleId": .int(Int64(vehicle.id)), "estimatedKilometers": Wire.num(last.kilometers + tracked),
                        "lastReportedKilometers": .double(last.kilometers), "lastReportedAt": Wire.iso(last.readAt),
                        "trackedKilometersSinceReport": Wire.num(tracked), "estimatedAt": Wire.iso(context.now.timeIntervalSince1970)]
            }
            return json(body)
        })

        // MARK: Service codes

        routes.append(route(.get, api + "/service-codes/{code}") { request, context in
            let code = context.parameter("code")
            let body = try await context.database.read { c -> JSONValue in
                _ = try authenticate(c, token: bearer(request), project: context.projectID, now: context.now)
                let settings = try TelematicsStore.settings(c, context.projectID!)
                guard let allowList = settings.serviceCodes else {
                    return ["code": .string(code), "valid": true, "serviceName": "Understudy open mode", "features": ["TRIPS", "KILOMETERS", "ATTENTION"]]
                }
                guard let entry = allowList.first(where: { $0.code == code }) else { throw TelematicsError.serviceCodeUnknown(code) }
                return ["code": .string(code), "valid": true, "serviceName": .string(entry.serviceName ?? code),
                        "features": .array((entry.features ?? ["TRIPS", "KILOMETERS", "ATTENTION"]).map { .string($0) })]
            }
            return json(body)
        })

        routes += TelematicsDataRoutes.routes(api: api)
        return routes
    }

    static func optionalString(_ body: [String: JSONValue], _ key: String) throws(TelematicsError) -> String? {
        guard let value = body[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .invalidRequest("`\(key)` must be a string.") }
        return text
    }

    /// `current` or a numeric id → the vehicle, or the contract's 404s.
    static func resolveVehicle(_ c: SQLiteConnection, _ project: ProjectID, user: UserRecord, parameter: String) throws -> VehicleRecord {
        if parameter == "current" {
            guard let id = user.currentVehicleID, let vehicle = try TelematicsStore.vehicle(c, project, id: id) else { throw TelematicsError.noCurrentVehicle }
            return vehicle
        }
        guard let id = Int(parameter), let vehicle = try TelematicsStore.vehicle(c, project, id: id) else { throw TelematicsError.vehicleNotFound }
        return vehicle
    }

    /// The refresh token from a JSON body (camel, Pascal or snake case) or a form body.
    static func refreshToken(in request: Request) -> String? {
        if let object = (try? JSONValue.parse(request.body))?.objectValue {
            return (object["refreshToken"] ?? object["RefreshToken"] ?? object["refresh_token"])?.stringValue
        }
        let form = URLQuery.parse(String(decoding: request.body, as: UTF8.self))
        return form.first { $0.name == "refresh_token" }?.value
    }
}
