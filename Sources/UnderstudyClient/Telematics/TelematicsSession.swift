import Foundation

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
        // An unparseable base URL must still give a session whose calls fail, as the SDK's would;
        // the fallback is a constant literal that always parses.
        http = ClientHTTP(baseURL: URL(string: base) ?? URL(string: "http://invalid")!, timeout: 30)
        self.deviceClock = deviceClock
        token = options.token
        tokenExpires = options.tokenExpires
        refreshToken = options.refreshToken
        refreshTokenExpires = options.refreshTokenExpires
    }

    /// `getSessionState()`: what the session knows, without a request.
    public func getSessionState() -> TelematicsSessionState {
        TelematicsSessionState(
            status: status, invalidationReason: reason, isAutoRenewing: refreshToken != nil,
            recoverableUntil: refreshToken != nil ? refreshTokenExpires : tokenExpires, lastVerifiedAt: lastVerifiedAt)
    }

    /// The tokens currently held (after rotations).
    public var currentTokens: TelematicsTokenInitOptions? {
        token.map {
            TelematicsTokenInitOptions(
                baseURL: http.baseURL.absoluteString, token: $0, tokenExpires: tokenExpires,
                refreshToken: refreshToken, refreshTokenExpires: refreshTokenExpires)
        }
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
            // A body that is not the platform's error (a fault, a proxy page) has no code: no invalidation.
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
        return try await call(
            "POST", "/vehicles/current/kilometers/corrections",
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
            body = GzipStored.wrap(body)
            headers["Content-Encoding"] = "gzip"
        }
        let response = try await send("POST", "/telemetry", body: body, expect: nil, extraHeaders: headers)
        guard response.status == 202 || response.status == 200 else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.decode()
    }

    /// Uploads attention events as the SDK does automatically.
    @discardableResult
    public func uploadAttentionEvents(_ events: [TelematicsAttentionEvent]) async throws(UnderstudyClientError) -> TelematicsAttentionUploadResult {
        let response = try await send("POST", "/attention-events", body: try JSONEncoder.encodeOrThrow(["events": events]), expect: nil)
        // 200 when every event was uploaded before (a retry), 202 otherwise.
        guard response.status == 202 || response.status == 200 else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.decode()
    }

    /// `insertManualEvent(eventType:)` with the time and last location the SDK would attach.
    @discardableResult
    public func insertManualEvent(
        eventType: TelematicsManualEventType, timestamp: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        id: String? = UUID().uuidString.lowercased()
    ) async throws(UnderstudyClientError) -> TelematicsManualEvent {
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
    public func getTelematicsPeriods(
        startTs: Date? = nil, endTs: Date? = nil, isProcessed: Bool? = nil, page: Int? = nil,
        pageSize: Int? = nil
    ) async throws(UnderstudyClientError) -> TelematicsPeriodsPage {
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
    private func send(
        _ method: String, _ path: String, body: Data?, query: [(String, String)] = [], expect: Int?,
        extraHeaders: [String: String] = [:], allowRefresh: Bool = true
    ) async throws(UnderstudyClientError) -> ClientResponse {
        guard status != .invalid, status != .notAuthenticated, token != nil else {
            throw .unexpectedStatus(0, body: "TelematicsSDKNotAuthenticatedException: the session is \(status)")
        }
        // An expiry the SDK cannot parse gives it no reason to renew early; the 401 path still renews.
        if allowRefresh, refreshToken != nil, let expires = tokenExpires.flatMap({ try? Date($0, strategy: .iso8601) }), expires <= deviceClock() {
            try await renewTokens()
        }
        var response = try await raw(method, path, body: body, query: query, headers: extraHeaders)
        // As in `renewTokens`: a body that is not the platform's error has no code.
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

extension JSONEncoder {
    fileprivate static func encodeOrThrow<T: Encodable>(_ value: T) throws(UnderstudyClientError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .encoding(String(describing: error)) }
    }
}
