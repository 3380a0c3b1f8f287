import Foundation

/// What `initAsleepConfig` hands the app: who is tracked and with which credentials.
public struct AsleepConfig: Sendable, Equatable {
    /// The API key (`x-api-key`), or nil when an access token is used.
    public var apiKey: String?
    /// A 3.3 access token (`Authorization: Bearer`), when appId/appSecret were used.
    public var accessToken: String?
    /// The tracked user's id (`G-…`), sent as `x-user-id`.
    public var userId: String
    /// The product credential from `setup(productInfo:)`, sent as `x-product-key`.
    public var productKey: String?
    /// The device's IANA zone, sent as `timezone`.
    public var timezone: String?
    /// The app's nickname, recorded as the session's `service`.
    public var service: String?
    /// The `http(s)` URL that receives this session's `INFERENCE_COMPLETE` and `SESSION_COMPLETE` webhooks.
    public var callbackUrl: String?

    /// A config as `initAsleepConfig` would produce it, for calls that need no server round trip first.
    public init(
        apiKey: String? = nil, accessToken: String? = nil, userId: String, productKey: String? = nil, timezone: String? = nil,
        service: String? = nil, callbackUrl: String? = nil
    ) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.userId = userId
        self.productKey = productKey
        self.timezone = timezone
        self.service = service
        self.callbackUrl = callbackUrl
    }
}
