import EmulatorCore
import Foundation
import Storage

/// Loads `Config/fixtures/telematics.json` into the demo project: settings, users with token
/// pairs, vehicles with kilometers, and a few days of trips placed relative to today.
///
/// The first token pair listed is the demo session: its tokens are also recorded as the
/// project's `token` / `refreshToken` credentials, so the start-up banner and the project's
/// `sdkSettings` show everything `TelematicsTokenInitOptions` needs.
struct TelematicsFixtures {
    /// The credential names the demo session pair is recorded under (the SDK's option names).
    static let sessionCredentialNames = ["token", "refreshToken"]

    /// The store of the project-creation transaction.
    let store: TelematicsStore
    /// The configuration file's settings layer.
    let configuredSettings: JSONValue

    /// Loads `fixtures` into `project`.
    func load(_ fixtures: JSONValue, project: ProjectID, now: Date) throws {
        let document: JSONValue = fixtures["settings"]?.objectValue.map(JSONValue.object) ?? .object([:])
        let settings = try TelematicsSettings.resolve([configuredSettings, document])
        try store.saveSettingsDocument(project, document)
        let tenant = try store.tenantKey(project)
        var session: (token: String, refreshToken: String?)?
        for user in fixtures["users"]?.arrayValue ?? [] {
            guard let id = user["userId"]?.intValue else { continue }
            let state = user["state"]?.stringValue.flatMap(UserState.init(rawValue:)) ?? .active
            _ = try store.insertUser(project, id: id, name: user["userName"]?.stringValue ?? "Demo Driver", state: state, accessTtl: nil, refreshTtl: nil, now: now)
            for (index, token) in (user["tokens"]?.arrayValue ?? []).enumerated() {
                let accessTtl = token["accessTtlSeconds"]?.doubleValue ?? settings.defaultAccessTtlSeconds
                let refreshTtl = token["refreshTtlSeconds"]?.doubleValue ?? settings.defaultRefreshTtlSeconds
                let refresh = token["refreshToken"]?.stringValue
                let access = token["token"]?.stringValue ?? "tma_\(tenant)_demoaccess\(index)"
                let time = now.timeIntervalSince1970
                try store.insertPair(
                    project, id: "tp_fixture\(id)_\(index)", userID: id, accessToken: access,
                    accessExpires: time + accessTtl, refreshToken: refresh, refreshExpires: refresh == nil ? nil : time + refreshTtl,
                    accessTtl: accessTtl, refreshTtl: refresh == nil ? nil : refreshTtl, parentID: nil, createdAt: time)
                if session == nil { session = (access, refresh) }
            }
        }
        if let session {
            try store.recordSessionCredentials(project, ["token": session.token, "refreshToken": session.refreshToken])
        }
        var plates: [String: Int] = [:]
        for vehicle in fixtures["vehicles"]?.arrayValue ?? [] {
            guard let plate = vehicle["plate"]?.stringValue else { continue }
            let (record, _) = try store.upsertVehicle(
                project, plate: plate, internalPlate: vehicle["internalPlate"]?.stringValue,
                type: vehicle["type"]?.intValue ?? 1, fuelType: vehicle["fuelType"]?.intValue ?? 1,
                addReason: vehicle["addReason"]?.intValue, now: now)
            plates[plate] = record.id
            if let user = vehicle["currentForUserId"]?.intValue { try store.setCurrentVehicle(project, userID: user, vehicleID: record.id) }
            for report in vehicle["kilometers"]?.arrayValue ?? [] {
                guard let km = report["kilometers"]?.doubleValue else { continue }
                let readAt = now.timeIntervalSince1970 - (report["daysAgo"]?.doubleValue ?? 0) * 86_400
                _ = try store.insertReport(
                    project, vehicleID: record.id, userID: nil, kilometers: km, observations: report["observations"]?.stringValue,
                    readAt: readAt, now: now)
            }
        }
        let seeder = TripSeeder(processor: PeriodProcessor(store: store, project: project, settings: settings, now: now))
        let midnight = floor(now.timeIntervalSince1970 / 86_400) * 86_400
        for trip in fixtures["trips"]?.arrayValue ?? [] {
            guard let user = trip["userId"]?.intValue, let from = trip["from"]?.arrayValue, let to = trip["to"]?.arrayValue,
                from.count == 2, to.count == 2
            else { continue }
            let start = midnight - (trip["daysAgo"]?.doubleValue ?? 1) * 86_400 + (trip["startHourUtc"]?.doubleValue ?? 8) * 3600
            let samples = TripSeeder.syntheticDrive(
                startMs: Int64(start * 1000), from: (from[0].doubleValue ?? 0, from[1].doubleValue ?? 0),
                to: (to[0].doubleValue ?? 0, to[1].doubleValue ?? 0),
                durationSec: Int((trip["durationMinutes"]?.doubleValue ?? 20) * 60))
            // Fixture events are placed by `offsetSeconds` from the trip start, so they move with the demo's creation day.
            let events: [JSONValue] = (trip["events"]?.arrayValue ?? []).map { event in
                guard case .object(var members) = event else { return event }
                members["timestampMs"] = .int(Int64((start + (members.removeValue(forKey: "offsetSeconds")?.doubleValue ?? 0)) * 1000))
                return .object(members)
            }
            let body = TelematicsAdmin.TripBody(
                userId: user, vehicleId: trip["vehiclePlate"]?.stringValue.flatMap { plates[$0] }, samples: samples,
                events: events, attentionEvents: nil)
            _ = try seeder.trip(body)
        }
    }
}
