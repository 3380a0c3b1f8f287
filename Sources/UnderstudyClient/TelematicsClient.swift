import Foundation

extension Understudy {
    /// The Sentilant Telematics emulation: SDK-like sessions and the platform's control plane.
    public var telematics: TelematicsClient { TelematicsClient(understudy: self) }
}

/// Entry point of the `telematics` namespace.
public struct TelematicsClient: Sendable {
    let understudy: Understudy

    /// The base URL to give the SDK (`<server>/telematics`).
    public var baseURL: String { understudy.baseURL.absoluteString.trimmingTrailingSlash + "/telematics" }

    /// A session that behaves like `TelematicsSDKios` after `TelematicsTokenInitOptions`: it renews
    /// tokens proactively (judged on `deviceClock`) and reactively (after a 401), and records
    /// `onAuthenticationInvalidated` reasons. Call `initSDK()` to retrieve the user, as the SDK does.
    public func session(_ options: TelematicsTokenInitOptions, deviceClock: @escaping @Sendable () -> Date = { Date() }) -> TelematicsSession {
        TelematicsSession(options: options, deviceClock: deviceClock)
    }

    /// A session for a minted pair against this server.
    public func session(_ pair: TelematicsTokenPair, deviceClock: @escaping @Sendable () -> Date = { Date() }) -> TelematicsSession {
        session(pair.options(baseURL: baseURL), deviceClock: deviceClock)
    }

    /// The Telematics control plane of one project.
    public func admin(_ projectID: String) -> TelematicsAdminClient {
        TelematicsAdminClient(project: understudy.admin.project(projectID))
    }
}

extension String {
    fileprivate var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}

/// An SDK session: the token state of `TelematicsSDKios` and its server calls, named after the SDK's methods.
public actor TelematicsSession {
    private let http: ClientHTTP
    private let deviceClock: @Sendable () -> Date
    private var token: String?
    private var tokenExpires: String?
    private var refreshToken: String?
    private var refreshTokenExpires: String?
    private var status: TelematicsSessionStatus = .unverified
    private var reason: TelematicsAuthInvalidationReason?
    private var lastVerifiedAt: String?
    private var serviceCode: String?
    /// Every reason passed to `onAuthenticationInvalidated`, oldest first.
    public private(set) var invalidations: [TelematicsAuthInvalidationReason] = []
    /// How many refreshes succeeded.
    public private(set) var refreshCount = 0

    init(options: TelematicsTokenInitOptions, deviceClock: @escaping @Sendable () -> Date) {
        var base = options.baseURL
        if !base.contains("://") { base = "https://" + base }
        http = ClientHTTP(baseURL: URL(string: base) ?? URL(string: "http://invalid")!, timeout: 30)
        self.deviceClock = deviceClock
        token = options.token
        tokenExpires = options.tokenExpires
        refreshToken = options.refreshToken
        refreshTokenExpires = options.refreshTokenExpires
    }

    /// `getSessionState()`: what the session knows, without a request.
    public func getSessionState() -> TelematicsSessionState {
        TelematicsSessionState(status: status, invalidationReason: reason, isAutoRenewing: refreshToken != nil,
                               recoverableUntil: refreshToken != nil ? refreshTokenExpires : tokenExpires, lastVerifiedAt: lastVerifiedAt)
    }

    /// The tokens currently held (after rotations).
    public var currentTokens: TelematicsTokenInitOptions? {
        token.map { TelematicsTokenInitOptions(baseURL: http.baseURL.absoluteString, token: $0, tokenExpires: tokenExpires,
                                              refreshToken: refreshToken, refreshTokenExpires: refreshTokenExpires) }
    }

    // MARK: Session

    /// `initSDK(options:)`: retrieves the authenticated user.
    @discardableResult
    public func initSDK() async throws(UnderstudyClientError) -> (userId: Int, userName: String) {
        try await getCurrentUserInfo()
    }

    /// The authenticated user's id and name (`getCurrentUserInfo`).
    public func getCurrentUserInfo() async throws(UnderstudyClientError) -> (userId: Int, userName: String) {
        struct Me: Decodable { var userId: Int; var userName: String }
        let me: Me = try await call("GET", "/users/me", expect: 200)
        return (me.userId, me.userName)
    }

    /// `logout()`: revokes the pair on the server and forgets the credentials.
    public func logout() async throws(UnderstudyClientError) {
        if token != nil {
            let body = try JSONEncoder.encodeOrThrow(["refreshToken": refreshToken])
            _ = try await send("POST", "/auth/logout", body: body, expect: 204, allowRefresh: false)
        }
        token = nil
        refreshToken = nil
        tokenExpires = nil
        refreshTokenExpires = nil
        status = .notAuthenticated
    }

    /// Renews the pair now (what the SDK does before `tokenExpires` or after a 401).
    public func renewTokens() async throws(UnderstudyClientError) {
        guard let refreshToken else { throw .unexpectedStatus(0, body: "no refresh token") }
        let body = try JSONEncoder.encodeOrThrow(["refreshToken": refreshToken])
        let response = try await http.send(ClientRequest(method: "POST", path: "/api/v1/auth/refresh", headers: ["Content-Type": "application/json"], body: body))
        guard response.status == 200 else {
            let code = (try? response.decode(TelematicsErrorBody.self))?.code
            switch code {
            case "REFRESH_TOKEN_EXPIRED": invalidate(.refreshTokenExpired)
            case "REFRESH_TOKEN_REJECTED": invalidate(.refreshTokenRejected)
            case "ACCOUNT_INACTIVE": invalidate(.accountInactive)
            case "ACCESS_DENIED": invalidate(.accessDenied)
            default: break
            }
            throw .unexpectedStatus(response.status, body: response.text)
        }
        let pair = try response.decode(TelematicsTokenPair.self)
        token = pair.token
        tokenExpires = pair.tokenExpires
        self.refreshToken = pair.refreshToken
        refreshTokenExpires = pair.refreshTokenExpires
        refreshCount += 1
    }

    private func invalidate(_ why: TelematicsAuthInvalidationReason) {
        invalidations.append(why)
        reason = why
        if why.invalidatesSession {
            status = .invalid
            token = nil
            refreshToken = nil
        } else {
            status = .denied
        }
    }

    // MARK: Vehicles

    /// `getVehicleTypes()`: name → code.
    public func getVehicleTypes() async throws(UnderstudyClientError) -> [String: Int] { try await call("GET", "/vehicles/types", expect: 200) }
    /// `getFuelTypes()`: name → code.
    public func getFuelTypes() async throws(UnderstudyClientError) -> [String: Int] { try await call("GET", "/vehicles/fuel-types", expect: 200) }
    /// `getAddVehicleReasons()`: name → code.
    public func getAddVehicleReasons() async throws(UnderstudyClientError) -> [String: Int] { try await call("GET", "/vehicles/add-reasons", expect: 200) }

    /// `setVehicle(plate:internalPlate:type:addReason:fuelType:)` (201 when new, 200 when updated).
    @discardableResult
    public func setVehicle(plate: String, internalPlate: String?, type: Int, addReason: Int, fuelType: Int) async throws(UnderstudyClientError) -> TelematicsVehicleDetails {
        struct Body: Encodable { var plate: String; var internalPlate: String?; var type: Int; var addReason: Int; var fuelType: Int }
        let body = try JSONEncoder.encodeOrThrow(Body(plate: plate, internalPlate: internalPlate, type: type, addReason: addReason, fuelType: fuelType))
        let response = try await send("PUT", "/vehicles/current", body: body, expect: nil)
        guard response.status == 200 || response.status == 201 else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.decode()
    }

    /// `setVehicle(plate:)`: selects an existing vehicle (404 `VEHICLE_NOT_FOUND` otherwise).
    @discardableResult
    public func setVehicle(plate: String) async throws(UnderstudyClientError) -> TelematicsVehicleDetails {
        try await call("PUT", "/vehicles/current", json: ["plate": plate], expect: 200)
    }

    /// The user's current vehicle (`getCurrentVehicleInfo`); 404 `VEHICLE_NOT_FOUND` when none is set.
    public func getCurrentVehicleInfo() async throws(UnderstudyClientError) -> TelematicsVehicleDetails {
        try await call("GET", "/vehicles/current", expect: 200)
    }

    /// `clearVehicle()` (the SDK forgets locally; this also clears the server's current vehicle).
    public func clearVehicle() async throws(UnderstudyClientError) {
        _ = try await send("DELETE", "/vehicles/current", body: nil, expect: 204)
    }

    // MARK: Kilometers

    /// `reportKilometers(kilometers:observations:)` for the current vehicle.
    @discardableResult
    public func reportKilometers(kilometers: Double, observations: String? = nil) async throws(UnderstudyClientError) -> TelematicsKilometersReport {
        struct Body: Encodable { var kilometers: Double; var observations: String? }
        return try await call("POST", "/vehicles/current/kilometers", json: Body(kilometers: kilometers, observations: observations), expect: 201)
    }

    /// Replaces the latest `correctionCount` odometer readings (`correctKilometers(kilometers:observations:correctionCount:)`).
    @discardableResult
    public func correctKilometers(kilometers: Double, observations: String? = nil, correctionCount: Int) async throws(UnderstudyClientError) -> TelematicsKilometersCorrection {
        struct Body: Encodable { var kilometers: Double; var observations: String?; var correctionCount: Int }
        return try await call("POST", "/vehicles/current/kilometers/corrections",
                              json: Body(kilometers: kilometers, observations: observations, correctionCount: correctionCount), expect: 200)
    }

    /// `getEstimatedMileage()`: km, or −1 when unknown.
    public func getEstimatedMileage() async throws(UnderstudyClientError) -> Double {
        let estimate: TelematicsMileageEstimate = try await call("GET", "/vehicles/current/estimated-mileage", expect: 200)
        return estimate.estimatedKilometers
    }

    // MARK: Service and uploads

    /// `setServiceCode(serviceCode:)`: validates it and sends it with later telemetry.
    @discardableResult
    public func setServiceCode(_ code: String) async throws(UnderstudyClientError) -> TelematicsServiceCode {
        let result: TelematicsServiceCode = try await call("GET", "/service-codes/" + ClientHTTP.encode(code), expect: 200)
        serviceCode = code
        return result
    }

    /// Uploads a telemetry batch as the running service does (gzip when asked). 202 new, 200 duplicate.
    @discardableResult
    public func uploadTelemetry(_ batch: TelematicsTelemetryBatch, gzip: Bool = false) async throws(UnderstudyClientError) -> TelematicsUploadResult {
        var batch = batch
        if batch.serviceCode == nil { batch.serviceCode = serviceCode }
        var body = try JSONEncoder.encodeOrThrow(batch)
        var headers: [String: String] = [:]
        if gzip {
            body = GzipWriter.wrapStored(body)
            headers["Content-Encoding"] = "gzip"
        }
        let response = try await send("POST", "/telemetry", body: body, expect: nil, extraHeaders: headers)
        guard response.status == 202 || response.status == 200 else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.decode()
    }

    /// Uploads attention events as the SDK does automatically.
    @discardableResult
    public func uploadAttentionEvents(_ events: [TelematicsAttentionEvent]) async throws(UnderstudyClientError) -> TelematicsAttentionUploadResult {
        try await call("POST", "/attention-events", json: ["events": events], expect: 202)
    }

    /// `insertManualEvent(eventType:)` with the time and last location the SDK would attach.
    @discardableResult
    public func insertManualEvent(eventType: TelematicsManualEventType, timestamp: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                                  id: String? = UUID().uuidString.lowercased()) async throws(UnderstudyClientError) -> TelematicsManualEvent {
        struct Body: Encodable { var id: String?; var type: String; var timestamp: String?; var latitude: Double?; var longitude: Double? }
        let body = try JSONEncoder.encodeOrThrow(Body(id: id, type: eventType.rawValue, timestamp: timestamp, latitude: latitude, longitude: longitude))
        let response = try await send("POST", "/manual-events", body: body, expect: nil)
        guard response.status == 201 || response.status == 200 else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.decode()
    }

    // MARK: Trips, metrics, periods

    /// `getTripsList(startTs:endTs:)`; nil for both returns all trips.
    public func getTripsList(startTs: Date? = nil, endTs: Date? = nil) async throws(UnderstudyClientError) -> [TelematicsTripResume] {
        try await call("GET", "/trips", query: Self.range(startTs, endTs), expect: 200)
    }

    /// One trip with its events and, if asked, its samples (`getTripById(tripId:includeSamples:)`).
    public func getTripById(tripId: Int, includeSamples: Bool) async throws(UnderstudyClientError) -> TelematicsTripDetails {
        try await call("GET", "/trips/\(tripId)", query: [("includeSamples", includeSamples ? "true" : "false")], expect: 200)
    }

    /// Driving totals over the trips that start in the range (`getMetricsSummary(startTs:endTs:)`).
    public func getMetricsSummary(startTs: Date? = nil, endTs: Date? = nil) async throws(UnderstudyClientError) -> TelematicsMetricsSummary {
        try await call("GET", "/metrics/summary", query: Self.range(startTs, endTs), expect: 200)
    }

    /// Totals per activity (driving, walking, …) in the range (`getActivityMetricsSummary(startTs:endTs:)`).
    public func getActivityMetricsSummary(startTs: Date? = nil, endTs: Date? = nil) async throws(UnderstudyClientError) -> TelematicsActivityMetricsSummary {
        try await call("GET", "/metrics/activity-summary", query: Self.range(startTs, endTs), expect: 200)
    }

    /// One page of telematics periods in the range (`getTelematicsPeriods(startTs:endTs:isProcessed:page:)`).
    public func getTelematicsPeriods(startTs: Date? = nil, endTs: Date? = nil, isProcessed: Bool? = nil, page: Int? = nil,
                                     pageSize: Int? = nil) async throws(UnderstudyClientError) -> TelematicsPeriodsPage {
        var query = Self.range(startTs, endTs)
        if let isProcessed { query.append(("isProcessed", isProcessed ? "true" : "false")) }
        if let page { query.append(("page", String(page))) }
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        return try await call("GET", "/telematics-periods", query: query, expect: 200)
    }

    /// `getAllTelematicsPeriods(startTs:endTs:isProcessed:)`: every page until `hasNext` is false.
    public func getAllTelematicsPeriods(startTs: Date? = nil, endTs: Date? = nil, isProcessed: Bool? = nil) async throws(UnderstudyClientError) -> [TelematicsPeriod] {
        var all: [TelematicsPeriod] = []
        var page = 1
        while true {
            let current = try await getTelematicsPeriods(startTs: startTs, endTs: endTs, isProcessed: isProcessed, page: page)
            all += current.items
            guard current.hasNext, page < 10_000 else { return all }
            page += 1
        }
    }

    /// One telematics period (`getTelematicsPeriod(id:)`).
    public func getTelematicsPeriod(id: Int) async throws(UnderstudyClientError) -> TelematicsPeriod {
        try await call("GET", "/telematics-periods/\(id)", expect: 200)
    }

    // MARK: Plumbing

    static func range(_ start: Date?, _ end: Date?) -> [(String, String)] {
        var query: [(String, String)] = []
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let start { query.append(("startTs", style.format(start))) }
        if let end { query.append(("endTs", style.format(end))) }
        return query
    }

    private func call<T: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [], expect: Int) async throws(UnderstudyClientError) -> T {
        try await send(method, path, body: nil, query: query, expect: expect).decode()
    }

    private func call<T: Decodable, B: Encodable>(_ method: String, _ path: String, json: B, expect: Int) async throws(UnderstudyClientError) -> T {
        try await send(method, path, body: try JSONEncoder.encodeOrThrow(json), expect: expect).decode()
    }

    /// Sends with the SDK's token behaviour: proactive renewal, one reactive renewal after a 401,
    /// invalidation reasons from the error codes.
    private func send(_ method: String, _ path: String, body: Data?, query: [(String, String)] = [], expect: Int?,
                      extraHeaders: [String: String] = [:], allowRefresh: Bool = true) async throws(UnderstudyClientError) -> ClientResponse {
        guard status != .invalid, status != .notAuthenticated, token != nil else {
            throw .unexpectedStatus(0, body: "TelematicsSDKNotAuthenticatedException: the session is \(status)")
        }
        if allowRefresh, refreshToken != nil, let expires = tokenExpires.flatMap({ try? Date($0, strategy: .iso8601) }), expires <= deviceClock() {
            try await renewTokens()
        }
        var response = try await raw(method, path, body: body, query: query, headers: extraHeaders)
        let code = (response.status == 401 || response.status == 403) ? (try? response.decode(TelematicsErrorBody.self))?.code : nil
        if response.status == 401, code == "ACCESS_TOKEN_REJECTED" {
            if refreshToken != nil && allowRefresh {
                try await renewTokens()
                response = try await raw(method, path, body: body, query: query, headers: extraHeaders)
            } else {
                invalidate(.accessTokenRejected)
            }
        } else if response.status == 403 {
            invalidate(code == "ACCOUNT_INACTIVE" ? .accountInactive : .accessDenied)
        }
        if response.status < 400 {
            status = .verified
            reason = nil
            lastVerifiedAt = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(deviceClock())
        }
        if let expect, response.status != expect { throw .unexpectedStatus(response.status, body: response.text) }
        return response
    }

    private func raw(_ method: String, _ path: String, body: Data?, query: [(String, String)], headers: [String: String]) async throws(UnderstudyClientError) -> ClientResponse {
        var all = headers
        if let token { all["Authorization"] = "Bearer " + token }
        if body != nil { all["Content-Type"] = "application/json" }
        return try await http.send(ClientRequest(method: method, path: "/api/v1" + path, query: query, headers: all, body: body))
    }
}

fileprivate extension JSONEncoder {
    static func encodeOrThrow<T: Encodable>(_ value: T) throws(UnderstudyClientError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .encoding(String(describing: error)) }
    }
}

/// A minimal gzip writer (stored blocks, no compression): the client has no zlib, and the server
/// only needs a valid gzip stream to exercise its inflate path.
fileprivate enum GzipWriter {
    static func wrapStored(_ data: Data) -> Data {
        var out = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255])
        var offset = 0
        repeat {
            let chunk = min(65_535, data.count - offset)
            let last: UInt8 = offset + chunk >= data.count ? 1 : 0
            out.append(last)
            out.append(UInt8(chunk & 0xff)); out.append(UInt8(chunk >> 8))
            out.append(UInt8(~chunk & 0xff)); out.append(UInt8((~chunk >> 8) & 0xff))
            out.append(data[data.startIndex + offset ..< data.startIndex + offset + chunk])
            offset += chunk
        } while offset < data.count
        var crc = crc32(data)
        for _ in 0..<4 { out.append(UInt8(crc & 0xff)); crc >>= 8 }
        var size = UInt32(truncatingIfNeeded: data.count)
        for _ in 0..<4 { out.append(UInt8(size & 0xff)); size >>= 8 }
        return out
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

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
    public func mintTokens(userId: Int, userName: String? = nil, accessTtlSeconds: Double? = nil, refreshTtlSeconds: Double? = nil,
                           withRefreshToken: Bool = true) async throws(UnderstudyClientError) -> TelematicsTokenPair {
        struct Body: Encodable { var userId: Int; var userName: String?; var accessTtlSeconds: Double?; var refreshTtlSeconds: Double?; var withRefreshToken: Bool }
        let body = try Self.json(Body(userId: userId, userName: userName, accessTtlSeconds: accessTtlSeconds, refreshTtlSeconds: refreshTtlSeconds,
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
    public func createVehicle(plate: String, internalPlate: String? = nil, type: Int, fuelType: Int, addReason: Int? = nil,
                              currentForUserId: Int? = nil) async throws(UnderstudyClientError) -> TelematicsVehicleDetails {
        struct Body: Encodable { var plate: String; var internalPlate: String?; var type: Int; var fuelType: Int; var addReason: Int?; var currentForUserId: Int? }
        return try await request("POST", "/vehicles", json: try Self.json(Body(plate: plate, internalPlate: internalPlate, type: type, fuelType: fuelType,
                                                                               addReason: addReason, currentForUserId: currentForUserId))).expect(201)
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
    public func seedPeriods(userId: Int, startedAt: String, endedAt: String?, isProcessed: Bool? = nil, count: Int = 1,
                            spacingSeconds: Double? = nil) async throws(UnderstudyClientError) -> [TelematicsPeriod] {
        struct Body: Encodable { var userId: Int; var startedAt: String; var endedAt: String?; var isProcessed: Bool?; var count: Int; var spacingSeconds: Double? }
        struct List: Decodable { var periods: [TelematicsPeriod] }
        return try await request("POST", "/periods", json: try Self.json(Body(userId: userId, startedAt: startedAt, endedAt: endedAt, isProcessed: isProcessed,
                                                                               count: count, spacingSeconds: spacingSeconds))).expect(201, as: List.self).periods
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
