import EmulatorCore
import Foundation
import HTTPServer

/// Control plane: users, tokens, vehicles and kilometers.
extension TelematicsAdmin {
    // MARK: Users

    func createUser(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(UserBody.self, from: request)
        let state = try checkState(body.state) ?? .active
        let disabled = try checkFeatures(body.disabledFeatures)
        try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
        let project = context.projectID
        let user = try await context.database.write { connection -> UserRecord in
            let store = TelematicsStore(connection: connection)
            if let id = body.userId, try store.user(project, id: id) != nil {
                throw AdminError(status: 409, code: "conflict", message: "User \(id) already exists.")
            }
            let user = try store.insertUser(
                project, id: body.userId, name: body.userName ?? "Test Driver", state: state,
                accessTtl: body.accessTtlSeconds, refreshTtl: body.refreshTtlSeconds, now: context.now)
            guard let disabled else { return user }
            try store.updateUser(project, id: user.userID, name: nil, state: nil, accessTtl: nil, refreshTtl: nil, disabledFeatures: disabled)
            return try requireUser(store, project, user.userID)
        }
        return json(Self.adminUser(user), status: 201)
    }

    func users(_ request: Request, _ context: AdminContext) async throws -> Response {
        let users = try await context.database.read { try TelematicsStore(connection: $0).users(context.projectID) }
        return json(Wire.list("users", users.map(Self.adminUser)))
    }

    func user(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = try userParameter(context)
        let user = try await context.database.read { try requireUser(TelematicsStore(connection: $0), context.projectID, id) }
        return json(Self.adminUser(user))
    }

    func patchUser(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = try userParameter(context)
        let body = try AdminBody.decode(UserPatch.self, from: request)
        let state = try checkState(body.state)
        let disabled = try checkFeatures(body.disabledFeatures)
        try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
        let project = context.projectID
        let user = try await context.database.write { connection -> UserRecord in
            let store = TelematicsStore(connection: connection)
            _ = try requireUser(store, project, id)
            try store.updateUser(
                project, id: id, name: body.userName, state: state, accessTtl: body.accessTtlSeconds,
                refreshTtl: body.refreshTtlSeconds, disabledFeatures: disabled)
            if let vehicle = body.currentVehicleId {
                guard try store.vehicle(project, id: vehicle) != nil else { throw AdminError.notFound("Vehicle \(vehicle)") }
                try store.setCurrentVehicle(project, userID: id, vehicleID: vehicle)
            }
            if body.clearCurrentVehicle == true { try store.setCurrentVehicle(project, userID: id, vehicleID: nil) }
            return try requireUser(store, project, id)
        }
        return json(Self.adminUser(user))
    }

    func processNow(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = try userParameter(context)
        let project = context.projectID
        let result = try await context.database.write { connection -> (periods: Int, trips: Int) in
            let store = TelematicsStore(connection: connection)
            _ = try requireUser(store, project, id)
            let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project), now: context.now)
            return try processor.processNow(userID: id)
        }
        return json(["periodsProcessed": .int(Int64(result.periods)), "tripsCreated": .int(Int64(result.trips))])
    }

    // MARK: Tokens

    func mintToken(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(TokenBody.self, from: request)
        try checkLifetimes(body.accessTtlSeconds, body.refreshTtlSeconds)
        let accessAt = try date(body.tokenExpires, "tokenExpires"), refreshAt = try date(body.refreshTokenExpires, "refreshTokenExpires")
        let project = context.projectID
        let secrets = context.services.generateIDs(for: project) { TokenSecrets.draw(&$0) }
        let now = context.now
        let pair = try await context.database.write { connection -> PairRecord in
            let store = TelematicsStore(connection: connection)
            let settings = try effectiveSettings(store, project)
            let user =
                try store.user(project, id: body.userId)
                ?? store.insertUser(project, id: body.userId, name: body.userName ?? "Test Driver", state: .active, accessTtl: nil, refreshTtl: nil, now: now)
            let accessTtl = body.accessTtlSeconds ?? user.accessTtl ?? settings.defaultAccessTtlSeconds
            let refreshTtl = body.refreshTtlSeconds ?? user.refreshTtl ?? settings.defaultRefreshTtlSeconds
            let withRefresh = body.withRefreshToken ?? true
            return try store.mintPair(
                project, userID: user.userID, accessExpires: accessAt?.timeIntervalSince1970 ?? now.timeIntervalSince1970 + accessTtl,
                refreshExpires: withRefresh ? (refreshAt?.timeIntervalSince1970 ?? now.timeIntervalSince1970 + refreshTtl) : nil,
                accessTtl: accessTtl, refreshTtl: withRefresh ? refreshTtl : nil, parentID: nil, now: now, secrets: secrets)
        }
        return json(Wire.tokenPair(pair, now: now, aliases: false), status: 201)
    }

    func tokens(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let pairs = try await context.database.read { try TelematicsStore(connection: $0).pairs(context.projectID, userID: userID) }
        return json(Wire.list("tokens", pairs.map { Self.adminPair($0, now: context.now) }))
    }

    func tokenAction(_ action: TelematicsStore.TokenAction) -> @Sendable (Request, AdminContext) async throws -> Response {
        { request, context in
            let body = try AdminBody.decode(TokenActionBody.self, from: request)
            let pair = try await context.database.write { connection -> PairRecord in
                if let pair = try TelematicsStore(connection: connection).apply(action, context.projectID, token: body.token, at: context.now.timeIntervalSince1970) {
                    return pair
                }
                throw AdminError.notFound("Token")
            }
            return json(Self.adminPair(pair, now: context.now))
        }
    }

    // MARK: Vehicles

    func createVehicle(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(VehicleBody.self, from: request)
        guard !body.plate.trimmingCharacters(in: .whitespaces).isEmpty else { throw AdminError.badRequest("`plate` must not be empty.") }
        let project = context.projectID
        let (vehicle, settings) = try await context.database.write { connection -> (VehicleRecord, TelematicsSettings) in
            let store = TelematicsStore(connection: connection)
            let settings = try effectiveSettings(store, project)
            let (vehicle, _) = try store.upsertVehicle(
                project, plate: body.plate, internalPlate: body.internalPlate, type: body.type,
                fuelType: body.fuelType, addReason: body.addReason, now: context.now)
            if let user = body.currentForUserId {
                _ = try requireUser(store, project, user)
                try store.setCurrentVehicle(project, userID: user, vehicleID: vehicle.id)
            }
            return (vehicle, settings)
        }
        return json(Wire.vehicle(vehicle, settings: settings), status: 201)
    }

    func vehicles(_ request: Request, _ context: AdminContext) async throws -> Response {
        let (vehicles, settings) = try await context.database.read { connection in
            let store = TelematicsStore(connection: connection)
            return (try store.vehicles(context.projectID), try effectiveSettings(store, context.projectID))
        }
        return json(Wire.list("vehicles", vehicles.map { Wire.vehicle($0, settings: settings) }))
    }

    func seedKilometers(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(KilometersBody.self, from: request)
        guard body.kilometers >= 0 else { throw AdminError.badRequest("`kilometers` must not be negative.") }
        let readAt = try date(body.readAt, "readAt") ?? context.now
        let vehicleID = try vehicleParameter(context)
        let report = try await context.database.write { connection -> ReportRecord in
            let store = TelematicsStore(connection: connection)
            guard try store.vehicle(context.projectID, id: vehicleID) != nil else { throw AdminError.notFound("Vehicle \(vehicleID)") }
            return try store.insertReport(
                context.projectID, vehicleID: vehicleID, userID: nil, kilometers: body.kilometers, observations: body.observations,
                readAt: readAt.timeIntervalSince1970, now: context.now)
        }
        return json(Wire.report(report), status: 201)
    }

    func kilometers(_ request: Request, _ context: AdminContext) async throws -> Response {
        let vehicleID = try vehicleParameter(context)
        let reports = try await context.database.read { try TelematicsStore(connection: $0).latestReports(context.projectID, vehicleID: vehicleID, limit: 10_000) }
        return json(Wire.list("reports", reports.map(Wire.report)))
    }
}
