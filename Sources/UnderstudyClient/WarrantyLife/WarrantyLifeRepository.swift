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
    let wait: (@Sendable (Double) async throws -> Void)?

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

    init(http: ClientHTTP, apiKey: String?, deviceID: String, base: String, retryDelays: [Double], wait: (@Sendable (Double) async throws -> Void)? = nil) {
        self.http = http
        self.apiKey = apiKey
        self.deviceID = deviceID
        self.base = base
        self.retryDelays = retryDelays
        self.wait = wait
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

    func request(
        _ method: String, _ path: String, query: [(String, String)] = [], json: AnyJSON? = nil, body: Data? = nil,
        headers extra: [String: String] = [:]
    ) async throws(UnderstudyClientError) -> ClientResponse {
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
            // A 200 whose body is not `{data: …}` is, for the SDK, a service it cannot use: unavailable.
            if response.status == 200, let data = try? response.json()["data"] { return .valid(name: data["name"]?.string, environment: data["environment"]?.string) }
            // A failure body that is not WarrantyLife's envelope (a proxy page, a fault) is shown as it came.
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
    public func logout() {
        state.withLock {
            $0.login = nil; $0.ssr = false; $0.ssd = false; $0.tradeIn = false; $0.warranty = nil
        }
    }

    /// The logged-in user's account (`getMe()`).
    public func getMe() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/whoami"), 200) }

    /// Countries and states the host offers in its forms (`getAppConfig()`).
    public func getAppConfig() async throws(UnderstudyClientError) -> AnyJSON { try data(try await request("GET", "/app-config"), 200) }
}
