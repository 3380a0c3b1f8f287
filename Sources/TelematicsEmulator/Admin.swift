import EmulatorCore
import Foundation
import HTTPServer

/// Control-plane routes under `/__admin/projects/{id}/telematics` [§10.2]: users and account
/// states, token minting and lifecycle, catalogues, vehicles, service codes, settings, seeded
/// trips and periods, "process now", and inspection of batches and events.
struct TelematicsAdmin: Sendable {
    /// The configuration file's settings layer (see `TelematicsSettings`).
    let configuredSettings: JSONValue

    /// Every control-plane route.
    func routes() -> [AdminRoute] {
        [
            AdminRoute(.get, "/settings", settings),
            AdminRoute(.patch, "/settings", patchSettings),
            AdminRoute(.get, "/catalogues/vehicle-types", catalogue(.vehicleTypes)),
            AdminRoute(.put, "/catalogues/vehicle-types", replaceCatalogue(.vehicleTypes)),
            AdminRoute(.get, "/catalogues/fuel-types", catalogue(.fuelTypes)),
            AdminRoute(.put, "/catalogues/fuel-types", replaceCatalogue(.fuelTypes)),
            AdminRoute(.get, "/catalogues/add-reasons", catalogue(.addReasons)),
            AdminRoute(.put, "/catalogues/add-reasons", replaceCatalogue(.addReasons)),
            AdminRoute(.get, "/service-codes", serviceCodes),
            AdminRoute(.put, "/service-codes", replaceServiceCodes),
            AdminRoute(.post, "/users", createUser),
            AdminRoute(.get, "/users", users),
            AdminRoute(.get, "/users/{userId}", user),
            AdminRoute(.patch, "/users/{userId}", patchUser),
            AdminRoute(.post, "/users/{userId}/process", processNow),
            AdminRoute(.post, "/tokens", mintToken),
            AdminRoute(.get, "/tokens", tokens),
            AdminRoute(.post, "/tokens/expire", tokenAction(.expire)),
            AdminRoute(.post, "/tokens/revoke", tokenAction(.revoke)),
            AdminRoute(.post, "/vehicles", createVehicle),
            AdminRoute(.get, "/vehicles", vehicles),
            AdminRoute(.post, "/vehicles/{vehicleId}/kilometers", seedKilometers),
            AdminRoute(.get, "/vehicles/{vehicleId}/kilometers", kilometers),
            AdminRoute(.post, "/trips", seedTrip),
            AdminRoute(.post, "/periods", seedPeriods),
            AdminRoute(.get, "/trips", inspectTrips),
            AdminRoute(.get, "/trips/{tripId}", inspectTrip),
            AdminRoute(.get, "/periods", inspectPeriods),
            AdminRoute(.get, "/batches", inspectBatches),
            AdminRoute(.get, "/attention-events", inspectAttentionEvents),
            AdminRoute(.get, "/manual-events", inspectManualEvents),
        ]
    }

    // MARK: Shared steps

    static let features: Set<String> = Set(TelematicsService.features)

    func checkLifetimes(_ values: Double?...) throws {
        for ttl in values.compactMap({ $0 }) where !(ttl > 0 && ttl <= TelematicsSettings.maxSeconds) {
            throw AdminError.badRequest("Token lifetimes must be between 0 and \(Int(TelematicsSettings.maxSeconds)) seconds.")
        }
    }

    func checkFeatures(_ list: [String]?) throws -> [String]? {
        guard let list else { return nil }
        if let unknown = list.first(where: { !Self.features.contains($0) }) { throw AdminError.badRequest("Unknown feature `\(unknown)`; use TRIPS, KILOMETERS or ATTENTION.") }
        return list
    }

    func checkState(_ text: String?) throws -> UserState? {
        guard let text else { return nil }
        guard let state = UserState(rawValue: text) else { throw AdminError.badRequest("`state` must be ACTIVE, INACTIVE or DENIED.") }
        return state
    }

    func json(_ value: JSONValue, status: Int = 200) -> Response { .json(status: status, bytes: value.encoded()) }

    func userParameter(_ context: AdminContext) throws -> Int {
        guard let id = Int(context.parameter("userId")) else { throw AdminError.badRequest("`userId` must be an integer.") }
        return id
    }

    func vehicleParameter(_ context: AdminContext) throws -> Int {
        guard let id = Int(context.parameter("vehicleId")) else { throw AdminError.badRequest("`vehicleId` must be an integer.") }
        return id
    }

    /// The optional `userId` query filter of the inspection routes.
    func userFilter(_ request: Request) throws -> Int? {
        guard let text = request.queryValue("userId") else { return nil }
        guard let id = Int(text) else { throw AdminError.badRequest("`userId` must be an integer.") }
        return id
    }

    func date(_ text: String?, _ field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = TelematicsTime.parse(text) else { throw AdminError.badRequest("`\(field)` must be an ISO 8601 timestamp.") }
        return date
    }

    /// The project's effective settings; a stored document that does not read is a 503 that says why.
    func effectiveSettings(_ store: TelematicsStore, _ project: ProjectID) throws -> TelematicsSettings {
        do { return try TelematicsSettings.effective(configured: configuredSettings, stored: store.settingsDocument(project)) } catch let error as TelematicsSettings.Unreadable {
            throw Self.unavailable(error)
        }
    }

    /// The control plane's answer to unreadable stored settings: 503, with the reason and the way out.
    static func unavailable(_ error: TelematicsSettings.Unreadable) -> AdminError {
        AdminError(
            status: 503, code: "storage_unavailable",
            message:
                "The project's stored Telematics settings cannot be read: \(error.reason). A PATCH of /settings that sets the named key (or null for its default) repairs them.")
    }

    /// Replaces top-level settings keys in the project's stored document; returns the effective
    /// settings. A change of the wrong type is a 400; a stored document that does not read (and
    /// that the change does not repair) is a 503.
    func changeSettings(
        _ store: TelematicsStore, _ project: ProjectID, _ changes: [String: JSONValue],
        validate: Bool = false
    ) throws -> TelematicsSettings {
        let stored: JSONValue
        do { stored = try store.settingsDocument(project) } catch is TelematicsSettings.Unreadable {
            // A document that is not JSON at all cannot be patched key by key: the change starts it afresh.
            stored = .null
        }
        // The change is the caller's 400 when it is wrong on its own; after that, only the stored rest can fail.
        do { _ = try TelematicsSettings.effective(configured: configuredSettings, stored: TelematicsSettings.replacing(.null, with: changes)) } catch {
            throw AdminError.badRequest("A setting has the wrong type: \(error.reason)")
        }
        let document = TelematicsSettings.replacing(stored, with: changes)
        let merged: TelematicsSettings
        do { merged = try TelematicsSettings.effective(configured: configuredSettings, stored: document) } catch { throw Self.unavailable(error) }
        if validate, let problem = merged.problems.first { throw AdminError.badRequest(problem) }
        try store.saveSettingsDocument(project, document)
        return merged
    }

    func requireUser(_ store: TelematicsStore, _ project: ProjectID, _ id: Int) throws -> UserRecord {
        guard let user = try store.user(project, id: id) else { throw AdminError.notFound("User \(id)") }
        return user
    }

    // MARK: Settings, catalogues, service codes

    func settings(_ request: Request, _ context: AdminContext) async throws -> Response {
        let settings = try await context.database.read { try effectiveSettings(TelematicsStore(connection: $0), context.projectID) }
        return json(try JSONValue.from(settings))
    }

    func patchSettings(_ request: Request, _ context: AdminContext) async throws -> Response {
        // Any parse failure gets the same 400, so which one it was does not matter.
        guard let patch = (try? JSONValue.parse(request.body))?.objectValue else { throw AdminError.badRequest("The body must be a JSON object of settings.") }
        if let unknown = patch.keys.sorted().first(where: { TelematicsSettings.CodingKeys(rawValue: $0) == nil }) {
            throw AdminError(status: 400, code: "unknown_field", message: "Unknown setting `\(unknown)`.")
        }
        let settings = try await context.database.write { connection in
            try changeSettings(TelematicsStore(connection: connection), context.projectID, patch, validate: true)
        }
        return json(try JSONValue.from(settings))
    }

    func catalogue(_ catalogue: Catalogue) -> @Sendable (Request, AdminContext) async throws -> Response {
        { _, context in
            let settings = try await context.database.read { try effectiveSettings(TelematicsStore(connection: $0), context.projectID) }
            return json(Wire.catalogue(catalogue.entries(settings)))
        }
    }

    func replaceCatalogue(_ catalogue: Catalogue) -> @Sendable (Request, AdminContext) async throws -> Response {
        { request, context in
            let map = try AdminBody.decode([String: Int].self, from: request)
            guard !map.isEmpty else { throw AdminError.badRequest("A catalogue needs at least one name → code entry.") }
            _ = try await context.database.write { connection in
                try changeSettings(TelematicsStore(connection: connection), context.projectID, [catalogue.rawValue: Wire.catalogue(map)])
            }
            return json(Wire.catalogue(map))
        }
    }

    func serviceCodes(_ request: Request, _ context: AdminContext) async throws -> Response {
        let settings = try await context.database.read { try effectiveSettings(TelematicsStore(connection: $0), context.projectID) }
        return json(try Self.serviceCodes(settings))
    }

    func replaceServiceCodes(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(ServiceCodesBody.self, from: request)
        guard body.mode == "open" || body.mode == "allowList" else { throw AdminError.badRequest("`mode` must be `open` or `allowList`.") }
        let codes: JSONValue = body.mode == "open" ? .null : try JSONValue.from(body.codes ?? [])
        let settings = try await context.database.write { connection in
            try changeSettings(TelematicsStore(connection: connection), context.projectID, ["serviceCodes": codes])
        }
        return json(try Self.serviceCodes(settings))
    }
}
