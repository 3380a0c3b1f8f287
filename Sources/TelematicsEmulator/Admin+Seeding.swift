import EmulatorCore
import Foundation
import HTTPServer

/// Control plane: seeded trips and periods, and inspection of what the SDK sent.
extension TelematicsAdmin {
    // MARK: Seeding

    func seedTrip(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(TripBody.self, from: request)
        let project = context.projectID
        let trip = try await context.database.write { connection -> TripRecord in
            let store = TelematicsStore(connection: connection)
            _ = try requireUser(store, project, body.userId)
            let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project), now: context.now)
            return try TripSeeder(processor: processor).trip(body)
        }
        return json(Wire.tripResume(trip), status: 201)
    }

    func seedPeriods(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(PeriodBody.self, from: request)
        guard let start = try date(body.startedAt, "startedAt") else { throw AdminError.badRequest("`startedAt` is required.") }
        let end = try date(body.endedAt, "endedAt")
        if let end, end < start { throw AdminError.badRequest("`endedAt` must not be before `startedAt`.") }
        let count = body.count ?? 1
        guard (1...1000).contains(count) else { throw AdminError.badRequest("`count` must be 1…1000.") }
        if let spacing = body.spacingSeconds, !(0...31_536_000).contains(spacing) { throw AdminError.badRequest("`spacingSeconds` must be 0…31536000.") }
        let project = context.projectID
        let periods = try await context.database.write { connection -> [PeriodRecord] in
            let store = TelematicsStore(connection: connection)
            _ = try requireUser(store, project, body.userId)
            let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project), now: context.now)
            return try TripSeeder(processor: processor).periods(body, start: start, end: end, count: count)
        }
        return json(Wire.list("periods", periods.map(Wire.period)), status: 201)
    }

    // MARK: Inspection

    func inspectTrips(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let trips = try await context.database.read { try TelematicsStore(connection: $0).allTrips(context.projectID, userID: userID) }
        return json(Wire.list("trips", trips.map { Wire.adding(["userId": .int(Int64($0.userID))], to: Wire.tripResume($0)) }))
    }

    func inspectPeriods(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let periods = try await context.database.read { try TelematicsStore(connection: $0).allPeriods(context.projectID, userID: userID) }
        return json(Wire.list("periods", periods.map { Wire.adding(["userId": .int(Int64($0.userID))], to: Wire.period($0)) }))
    }

    func inspectBatches(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let batches = try await context.database.read { try TelematicsStore(connection: $0).batches(context.projectID, userID: userID) }
        return json(Wire.list("batches", batches.map(Self.batch)))
    }

    func inspectAttentionEvents(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let events = try await context.database.read { try TelematicsStore(connection: $0).attentionEventRecords(context.projectID, userID: userID) }
        return json(
            Wire.list(
                "events",
                events.map { record in
                    Wire.adding(
                        [
                            "userId": .int(Int64(record.userID)), "duplicateCount": .int(Int64(record.duplicateCount)), "tripId": Wire.int(record.tripID),
                            "receivedAt": Wire.iso(record.receivedAt),
                        ], to: Wire.attentionEvent(record.event))
                }))
    }

    func inspectManualEvents(_ request: Request, _ context: AdminContext) async throws -> Response {
        let userID = try userFilter(request)
        let events = try await context.database.read { try TelematicsStore(connection: $0).allManualEvents(context.projectID, userID: userID) }
        return json(Wire.list("events", events.map { Wire.adding(["userId": .int(Int64($0.userID))], to: Wire.manualEvent($0)) }))
    }
}
