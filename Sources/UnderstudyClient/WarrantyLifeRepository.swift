import Foundation
import Synchronization

/// The SDK's `ApiRepository` over the wire: the same calls, the same headers (`X-WL-Developer-Key`,
/// Basic `identity:token`), the same encodings (form login, gzip readings, raw audio, multipart
/// images) and the same local state (session, item id, registration stages already uploaded).
public final class WarrantyLifeRepository: Sendable {
    let http: ClientHTTP
    let apiKey: String?
    /// The SDK's device identity.
    public let deviceID: String
    let base: String
    let retryDelays: [Double]

    struct State: Sendable {
        var login: WarrantyLifeLoginResponse?
        var itemID: String?
        var voucher: WarrantyLifeVoucher?
        var eventAt: String?
        var sensorEventID: String?
        var readingsUploaded = false
        var audioUploaded = false
        var diagnosticHash: Data?
        var diagnosticID: String?
        var uploadedImages: [String: Data] = [:]
        var ssr = false, ssd = false, tradeIn = false
        var warranty: WarrantyLifeWarranty?
        var keyValidation: WarrantyLifeKeyValidation?
    }
    let state = Mutex(State())

    init(http: ClientHTTP, apiKey: String?, deviceID: String, base: String, retryDelays: [Double]) {
        self.http = http
        self.apiKey = apiKey
        self.deviceID = deviceID
        self.base = base
        self.retryDelays = retryDelays
    }

    /// Whether a user is logged in (`isUserLoggedIn()`).
    public var isUserLoggedIn: Bool { state.withLock { $0.login != nil } }
    /// The item id the repository holds (`getItemID()`), set once the device's item was found or created.
    public var itemID: String? { state.withLock { $0.itemID } }
    /// The id of the diagnostic report uploaded by `registerDevice` (`getDiagnosticsId()`).
    public var diagnosticID: String? { state.withLock { $0.diagnosticID } }

    /// The latest key-validation result (`getAPIKeyValidationStatus()`); nil until `validateAPIKey` ran.
    public var apiKeyValidation: WarrantyLifeKeyValidation? { state.withLock { $0.keyValidation } }

    // MARK: Plumbing

    func request(_ method: String, _ path: String, query: [(String, String)] = [], json: AnyJSON? = nil, body: Data? = nil,
                 headers extra: [String: String] = [:]) async throws(UnderstudyClientError) -> ClientResponse {
        // After a 401 on validation the SDK blocks its own requests; only a new validation can lift that.
        if case .invalid? = state.withLock({ $0.keyValidation }) {
            throw .transport(code: -1, message: "WarrantyLife requests are blocked locally: the developer API key is invalid.")
        }
        var headers = extra
        if let apiKey { headers["X-WL-Developer-Key"] = apiKey }
        if let login = state.withLock({ $0.login }) {
            headers["Authorization"] = "Basic " + Data("\(login.identity):\(login.token)".utf8).base64EncodedString()
        }
        var payload = body
        if let json {
            headers["Content-Type"] = "application/json"
            do { payload = try JSONEncoder().encode(json) } catch { throw .encoding(String(describing: error)) }
        }
        return try await http.send(ClientRequest(method: method, path: base + path, query: query, headers: headers, body: payload))
    }

    /// The `data` of a `{data}` envelope when the status is `expected`.
    func data(_ response: ClientResponse, _ expected: Int) throws(UnderstudyClientError) -> AnyJSON {
        guard response.status == expected else { throw .unexpectedStatus(response.status, body: response.text) }
        return try response.json()["data"] ?? .null
    }

    func decode<T: Decodable>(_ value: AnyJSON, as type: T.Type) throws(UnderstudyClientError) -> T {
        do { return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value)) } catch {
            throw .decoding(type: String(describing: T.self), status: 200, body: String(describing: value), reason: String(describing: error))
        }
    }

    func withRaw<T: Decodable>(_ value: AnyJSON, as type: T.Type) throws(UnderstudyClientError) -> T {
        guard case .object(var members) = value else { return try decode(value, as: T.self) }
        members["raw"] = value
        return try decode(.object(members), as: T.self)
    }

    // MARK: Key validation and account

    /// API-key validation as `build(...)` runs it: 401 → invalid; anything else failing → unavailable.
    public func validateAPIKey(timeout: TimeInterval? = nil) async -> WarrantyLifeKeyValidation {
        let result = await runKeyValidation(timeout: timeout)
        state.withLock { $0.keyValidation = result }
        return result
    }

    func runKeyValidation(timeout: TimeInterval?) async -> WarrantyLifeKeyValidation {
        guard let apiKey, !apiKey.isEmpty else { return .invalid(message: "Empty developer API key.") }
        var req = ClientRequest(method: "GET", path: base + "/developer-keys/validate", headers: ["X-WL-Developer-Key": apiKey])
        req.timeout = timeout
        do {
            let response = try await http.send(req)
            if response.status == 200, let data = try? response.json()["data"] { return .valid(name: data["name"]?.string, environment: data["environment"]?.string) }
            let message = (try? response.decode(WarrantyLifeAPIError.self)).flatMap { $0.errorMessage } ?? response.text
            return response.status == 401 ? .invalid(message: message) : .unavailable(message: message, statusCode: response.status)
        } catch {
            return .unavailable(message: error.description, statusCode: -1)
        }
    }

    /// Whether an account exists for `email` and is activated (`emailRegisteredCheck(email:)`).
    public func emailRegisteredCheck(email: String) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/auth/activated-account-check", query: [("email", email)]), 200)
    }

    /// Asks for a password-reset mail (`recoverLostPassword(email:)`); it lands in the project's outbox.
    public func recoverLostPassword(email: String) async throws(UnderstudyClientError) {
        _ = try data(try await request("POST", "/auth/recover", json: ["email": .string(email)]), 202)
    }

    /// `getTokenViaUserPassword(username:password:)`: form-encoded like the 2022 client; 202 stores the session.
    @discardableResult
    public func getTokenViaUserPassword(username: String, password: String) async throws(UnderstudyClientError) -> WarrantyLifeLoginResponse {
        let form = "password=\(ClientHTTP.encode(password))&username=\(ClientHTTP.encode(username))"
        let response = try await request("POST", "/auth/token", body: Data(form.utf8), headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"])
        let login = try decode(try data(response, 202), as: WarrantyLifeLoginResponse.self)
        state.withLock { $0.login = login }
        return login
    }

    /// `registerNewUser(user:)` (`WLRegisterNewUserModel` fields); 201 logs the new user in.
    @discardableResult
    public func registerNewUser(user: [String: AnyJSON]) async throws(UnderstudyClientError) -> WarrantyLifeLoginResponse {
        let login = try decode(try data(try await request("POST", "/auth/user", json: .object(user)), 201), as: WarrantyLifeLoginResponse.self)
        state.withLock { $0.login = login }
        return login
    }

    /// `logout()`: local only (no request), keeps the device identity.
    public func logout() { state.withLock { $0.login = nil; $0.ssr = false; $0.ssd = false; $0.tradeIn = false; $0.warranty = nil } }

    /// The logged-in user's account (`getMe()`).
    public func getMe() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/whoami"), 200) }

    /// Countries and states the host offers in its forms (`getAppConfig()`).
    public func getAppConfig() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/app-config"), 200) }

    // MARK: Voucher, item, device

    /// `getVoucherByVoucherCode(voucherCode:isPlanTransfer:activeWarrantiesInCurrentDevice:)`; stores the voucher.
    @discardableResult
    public func getVoucherByVoucherCode(voucherCode: String, isPlanTransfer: Bool = false, activeWarrantiesInCurrentDevice: Int = 0) async throws(UnderstudyClientError) -> WarrantyLifeVoucher {
        let response = try await request("GET", "/vouchers/\(ClientHTTP.encode(voucherCode))",
                                         query: [("isPlanTransfer", String(isPlanTransfer)), ("activeWarrantiesInCurrentDevice", String(activeWarrantiesInCurrentDevice)), ("deviceId", deviceID)])
        let voucher = try withRaw(try data(response, 200), as: WarrantyLifeVoucher.self)
        state.withLock { $0.voucher = voucher }
        return voucher
    }

    /// The public detail of this device's item, without a login (`getItemByDeviceIdPublic()`).
    public func getItemByDeviceIdPublic() async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/devices", query: [("deviceId", deviceID)]), 200)
    }

    /// `getItemByDeviceID()`; stores the item id.
    @discardableResult
    public func getItemByDeviceID() async throws(UnderstudyClientError) -> AnyJSON {
        let item = try data(try await request("GET", "/items", query: [("deviceId", deviceID)]), 200)
        state.withLock { $0.itemID = item["id"]?.string }
        return item
    }

    /// Create item (registration stage 25); 201 new or 200 already owned.
    @discardableResult
    public func createItem(model: String, mpn: String, imei: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        var body: [String: AnyJSON] = ["deviceId": .string(deviceID), "categoryId": "95", "manufacturerName": "Apple", "model": .string(model), "mpn": .string(mpn)]
        if let imei { body["imei"] = .string(imei) }
        let response = try await request("POST", "/items", json: .object(body))
        let item = try data(response, response.status == 200 ? 200 : 201)
        state.withLock { $0.itemID = item["id"]?.string }
        return item
    }

    /// `createSensorEvent(itemId:body:)`: 202 `{sensorEventId}`.
    public func createSensorEvent(itemId: String, body: [String: AnyJSON]) async throws(UnderstudyClientError) -> String {
        let payload = try data(try await request("PUT", "/items/\(itemId)", json: .object(body)), 202)
        guard let id = payload["sensorEventId"]?.string else { throw .decoding(type: "sensorEventId", status: 202, body: String(describing: payload), reason: "missing") }
        return id
    }

    /// Registers the item's push token (`updateFCMToken(itemId:fcmToken:)`); silent pushes then appear in the outbox.
    public func updateFCMToken(itemId: String, fcmToken: String) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("PUT", "/items/\(itemId)/notification-token", json: ["notificationToken": .string(fcmToken), "deviceId": .string(deviceID), "platform": "ios"]), 200)
    }

    /// `uploadSensorReadings(...)`: gzip JSON array, `Content-Encoding: gzip`, no `Content-Type` (as the 2022 client).
    public func uploadSensorReadings(itemId: String, sensorEventId: String, readings: [AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON {
        let json: Data
        do { json = try JSONEncoder().encode(AnyJSON.array(readings)) } catch { throw .encoding(String(describing: error)) }
        return try data(try await request("POST", "/items/\(itemId)/events/\(sensorEventId)/readings", body: GzipStored.wrap(json), headers: ["Content-Encoding": "gzip"]), 201)
    }

    /// Sensor audio upload (raw bytes).
    public func uploadSensorAudio(itemId: String, sensorEventId: String, createdAt: String, audio: Data) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("POST", "/items/\(itemId)/clips/sound/\(sensorEventId)", query: [("createdAt", createdAt)], body: audio,
                                   headers: ["Content-Type": "audio/m4a"]), 201)
    }

    /// `createItemDiagnosticReport(...)`: 201 `{id}`.
    public func createItemDiagnosticReport(itemId: String, body: [String: AnyJSON]) async throws(UnderstudyClientError) -> String {
        let payload = try data(try await request("POST", "/items/\(itemId)/diagnostics", json: .object(body)), 201)
        return payload["id"]?.string ?? ""
    }

    /// `uploadImageForItem`/`uploadImageForReference`/receipt: multipart part `image`, filename of 9 digits, `image/jpg`.
    public func uploadImage(itemId: String, diagnosticId: String, kind: String, image: Data) async throws(UnderstudyClientError) -> AnyJSON {
        let boundary = "alamofire.boundary.\(UUID().uuidString.prefix(16).lowercased())"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"\(Int.random(in: 100_000_000...999_999_999))\"\r\nContent-Type: image/jpg\r\n\r\n".utf8)
        body.append(image)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try data(try await request("POST", "/items/\(itemId)/diagnostics/\(diagnosticId)/images/\(kind)", body: body,
                                          headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"]), 201)
    }

    // MARK: registerDevice

    /// `registerDevice(stateHandler:)`: item → sensor event → readings + audio → diagnostics → images, reusing
    /// stages that already succeeded (same `eventAt`, same diagnostic hash, same image content + diagnostic).
    /// Readings and images retry transient failures (-1, 408, 429, 500, 502, 503, 504) up to 4 attempts.
    public func registerDevice(_ data: WarrantyLifeRegistrationData) async -> [WarrantyLifeRegistrationState] {
        var states: [WarrantyLifeRegistrationState] = [.submitted]
        guard data.imei?.isEmpty == false else { return states + [.validationError("missingIMEI")] }
        guard !data.readings.isEmpty else { return states + [.validationError("missingSensorTestData")] }
        if state.withLock({ $0.voucher?.receiptRequired ?? false }), !data.images.contains(where: { $0.kind == "receipt" }) {
            return states + [.validationError("missingReceiptImage")]
        }
        do {
            var itemID = state.withLock { $0.itemID }
            if itemID == nil {
                do { try await getItemByDeviceID() } catch .unexpectedStatus(404, _) { try await createItem(model: data.model, mpn: data.mpn, imei: data.imei) }
                itemID = state.withLock { $0.itemID }
            }
            guard let itemID else { return states + [.uploadError(message: "No item", code: -1)] }
            states.append(.progress(25))
            var eventID = state.withLock { $0.eventAt == data.eventAt ? $0.sensorEventID : nil }
            if eventID == nil {
                let id = try await createSensorEvent(itemId: itemID, body: ["eventAt": .string(data.eventAt), "sensorEventType": 1111, "volumeSetting": 50,
                                                                             "sensorTestId": "3", "deviceId": .string(deviceID), "dropJsVersion": "2.0.22"])
                state.withLock { $0.eventAt = data.eventAt; $0.sensorEventID = id; $0.readingsUploaded = false; $0.audioUploaded = false }
                eventID = id
            }
            guard let eventID else { return states }
            states.append(.progress(50))
            if !state.withLock({ $0.readingsUploaded }) {
                _ = try await retrying { () async throws(UnderstudyClientError) in try await self.uploadSensorReadings(itemId: itemID, sensorEventId: eventID, readings: data.readings) }
                state.withLock { $0.readingsUploaded = true }
            }
            if let audio = data.audio, !state.withLock({ $0.audioUploaded }) {
                _ = try await uploadSensorAudio(itemId: itemID, sensorEventId: eventID, createdAt: data.eventAt, audio: audio)
                state.withLock { $0.audioUploaded = true }
            }
            states.append(.progress(75))
            var report = data.diagnostic
            if let imei = data.imei { report["imei"] = .string(imei) }
            report["model"] = .string(data.model); report["mpn"] = .string(data.mpn); report["sensorTestSensorEventId"] = .string(eventID)
            // The SDK compares SHA-256 digests of the sorted JSON; comparing the sorted bytes themselves is the same test.
            let sorted = JSONEncoder(); sorted.outputFormatting = [.sortedKeys]
            let hash = (try? sorted.encode(AnyJSON.object(report))) ?? Data()
            var diagnosticID = state.withLock { $0.diagnosticHash == hash ? $0.diagnosticID : nil }
            if diagnosticID == nil {
                let id = try await createItemDiagnosticReport(itemId: itemID, body: report)
                state.withLock { $0.diagnosticHash = hash; $0.diagnosticID = id }
                diagnosticID = id
            }
            guard let diagnosticID else { return states }
            for image in data.images {
                // Content and diagnostic id together, as the SDK's SHA-256 fingerprint covers both.
                let fingerprint = Data(diagnosticID.utf8) + Data([0]) + image.data
                if state.withLock({ $0.uploadedImages[image.kind] == fingerprint }) { continue }
                _ = try await retrying { () async throws(UnderstudyClientError) in try await self.uploadImage(itemId: itemID, diagnosticId: diagnosticID, kind: image.kind, image: image.data) }
                state.withLock { $0.uploadedImages[image.kind] = fingerprint }
            }
            states.append(.progress(100))
            states.append(.success)
        } catch {
            let api = WarrantyLifeAPIError(error)
            states.append(.uploadError(message: api?.errorMessage ?? error.description, code: api?.errorCode ?? -1))
        }
        return states
    }

    static let retryable: Set<Int> = [0, 408, 429, 500, 502, 503, 504]

    func retrying<T: Sendable>(_ body: @Sendable () async throws(UnderstudyClientError) -> T) async throws(UnderstudyClientError) -> T {
        var attempt = 0
        while true {
            do { return try await body() } catch {
                let status: Int
                switch error {
                case .unexpectedStatus(let code, _): status = code
                case .transport: status = 0
                default: throw error
                }
                guard Self.retryable.contains(status), attempt < 3 else { throw error }
                let delay = attempt < retryDelays.count ? retryDelays[attempt] : 0
                if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
                attempt += 1
            }
        }
    }

    /// `syncDropData`: a pending drop capture as a Sensor Event (type 1200, volume -1) followed by its readings.
    /// Returns whether both uploads succeeded, as the SDK's completion does.
    public func syncDropData(eventAt: String, readings: [AnyJSON]) async -> Bool {
        guard let itemID = state.withLock({ $0.itemID }) else { return false }
        do {
            let eventID = try await createSensorEvent(itemId: itemID, body: ["eventAt": .string(eventAt), "sensorEventType": 1200, "volumeSetting": -1,
                                                                               "deviceId": .string(deviceID), "dropJsVersion": "2.0.22"])
            _ = try await retrying { () async throws(UnderstudyClientError) in try await self.uploadSensorReadings(itemId: itemID, sensorEventId: eventID, readings: readings) }
            return true
        } catch {
            return false
        }
    }

    // MARK: Insights, warranties, Smart Saver

    /// `getInsightData()`: nil when the server has no data.
    public func getInsightData() async throws(UnderstudyClientError) -> AnyJSON? {
        let value = try data(try await request("GET", "/insights", query: [("deviceId", deviceID)]), 200)
        // Spelled out: AnyJSON is nil-literal expressible, so a bare `nil` here would become `.some(.null)`.
        if case .null = value { return Optional<AnyJSON>.none }
        return value
    }

    /// `getAllWarranties()`: also restores coverage and Smart Saver state, as the foreground refresh does.
    public func getAllWarranties() async throws(UnderstudyClientError) -> [WarrantyLifeWarranty] {
        let list = try data(try await request("GET", "/warranties"), 200).array ?? []
        var warranties: [WarrantyLifeWarranty] = []
        for value in list { warranties.append(try withRaw(value, as: WarrantyLifeWarranty.self)) }
        let itemID = state.withLock { $0.itemID }
        let current = warranties.last { $0.hasActiveCoverage && (itemID == nil || $0.itemId == itemID) }
        state.withLock { s in
            s.warranty = current
            if let current { s.ssr = current.ssr; s.ssd = current.ssd; s.tradeIn = current.tradeIn }
        }
        return warranties
    }

    /// The SDK's foreground refresh: logged in, `getItemByDeviceID` → `getAllWarranties`; logged out,
    /// `getItemByDeviceIdPublic`. Returns whether the device has active coverage.
    @discardableResult
    public func foregroundRefresh() async throws(UnderstudyClientError) -> Bool {
        if isUserLoggedIn {
            do { try await getItemByDeviceID() } catch .unexpectedStatus(404, _) { state.withLock { $0.itemID = nil } }
            _ = try await getAllWarranties()
            return hasActiveCoverage
        }
        do {
            return try await getItemByDeviceIdPublic()["hasActiveCoverage"]?.bool ?? false
        } catch .unexpectedStatus(404, _) {
            return false
        }
    }

    /// `canProcessDropDetection()`: logged in, active coverage, an offered option opted in, permissions granted.
    public func canProcessDropDetection(permissionsGranted: Bool = true) -> Bool {
        state.withLock { s in
            guard s.login != nil, let warranty = s.warranty, warranty.hasActiveCoverage, permissionsGranted else { return false }
            return (s.ssr && warranty.ssrOffered) || (s.ssd && warranty.ssdOffered) || (s.tradeIn && warranty.tipOffered)
        }
    }

    /// `hasActiveCoverage()` (after `getAllWarranties` or a warranty write).
    public var hasActiveCoverage: Bool { state.withLock { $0.warranty?.hasActiveCoverage ?? false } }

    func storeWarranty(_ value: AnyJSON) throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        let warranty = try withRaw(value, as: WarrantyLifeWarranty.self)
        state.withLock { $0.warranty = warranty; $0.voucher = nil }
        return warranty
    }

    /// `createWarranty(model:)` (`WLWarrantyRequest` fields); the selected Smart Saver options are sent as Sensor Events afterwards, as the SDK does.
    @discardableResult
    public func createWarranty(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        var body = model
        if let code = state.withLock({ $0.voucher?.voucherCode }), body["voucherCode"] == nil { body["voucherCode"] = .string(code) }
        if body["deviceId"] == nil { body["deviceId"] = .string(deviceID) }
        let warranty = try storeWarranty(try data(try await request("POST", "/warranties", json: .object(body)), 201))
        try await sendSelectedSmartSaver()
        return try await refreshedWarranty(warranty.id) ?? warranty
    }

    /// `updateWarranty(model:)`: the transfer/update path, on the looked-up voucher's warranty id.
    @discardableResult
    public func updateWarranty(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        guard let id = state.withLock({ $0.voucher?.warrantyId ?? $0.warranty?.id }) else { throw .encoding("no voucher looked up") }
        var body = model
        if body["deviceId"] == nil { body["deviceId"] = .string(deviceID) }
        let warranty = try storeWarranty(try data(try await request("PUT", "/warranties/\(id)", json: .object(body)), 200))
        try await sendSelectedSmartSaver()
        return try await refreshedWarranty(warranty.id) ?? warranty
    }

    func refreshedWarranty(_ id: String) async throws(UnderstudyClientError) -> WarrantyLifeWarranty? {
        let selected = state.withLock { $0.ssr || $0.ssd || $0.tradeIn }
        return selected ? try await getWarrantyById(warrantyId: id) : nil
    }

    /// One warranty with its coverage and Smart Saver state (`getWarrantyById(warrantyId:)`).
    public func getWarrantyById(warrantyId: String) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        try withRaw(try data(try await request("GET", "/warranties/\(warrantyId)"), 200), as: WarrantyLifeWarranty.self)
    }

    /// Sets the reward the user chose, within the plan's maximum (`updateWarrantyById(warrantyId:rewardAmount:)`).
    public func updateWarrantyById(warrantyId: String, rewardAmount: Double) async throws(UnderstudyClientError) -> WarrantyLifeWarranty {
        try withRaw(try data(try await request("PATCH", "/warranties/\(warrantyId)", json: ["rewardAmount": .double(rewardAmount)]), 200), as: WarrantyLifeWarranty.self)
    }

    func sendSelectedSmartSaver() async throws(UnderstudyClientError) {
        let (itemID, ssr, ssd, tradeIn) = state.withLock { ($0.itemID, $0.ssr, $0.ssd, $0.tradeIn) }
        guard let itemID, ssr || ssd || tradeIn else { return }
        var selected: [String: AnyJSON] = [:]
        if ssr { selected["ssr"] = true }
        if ssd { selected["ssd"] = true }
        if tradeIn { selected["tradeIn"] = true }
        _ = try await createSensorEvent(itemId: itemID, body: ["sensorEventType": 1300, "deviceId": .string(deviceID), "smartSaver": .object(selected)])
    }

    /// Whether a registration or transfer flow is in progress (a voucher looked up, no warranty finalised yet).
    public var isRegistrationInProgress: Bool { state.withLock { $0.voucher != nil } }

    /// `setSSR(_:)`, `setSSD(_:)`, `setTradeIn(_:)` (`program`: SSR, SSD, TRADE_IN). During registration only the
    /// selection is saved; afterwards the SDK's checks run in order and the opt-in is sent as a Sensor Event.
    /// Nil means `.success`.
    public func setSmartSaver(_ program: String, _ enabled: Bool, permissionsGranted: Bool = true) async -> WarrantyLifeOptInError? {
        func save(_ s: inout State) {
            switch program { case "SSR": s.ssr = enabled; case "SSD": s.ssd = enabled; default: s.tradeIn = enabled }
        }
        if isRegistrationInProgress { state.withLock { save(&$0) }; return nil }
        guard isUserLoggedIn else { return .notLoggedIn }
        let warranty = state.withLock { $0.warranty }
        guard let warranty, warranty.hasActiveCoverage else { return .noActiveCoverage }
        if enabled {
            let offered = program == "SSR" ? warranty.ssrOffered : program == "SSD" ? warranty.ssdOffered : warranty.tipOffered
            guard offered else { return .optionNotOffered(program) }
            guard permissionsGranted else { return .requiredPermissionsNotGranted("Motion && (Notification || LocationAlways)") }
        }
        guard let itemID = state.withLock({ $0.itemID }) else { return .sensorEventFailed("No item", errorCode: 0) }
        let key = program == "SSR" ? "ssr" : program == "SSD" ? "ssd" : "tradeIn"
        do {
            _ = try await createSensorEvent(itemId: itemID, body: ["sensorEventType": 1300, "deviceId": .string(deviceID), "smartSaver": [key: .bool(enabled)]])
        } catch {
            let api = WarrantyLifeAPIError(error)
            return .sensorEventFailed(api?.errorMessage ?? error.description, errorCode: api?.errorCode ?? -1)
        }
        state.withLock { save(&$0) }
        return nil
    }

    // MARK: Content

    /// Sends the user's survey answers (`postSurvey(body:)`).
    public func postSurvey(body: [String: AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("POST", "/surveys", json: .object(body)), 201) }
    /// The questions of survey `version`.
    public func getSurvey(version: Int) async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/surveys", query: [("surveyVersion", String(version))]), 200) }
    /// Sends the user's feedback (`postFeedback(model:)`).
    public func postFeedback(model: [String: AnyJSON]) async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("POST", "/feedback", json: .object(model)), 201) }
    /// The registration offers page for a location, as the HTML the SDK shows (`fetchOffers(country:state:zip:city:)`).
    public func fetchOffers(country: String, state: String, zip: String, city: String) async throws(UnderstudyClientError) -> String {
        let response = try await request("GET", "/offers/registration", query: [("simplify", ""), ("city", city), ("country", country), ("state", state), ("zip", zip)])
        try response.expect(200)
        return response.text
    }
    /// The offers available in a country and state, as JSON.
    public func getOffers(country: String? = nil, state: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        var query: [(String, String)] = []
        if let country { query.append(("country", country)) }
        if let state { query.append(("state", state)) }
        return try data(try await request("GET", "/offers", query: query), 200)
    }
    /// The sensor tests the host should run before registering.
    public func getSensorTests() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/sensor-tests"), 200) }
    /// Diagnostic configuration of a model.
    public func getDiagnosticConfig(model: String) async throws(UnderstudyClientError) -> AnyJSON {
        try data(try await request("GET", "/diagnostic-config", query: [("model", model)]), 200)
    }
}

/// gzip without compression (stored deflate blocks): a valid stream the server must inflate,
/// built without zlib because the client module links no C library.
enum GzipStored {
    static func wrap(_ input: Data) -> Data {
        var out = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255])
        let bytes = [UInt8](input)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + count >= bytes.count ? 1 : 0
            out.append(final)
            out.append(UInt8(count & 0xff)); out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xff)); out.append(UInt8((~count >> 8) & 0xff))
            out.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        let crc = crc32(bytes)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((crc >> UInt32(shift)) & 0xff)) }
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((size >> UInt32(shift)) & 0xff)) }
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
