import EmulatorCore
import Foundation
import HTTPServer

/// Vehicles and kilometer reports.
extension TelematicsRoutes {
    func setVehicle(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let body = try objectBody(request)
        guard let plateValue = body["plate"], let plate = plateValue.stringValue else { throw TelematicsError.invalidRequest("`plate` is required and must be a string.") }
        guard !plate.trimmingCharacters(in: .whitespaces).isEmpty else { throw TelematicsError.invalidPlate }
        func code(_ key: String) throws(TelematicsError) -> Int? {
            guard let value = body[key], !value.isNull else { return nil }
            guard let number = value.intValue else { throw .invalidRequest("`\(key)` must be an integer code.") }
            return number
        }
        let type = try code("type"), fuelType = try code("fuelType"), addReason = try code("addReason")
        let internalPlate = try optionalString(body, "internalPlate")
        let plateOnly = type == nil && fuelType == nil && addReason == nil && internalPlate == nil
        let fullForm: (type: Int, fuelType: Int)?
        if plateOnly {
            fullForm = nil
        } else if let type, let fuelType {
            fullForm = (type, fuelType)
        } else {
            throw TelematicsError.invalidRequest("The full form needs `type` and `fuelType` (codes from the catalogues); send `{\"plate\"}` alone to select an existing vehicle.")
        }
        let (vehicle, created, settings) = try await context.write { store -> (VehicleRecord, Bool, TelematicsSettings) in
            let (user, project) = try authenticate(store, context)
            let settings = try effectiveSettings(store, project, cachedFor: context.core)
            guard let fullForm else {
                guard let vehicle = try store.vehicle(project, plateKey: TelematicsService.plateKey(plate)) else { throw TelematicsError.vehicleNotFound }
                try store.setCurrentVehicle(project, userID: user.userID, vehicleID: vehicle.id)
                return (vehicle, false, settings)
            }
            try TelematicsService.checkCodes(type: fullForm.type, fuelType: fullForm.fuelType, addReason: addReason, settings: settings)
            let (vehicle, created) = try store.upsertVehicle(
                project, plate: plate, internalPlate: internalPlate, type: fullForm.type,
                fuelType: fullForm.fuelType, addReason: addReason, now: context.now)
            try store.setCurrentVehicle(project, userID: user.userID, vehicleID: vehicle.id)
            return (vehicle, created, settings)
        }
        return json(Wire.vehicle(vehicle, settings: settings), status: created ? 201 : 200)
    }

    func currentVehicle(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let (vehicle, settings) = try await context.read { store -> (VehicleRecord, TelematicsSettings) in
            let (user, project) = try authenticate(store, context)
            guard let id = user.currentVehicleID, let vehicle = try store.vehicle(project, id: id) else { throw TelematicsError.noCurrentVehicle }
            return (vehicle, try effectiveSettings(store, project, cachedFor: context.core))
        }
        return json(Wire.vehicle(vehicle, settings: settings))
    }

    func clearVehicle(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        try await context.write { store in
            let (user, project) = try authenticate(store, context)
            try store.setCurrentVehicle(project, userID: user.userID, vehicleID: nil)
        }
        return .empty(204)
    }

    /// `kilometers` of a body: required, finite, not negative.
    private func kilometers(_ body: [String: JSONValue]) throws(TelematicsError) -> Double {
        guard let kilometers = body["kilometers"]?.doubleValue, kilometers.isFinite else { throw .invalidRequest("`kilometers` is required and must be a number.") }
        guard kilometers >= 0 else { throw .invalidRequest("`kilometers` must not be negative.") }
        return kilometers
    }

    func reportKilometers(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let body = try objectBody(request)
        let kilometers = try kilometers(body)
        let observations = try optionalString(body, "observations")
        var readAt = context.now.timeIntervalSince1970
        if let value = body["readAt"], !value.isNull {
            guard let text = value.stringValue, let date = TelematicsTime.parse(text) else { throw TelematicsError.invalidDate("readAt", value.stringValue ?? "\(value)") }
            readAt = date.timeIntervalSince1970
        }
        let readAtSeconds = readAt
        let report = try await context.write { store -> ReportRecord in
            let (user, project) = try authenticate(store, context, feature: "KILOMETERS")
            let vehicle = try resolveVehicle(store, project, user: user, parameter: context.parameter("vehicleId"))
            if let last = try store.latestReports(project, vehicleID: vehicle.id, limit: 1).first, kilometers < last.kilometers {
                throw TelematicsError.kilometersDecreasing(last.kilometers)
            }
            return try store.insertReport(
                project, vehicleID: vehicle.id, userID: user.userID, kilometers: kilometers, observations: observations,
                readAt: readAtSeconds, now: context.now)
        }
        return json(Wire.report(report), status: 201)
    }

    func correctKilometers(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let body = try objectBody(request)
        let kilometers = try kilometers(body)
        guard let count = body["correctionCount"]?.intValue else { throw TelematicsError.invalidRequest("`correctionCount` is required and must be an integer.") }
        let observations = try optionalString(body, "observations")
        let (vehicleID, reports) = try await context.write { store -> (Int, [ReportRecord]) in
            let (user, project) = try authenticate(store, context, feature: "KILOMETERS")
            let vehicle = try resolveVehicle(store, project, user: user, parameter: context.parameter("vehicleId"))
            let available = try store.reportCount(project, vehicleID: vehicle.id)
            guard count >= 1, count <= available else { throw TelematicsError.invalidCorrectionCount(available) }
            let targets = try store.latestReports(project, vehicleID: vehicle.id, limit: count)
            try store.correct(project, reports: targets, kilometers: kilometers, observations: observations, at: context.now.timeIntervalSince1970)
            return (vehicle.id, try store.latestReports(project, vehicleID: vehicle.id, limit: count))
        }
        return json([
            "vehicleId": .int(Int64(vehicleID)), "kilometers": .double(kilometers), "correctionCount": .int(Int64(count)),
            "reports": .array(reports.map(Wire.report)),
        ])
    }

    func estimatedMileage(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let body = try await context.read { store -> JSONValue in
            let (user, project) = try authenticate(store, context, feature: "KILOMETERS")
            let vehicle = try resolveVehicle(store, project, user: user, parameter: context.parameter("vehicleId"))
            let estimatedAt = Wire.iso(context.now.timeIntervalSince1970)
            guard let last = try store.latestReports(project, vehicleID: vehicle.id, limit: 1).first else {
                return [
                    "vehicleId": .int(Int64(vehicle.id)), "estimatedKilometers": -1.0, "lastReportedKilometers": .null, "lastReportedAt": .null,
                    "trackedKilometersSinceReport": 0.0, "estimatedAt": estimatedAt,
                ]
            }
            let tracked = try store.trackedKm(project, vehicleID: vehicle.id, sinceMs: Int64(last.readAt * 1000))
            return [
                "vehicleId": .int(Int64(vehicle.id)), "estimatedKilometers": Wire.num(last.kilometers + tracked),
                "lastReportedKilometers": .double(last.kilometers), "lastReportedAt": Wire.iso(last.readAt),
                "trackedKilometersSinceReport": Wire.num(tracked), "estimatedAt": estimatedAt,
            ]
        }
        return json(body)
    }

    /// `current` or a numeric id → the vehicle, or the contract's 404s.
    private func resolveVehicle(_ store: TelematicsStore, _ project: ProjectID, user: UserRecord, parameter: String) throws -> VehicleRecord {
        if parameter == "current" {
            guard let id = user.currentVehicleID, let vehicle = try store.vehicle(project, id: id) else { throw TelematicsError.noCurrentVehicle }
            return vehicle
        }
        guard let id = Int(parameter), let vehicle = try store.vehicle(project, id: id) else { throw TelematicsError.vehicleNotFound }
        return vehicle
    }
}
