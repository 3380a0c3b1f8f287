import Foundation

/// The Telematics control plane of one project (`/__admin/projects/{id}/telematics/...`).
public struct TelematicsAdminClient: Sendable {
    let project: ProjectAdmin

    private func request(_ method: String, _ path: String, json: AnyJSON? = nil, query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        try await project.platformRequest("telematics", method, path, json: json, query: query)
    }

    private static func json<T: Encodable>(_ value: T) throws(UnderstudyClientError) -> AnyJSON {
        do { return try JSONDecoder().decode(AnyJSON.self, from: JSONEncoder().encode(value)) } catch { throw .encoding(String(describing: error)) }
    }

    /// Mints a token pair for a user (created if needed), ready for `TelematicsTokenInitOptions`.
    public func mintTokens(
        userId: Int, userName: String? = nil, accessTtlSeconds: Double? = nil, refreshTtlSeconds: Double? = nil,
        withRefreshToken: Bool = true
    ) async throws(UnderstudyClientError) -> TelematicsTokenPair {
        struct Body: Encodable { var userId: Int; var userName: String?; var accessTtlSeconds: Double?; var refreshTtlSeconds: Double?; var withRefreshToken: Bool }
        let body = try Self.json(
            Body(
                userId: userId, userName: userName, accessTtlSeconds: accessTtlSeconds, refreshTtlSeconds: refreshTtlSeconds,
                withRefreshToken: withRefreshToken))
        return try await request("POST", "/tokens", json: body).expect(201)
    }

    /// Creates a user the SDK can then be given tokens for.
    @discardableResult
    public func createUser(userId: Int? = nil, userName: String, state: String = "ACTIVE") async throws(UnderstudyClientError) -> TelematicsUser {
        struct Body: Encodable { var userId: Int?; var userName: String; var state: String }
        return try await request("POST", "/users", json: try Self.json(Body(userId: userId, userName: userName, state: state))).expect(201)
    }

    /// One user with its account state and switched-off features.
    public func user(_ userId: Int) async throws(UnderstudyClientError) -> TelematicsUser {
        try await request("GET", "/users/\(userId)").expect(200)
    }

    /// Sets a user's account state: `ACTIVE`, `INACTIVE` or `DENIED`.
    @discardableResult
    public func setAccountState(_ userId: Int, _ state: String) async throws(UnderstudyClientError) -> TelematicsUser {
        try await request("PATCH", "/users/\(userId)", json: ["state": .string(state)]).expect(200)
    }

    /// Switches features off for a user (`TRIPS`, `KILOMETERS`, `ATTENTION`); an empty list switches all back on.
    @discardableResult
    public func setDisabledFeatures(_ userId: Int, _ features: [String]) async throws(UnderstudyClientError) -> TelematicsUser {
        try await request("PATCH", "/users/\(userId)", json: ["disabledFeatures": .array(features.map { .string($0) })]).expect(200)
    }

    /// The user's token pairs (the refresh chain), oldest first.
    public func tokens(userId: Int? = nil) async throws(UnderstudyClientError) -> [TelematicsTokenRecord] {
        struct List: Decodable { var tokens: [TelematicsTokenRecord] }
        return try await request("GET", "/tokens", query: userId.map { [("userId", String($0))] } ?? []).expect(200, as: List.self).tokens
    }

    /// Expires an access or refresh token now (project clock).
    @discardableResult
    public func expireToken(_ token: String) async throws(UnderstudyClientError) -> TelematicsTokenRecord {
        try await request("POST", "/tokens/expire", json: ["token": .string(token)]).expect(200)
    }

    /// Revokes an access or refresh token.
    @discardableResult
    public func revokeToken(_ token: String) async throws(UnderstudyClientError) -> TelematicsTokenRecord {
        try await request("POST", "/tokens/revoke", json: ["token": .string(token)]).expect(200)
    }

    /// Changes processing and token settings (partial: only the keys given).
    @discardableResult
    public func updateSettings(_ settings: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON {
        try await request("PATCH", "/settings", json: settings).expect(200)
    }

    /// Replaces a catalogue: `vehicle-types`, `fuel-types` or `add-reasons`.
    public func setCatalogue(_ kind: String, _ entries: [String: Int]) async throws(UnderstudyClientError) {
        try await request("PUT", "/catalogues/\(kind)", json: try Self.json(entries)).expect(200)
    }

    /// Seeds a vehicle, optionally making it a user's current vehicle.
    @discardableResult
    public func createVehicle(
        plate: String, internalPlate: String? = nil, type: Int, fuelType: Int, addReason: Int? = nil,
        currentForUserId: Int? = nil
    ) async throws(UnderstudyClientError) -> TelematicsVehicleDetails {
        struct Body: Encodable { var plate: String; var internalPlate: String?; var type: Int; var fuelType: Int; var addReason: Int?; var currentForUserId: Int? }
        return try await request(
            "POST", "/vehicles",
            json: try Self.json(
                Body(
                    plate: plate, internalPlate: internalPlate, type: type, fuelType: fuelType,
                    addReason: addReason, currentForUserId: currentForUserId))
        ).expect(201)
    }

    /// Switches service codes to open mode (nil) or to an allow-list.
    public func setServiceCodes(_ codes: [String]?) async throws(UnderstudyClientError) {
        let body: AnyJSON = codes.map { ["mode": "allowList", "codes": .array($0.map { ["code": .string($0)] })] } ?? ["mode": "open"]
        try await request("PUT", "/service-codes", json: body).expect(200)
    }

    /// "Process now": closes the user's open periods and builds their trips.
    @discardableResult
    public func process(userId: Int) async throws(UnderstudyClientError) -> TelematicsProcessResult {
        try await request("POST", "/users/\(userId)/process").expect(200)
    }

    /// Seeds a trip (`samples`, `events`, `attentionEvents`, or `startedAt`/`endedAt`/`distanceKm`).
    @discardableResult
    public func seedTrip(_ body: AnyJSON) async throws(UnderstudyClientError) -> TelematicsTripResume {
        try await request("POST", "/trips", json: body).expect(201)
    }

    /// Seeds `count` periods `spacingSeconds` apart.
    @discardableResult
    public func seedPeriods(
        userId: Int, startedAt: String, endedAt: String?, isProcessed: Bool? = nil, count: Int = 1,
        spacingSeconds: Double? = nil
    ) async throws(UnderstudyClientError) -> [TelematicsPeriod] {
        struct Body: Encodable { var userId: Int; var startedAt: String; var endedAt: String?; var isProcessed: Bool?; var count: Int; var spacingSeconds: Double? }
        struct List: Decodable { var periods: [TelematicsPeriod] }
        return try await request(
            "POST", "/periods",
            json: try Self.json(
                Body(
                    userId: userId, startedAt: startedAt, endedAt: endedAt, isProcessed: isProcessed,
                    count: count, spacingSeconds: spacingSeconds))
        ).expect(201, as: List.self).periods
    }

    /// Decoded telemetry batches, with duplicate counts and user-mismatch flags.
    public func batches(userId: Int? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        try await request("GET", "/batches", query: userId.map { [("userId", String($0))] } ?? []).expect(200)
    }

    /// Attention events, with duplicate counts and linked trips.
    public func attentionEvents(userId: Int? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        try await request("GET", "/attention-events", query: userId.map { [("userId", String($0))] } ?? []).expect(200)
    }

    /// Manual events, with linked trips and periods.
    public func manualEvents(userId: Int? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        try await request("GET", "/manual-events", query: userId.map { [("userId", String($0))] } ?? []).expect(200)
    }

    /// Sends any request below the platform's control-plane prefix.
    public func raw(_ method: String, _ path: String, json: AnyJSON? = nil, query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        try await request(method, path, json: json, query: query)
    }
}
