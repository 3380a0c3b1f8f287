import EmulatorCore
import Foundation
import HTTPServer

/// One trip of any user with its samples, driving events and attention events, for inspection
/// (the dashboard draws it). The SDK route needs the driver's token; this one needs only the id.
extension TelematicsAdmin {
    static func tripDetailRoutes() -> [Route] {
        [
            Route(.get, "/trips/{tripId}") { _, context in
                guard let id = Int(context.parameter("tripId")) else { throw AdminError.badRequest("`tripId` must be an integer.") }
                let project = context.projectID!
                let body = try await context.database.read { c -> JSONValue in
                    guard let trip = try c.queryOne("SELECT * FROM telematics_trips WHERE project_id = ? AND id = ?", project, id),
                          case .object(var members) = Wire.tripResume(trip) else { throw AdminError.notFound("Trip \(id)") }
                    let user = trip.int("user_id") ?? 0
                    let start = Int64(trip.int("started_ms") ?? 0), end = Int64(trip.int("ended_ms") ?? 0)
                    members["userId"] = .int(Int64(user))
                    members["samples"] = .array(try TelematicsProcessing.samples(c, project, userID: user, fromMs: start, toMs: end).map(Wire.sample))
                    var events = try TelematicsProcessing.drivingEvents(c, project, userID: user, fromMs: start, toMs: end).map {
                        (ms: $0.timestampMs, value: Wire.tripEvent(type: $0.type, source: "detected", ms: $0.timestampMs, latitude: $0.latitude,
                                                                   longitude: $0.longitude, durationSec: $0.durationSec, value: $0.value))
                    }
                    for row in try TelematicsStore.manualEvents(c, project, tripID: id) {
                        guard let type = ManualEventType(rawValue: row.string("type") ?? ""), type.isDriving else { continue }
                        let ms = Int64(row.int("ts_ms") ?? 0)
                        events.append((ms, Wire.tripEvent(type: type.rawValue, source: "manual", ms: ms, latitude: row.double("latitude"),
                                                          longitude: row.double("longitude"), durationSec: nil, value: nil)))
                    }
                    members["events"] = .array(events.sorted { $0.ms < $1.ms }.map(\.value))
                    members["attentionEvents"] = .array(try TelematicsStore.attentionEvents(c, project, userID: user, fromMs: start, toMs: end).map(Wire.attentionEvent))
                    return .object(members)
                }
                return json(body)
            },
        ]
    }
}
