import Foundation

extension Understudy {
    /// The Asleep SDK calls (setup, initAsleepConfig, tracking, reports) and its control plane.
    public var asleep: AsleepClient { AsleepClient(http: http, admin: admin) }
}

/// Talks to Understudy's Asleep emulation the way the Asleep SDK 3.3 does, method for method.
public struct AsleepClient: Sendable {
    let http: ClientHTTP
    let admin: AdminClient

    /// The User-Agent sent (the real service requires one).
    public static let userAgent = "AsleepSDK/3.3.0 (Understudy client)"

    private struct Envelope<T: Decodable>: Decodable {
        var detail: String
        var result: T
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Sends an SDK request below `/asleep` and decodes `result` when the status is `expected`.
    func call<T: Decodable>(
        _ method: String, _ path: String, config: AsleepConfig? = nil, apiKey: String? = nil, headers: [String: String] = [:],
        query: [(String, String)] = [], body: Data? = nil, contentType: String? = "application/json",
        expect expected: Int, as type: T.Type = T.self
    ) async throws(UnderstudyClientError) -> T {
        let response = try await raw(method, path, config: config, apiKey: apiKey, headers: headers, query: query, body: body, contentType: contentType)
        guard response.status == expected else { throw .unexpectedStatus(response.status, body: response.text) }
        do {
            return try Self.decoder().decode(Envelope<T>.self, from: response.body).result
        } catch {
            throw .decoding(type: String(describing: T.self), status: response.status, body: response.text, reason: String(describing: error))
        }
    }

    /// Sends an SDK request below `/asleep` and returns the raw response (any status).
    public func raw(
        _ method: String, _ path: String, config: AsleepConfig? = nil, apiKey: String? = nil, headers extra: [String: String] = [:],
        query: [(String, String)] = [], body: Data? = nil, contentType: String? = "application/json"
    ) async throws(UnderstudyClientError) -> ClientResponse {
        var headers: [String: String] = ["User-Agent": Self.userAgent]
        if let key = apiKey ?? config?.apiKey { headers["x-api-key"] = key }
        if let token = config?.accessToken { headers["Authorization"] = "Bearer \(token)" }
        if let config {
            headers["x-user-id"] = config.userId
            if let product = config.productKey { headers["x-product-key"] = product }
            if let zone = config.timezone { headers["timezone"] = zone }
        }
        if body != nil, let contentType { headers["Content-Type"] = contentType }
        for (name, value) in extra { headers[name] = value }
        return try await http.send(ClientRequest(method: method, path: "/asleep" + path, query: query, headers: headers, body: body))
    }

    /// A JSON body without its null members (the SDK omits unset fields).
    private static func json(_ value: [String: AnyJSON]) throws(UnderstudyClientError) -> Data {
        try encode(AnyJSON.object(value.filter { !$0.value.isNull }))
    }

    private static func encode(_ value: some Encodable) throws(UnderstudyClientError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .encoding(String(describing: error)) }
    }

    // MARK: Setup and users

    /// `Asleep.setup(apiKey:productInfo:)`: registers the device (`POST /ai/v1/products`); the
    /// same ProductInfo again returns the same credential.
    public func setup(apiKey: String, productInfo: AsleepProductInfo) async throws(UnderstudyClientError) -> AsleepProductRegistration {
        let body = try Self.json([
            "model": .string(productInfo.model), "identifier_type": .string(productInfo.identifierType),
            "identifier_value": .string(productInfo.identifierValue),
        ])
        let response = try await raw("POST", "/ai/v1/products", apiKey: apiKey, body: body)
        guard response.status == 200 || response.status == 201 else { throw .unexpectedStatus(response.status, body: response.text) }
        do { return try Self.decoder().decode(Envelope<AsleepProductRegistration>.self, from: response.body).result } catch {
            throw .decoding(type: "AsleepProductRegistration", status: response.status, body: response.text, reason: String(describing: error))
        }
    }

    /// `Asleep.initAsleepConfig(apiKey:userId:)`: creates a user when `userId` is nil, else validates it.
    public func initAsleepConfig(
        apiKey: String, userId: String? = nil, productKey: String? = nil, timezone: String? = nil,
        service: String? = nil, callbackUrl: String? = nil, metadata: AsleepUserMetadata? = nil
    ) async throws(UnderstudyClientError) -> AsleepConfig {
        var config = AsleepConfig(apiKey: apiKey, userId: userId ?? "", productKey: productKey, timezone: timezone, service: service, callbackUrl: callbackUrl)
        if let userId {
            _ = try await user(config: config, userId: userId)
            return config
        }
        struct Created: Decodable { var userId: String }
        var body: Data?
        if let metadata { body = try Self.encode(["metadata": AsleepSnakeMetadata(metadata)]) }
        var headers: [String: String] = [:]
        if let productKey { headers["x-product-key"] = productKey }
        config.userId = try await call("POST", "/ai/v1/users", apiKey: apiKey, headers: headers, body: body, expect: 201, as: Created.self).userId
        return config
    }

    /// `initAsleepConfig(appId:appSecret:…)`: issues an access token, then creates or validates the user with it.
    public func initAsleepConfig(
        appId: String, appSecret: String, userId: String? = nil, productKey: String? = nil,
        timezone: String? = nil
    ) async throws(UnderstudyClientError) -> (config: AsleepConfig, tokens: AsleepTokens) {
        let tokens = try await issueToken(appId: appId, appSecret: appSecret)
        var config = AsleepConfig(accessToken: tokens.accessToken, userId: userId ?? "", productKey: productKey, timezone: timezone)
        if let userId {
            _ = try await user(config: config, userId: userId)
        } else {
            struct Created: Decodable { var userId: String }
            let response = try await raw("POST", "/ai/v1/users", config: AsleepConfig(accessToken: tokens.accessToken, userId: ""), headers: ["x-user-id": ""])
            guard response.status == 201 else { throw .unexpectedStatus(response.status, body: response.text) }
            do { config.userId = try Self.decoder().decode(Envelope<Created>.self, from: response.body).result.userId } catch {
                throw .decoding(type: "Created", status: response.status, body: response.text, reason: String(describing: error))
            }
        }
        return (config, tokens)
    }

    /// `POST /customer/v1/app/token`.
    public func issueToken(appId: String, appSecret: String) async throws(UnderstudyClientError) -> AsleepTokens {
        try await call("POST", "/customer/v1/app/token", body: Self.json(["app_id": .string(appId), "app_secret": .string(appSecret)]), expect: 200)
    }

    /// `POST /customer/v1/app/refresh`.
    public func refreshToken(_ refreshToken: String) async throws(UnderstudyClientError) -> AsleepTokens {
        try await call("POST", "/customer/v1/app/refresh", body: Self.json(["refresh_token": .string(refreshToken)]), expect: 200)
    }

    /// `GET /ai/v1/users/{id}`.
    public func user(config: AsleepConfig, userId: String? = nil) async throws(UnderstudyClientError) -> AsleepUser {
        var plain = config
        plain.userId = ""
        return try await call("GET", "/ai/v1/users/\(ClientHTTP.encode(userId ?? config.userId))", config: plain, headers: ["x-user-id": ""], expect: 200)
    }

    /// `PUT /ai/v1/users/{id}`: replaces the metadata.
    public func updateUser(config: AsleepConfig, metadata: AsleepUserMetadata) async throws(UnderstudyClientError) -> AsleepUserMetadata {
        struct Updated: Decodable { var userId: String; var metadata: AsleepUserMetadata? }
        let body = try Self.encode(["metadata": AsleepSnakeMetadata(metadata)])
        return try await call("PUT", "/ai/v1/users/\(ClientHTTP.encode(config.userId))", config: config, body: body, expect: 200, as: Updated.self).metadata
            ?? AsleepUserMetadata()
    }

    /// `Asleep.deleteUser(config:)`: `DELETE /ai/v1/users/{id}`.
    public func deleteUser(config: AsleepConfig) async throws(UnderstudyClientError) {
        let response = try await raw("DELETE", "/ai/v1/users/\(ClientHTTP.encode(config.userId))", config: config)
        try response.expect(204)
    }

    // MARK: Tracking

    /// `startTracking` / `beginSleepTracking`: `POST /ai/v1/sessions`; returns the session id.
    public func startTracking(config: AsleepConfig, startTime: String? = nil, inferenceType: String? = nil) async throws(UnderstudyClientError) -> String {
        struct Created: Decodable { var sessionId: String }
        let body = try Self.json([
            "session_start_time": startTime.map(AnyJSON.string) ?? .null, "inference_type": inferenceType.map(AnyJSON.string) ?? .null,
            "service": config.service.map(AnyJSON.string) ?? .null, "callback_url": config.callbackUrl.map(AnyJSON.string) ?? .null,
        ])
        return try await call("POST", "/ai/v1/sessions", config: config, body: body, expect: 201, as: Created.self).sessionId
    }

    /// The SDK's 30-second upload: a multipart form with `seq_num` and the chunk as `file`.
    public func uploadChunk(
        config: AsleepConfig, sessionId: String, seqNum: Int?, chunk: Data,
        callbackUrl: String? = nil
    ) async throws(UnderstudyClientError) -> AsleepUploadResult {
        let (body, contentType) = Self.multipart(seqNum: seqNum, chunk: chunk, callbackUrl: callbackUrl ?? config.callbackUrl)
        return try await call(
            "POST", "/ai/v1/sessions/\(ClientHTTP.encode(sessionId))/upload", config: config, body: body,
            contentType: contentType, expect: 200)
    }

    /// A multipart upload body and its content type.
    public static func multipart(seqNum: Int?, chunk: Data, callbackUrl: String? = nil, boundary: String = "understudy-asleep-boundary") -> (Data, String) {
        var body = Data()
        func field(_ name: String, _ value: String) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let seqNum { field("seq_num", String(seqNum)) }
        if let callbackUrl { field("callback_url", callbackUrl) }
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(seqNum ?? 0).npy\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
        body += chunk
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    /// A small NumPy `.npy` mel-spectrogram-like chunk of about `bytes` bytes.
    public static func melChunk(bytes: Int = 1024) -> Data {
        var data = Data([0x93]) + Data("NUMPY".utf8) + Data([1, 0])
        let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(max(0, bytes - 128) / 4),), }"
        let padded = header + String(repeating: " ", count: max(0, 118 - header.count)) + "\n"
        data += Data([UInt8(padded.utf8.count & 0xff), UInt8(padded.utf8.count >> 8)]) + Data(padded.utf8)
        data += Data(repeating: 0, count: max(0, bytes - data.count))
        return data
    }

    /// `stopTracking` / `endSleepTracking`: `POST /ai/v1/sessions/{id}/close`.
    public func stopTracking(config: AsleepConfig, sessionId: String, endTime: String? = nil, unexpected: Bool = false) async throws(UnderstudyClientError) -> String {
        struct Closed: Decodable { var sessionId: String; var state: String }
        let body = try Self.json(["session_end_time": endTime.map(AnyJSON.string) ?? .null, "unexpected": unexpected ? 1 : .null])
        return try await call("POST", "/ai/v1/sessions/\(ClientHTTP.encode(sessionId))/close", config: config, body: body, expect: 200, as: Closed.self).state
    }

    // MARK: Reports

    /// `Reports.report(sessionId:)` (also real-time analysis and completion polling).
    public func report(config: AsleepConfig, sessionId: String) async throws(UnderstudyClientError) -> AsleepReport {
        try await call("GET", "/data/v3/sessions/\(ClientHTTP.encode(sessionId))", config: config, expect: 200)
    }

    /// `Reports.reports(fromDate:toDate:orderBy:offset:limit:)`.
    public func reports(
        config: AsleepConfig, fromDate: String? = nil, toDate: String? = nil, orderBy: String? = nil, offset: Int? = nil,
        limit: Int? = nil
    ) async throws(UnderstudyClientError) -> AsleepSessionList {
        var query: [(String, String)] = []
        if let fromDate { query.append(("date_gte", fromDate)) }
        if let toDate { query.append(("date_lte", toDate)) }
        if let orderBy { query.append(("order_by", orderBy)) }
        if let offset { query.append(("offset", String(offset))) }
        if let limit { query.append(("limit", String(limit))) }
        return try await call("GET", "/data/v1/sessions", config: config, query: query, expect: 200)
    }

    /// `Reports.getAverageReport(fromDate:toDate:)`.
    public func averageReport(config: AsleepConfig, fromDate: String, toDate: String) async throws(UnderstudyClientError) -> AsleepAverageReport {
        var plain = config
        plain.userId = ""
        return try await call(
            "GET", "/data/v1/users/\(ClientHTTP.encode(config.userId))/average-stats", config: plain, headers: ["x-user-id": ""],
            query: [("start_date", fromDate), ("end_date", toDate)], expect: 200)
    }

    /// `Reports.deleteReport(sessionId:)`.
    public func deleteReport(config: AsleepConfig, sessionId: String) async throws(UnderstudyClientError) {
        try await raw("DELETE", "/ai/v1/sessions/\(ClientHTTP.encode(sessionId))", config: config).expect(204)
    }

    /// Deletes all of the user's sessions.
    public func deleteAllReports(config: AsleepConfig) async throws(UnderstudyClientError) {
        try await raw("DELETE", "/ai/v1/sessions", config: config).expect(204)
    }

    // MARK: Control plane

    /// The Asleep control plane of one project.
    public func project(_ id: String) -> AsleepProjectAdmin { AsleepProjectAdmin(project: admin.project(id)) }
}

/// Encodes metadata with the wire's snake_case keys.
struct AsleepSnakeMetadata: Encodable {
    let metadata: AsleepUserMetadata
    init(_ metadata: AsleepUserMetadata) { self.metadata = metadata }
    func encode(to encoder: Encoder) throws {
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        let value = try JSONDecoder().decode(AnyJSON.self, from: json.encode(metadata))
        try value.encode(to: encoder)
    }
}
