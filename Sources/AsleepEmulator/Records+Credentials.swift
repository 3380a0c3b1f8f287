import EmulatorCore
import Foundation
import Storage

/// An API key row (`asleep_api_keys`): each key is its own customer unless grouped.
struct APIKeyRecord: Sendable, Equatable, RowDecodable {
    var apiKey: String
    var project: ProjectID
    var customer: String
    var state: CredentialState
    var productBilling: Bool
    var createdAt: Date

    init(row: Row) throws {
        apiKey = try row.decode("api_key")
        project = try row.decode("project_id")
        customer = try row.decode("customer")
        state = try row.decode("state", as: CredentialState.self)
        productBilling = try row.decode("product_billing")
        createdAt = try row.epochSeconds("created_at")
    }
}

/// An appId/appSecret row (`asleep_apps`).
struct AppRecord: Sendable, Equatable, RowDecodable {
    var appID: String
    var project: ProjectID
    var appSecret: String
    var customer: String
    var state: CredentialState
    var productBilling: Bool
    var createdAt: Date

    init(row: Row) throws {
        appID = try row.decode("app_id")
        project = try row.decode("project_id")
        appSecret = try row.decode("app_secret")
        customer = try row.decode("customer")
        state = try row.decode("state", as: CredentialState.self)
        productBilling = try row.decode("product_billing")
        createdAt = try row.epochSeconds("created_at")
    }
}

/// An access or refresh token row (`asleep_tokens`).
struct TokenRecord: Sendable, Equatable, RowDecodable {
    var token: String
    var project: ProjectID
    var kind: TokenKind
    var appID: String
    var expiresAt: Date

    init(row: Row) throws {
        token = try row.decode("token")
        project = try row.decode("project_id")
        kind = try row.decode("kind", as: TokenKind.self)
        appID = try row.decode("app_id")
        expiresAt = try row.epochSeconds("expires_at")
    }
}

/// What the project state cache keeps for a bearer token: the token and the app it belongs to (nil
/// when the app is gone, which the service answers as 401).
struct BearerCredential: Sendable, Equatable {
    var token: TokenRecord
    var app: AppRecord?
}

/// A registered product row (`asleep_products`).
struct ProductRecord: Sendable, Equatable, RowDecodable {
    var productID: String
    var project: ProjectID
    var customer: String
    var productKey: String
    var model: String
    var identifierType: String
    var identifierValue: String
    var revoked: Bool
    var createdAt: Date

    init(row: Row) throws {
        productID = try row.decode("product_id")
        project = try row.decode("project_id")
        customer = try row.decode("customer")
        productKey = try row.decode("product_key")
        model = try row.decode("model")
        identifierType = try row.decode("identifier_type")
        identifierValue = try row.decode("identifier_value")
        revoked = try row.decode("revoked")
        createdAt = try row.epochSeconds("created_at")
    }
}

/// A webhook delivery row (`asleep_webhooks`).
struct WebhookRecord: Sendable, Equatable, RowDecodable {
    var id: String
    var project: ProjectID
    var outboxID: Int
    var sessionID: String
    var event: String
    var url: String
    var apiKey: String?
    var userID: String
    /// The JSON body as sent.
    var body: String
    var status: WebhookStatus
    var attempts: Int
    var maxAttempts: Int
    var lastStatus: Int?
    var lastError: String?
    var createdAt: Date

    init(row: Row) throws {
        id = try row.decode("id")
        project = try row.decode("project_id")
        outboxID = try row.decode("outbox_id")
        sessionID = try row.decode("session_id")
        event = try row.decode("event")
        url = try row.decode("url")
        apiKey = try row.decodeIfPresent("api_key")
        userID = try row.decode("user_id")
        body = try row.decode("body")
        status = try row.decode("status", as: WebhookStatus.self)
        attempts = try row.decode("attempts")
        maxAttempts = try row.decode("max_attempts")
        lastStatus = try row.decodeIfPresent("last_status")
        lastError = try row.decodeIfPresent("last_error")
        createdAt = try row.epochSeconds("created_at")
    }
}
