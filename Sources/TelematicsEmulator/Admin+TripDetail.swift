import EmulatorCore
import Foundation
import HTTPServer

/// One trip of any user with its samples, driving events and attention events, for inspection
/// (the dashboard draws it). The SDK route needs the driver's token; this one needs only the id.
extension TelematicsAdmin {
    func inspectTrip(_ request: Request, _ context: AdminContext) async throws -> Response {
        guard let id = Int(context.parameter("tripId")) else { throw AdminError.badRequest("`tripId` must be an integer.") }
        let project = context.projectID
        let body = try await context.database.read { connection -> JSONValue in
            let store = TelematicsStore(connection: connection)
            guard let trip = try store.trip(project, id: id) else { throw AdminError.notFound("Trip \(id)") }
            let details = try TelematicsRoutes.tripDetails(trip, store: store, project: project, includeSamples: true)
            return Wire.adding(["userId": .int(Int64(trip.userID))], to: details)
        }
        return json(body)
    }
}
