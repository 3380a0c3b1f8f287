import EmulatorCore
import Foundation

/// Per-project Asleep behaviour set through the control plane (camelCase, every field optional so
/// a `PATCH` changes only what it names). Defaults follow the wire reference's emulator contract.
public struct AsleepSettings: Codable, Sendable, Equatable {
    /// Seconds on the project clock from CLOSED to COMPLETE (default 2; must stay under 30 for the
    /// SDK's completion polling).
    public var completionDelaySeconds: Double?
    /// Longest session before the server closes it (default 24 h).
    public var maxSessionSeconds: Double?
    /// `close` (default: a new session closes the user's OPEN one) or `reject` (409).
    public var conflictMode: String?
    /// Whether `GET /ai/v1/users/{id}` also closes the user's OPEN session (default false).
    public var terminateOnJoin: Bool?
    /// Chunks below which a complete session is `TOO_SHORT_FOR_ANALYSIS` (default 10).
    public var tooShortChunks: Int?
    /// Chunks received before real-time stages appear (default 10).
    public var realtimeChunks: Int?
    /// Chunks between `INFERENCE_COMPLETE` webhooks after seq_num 39 (default 10).
    public var inferenceIntervalChunks: Int?
    /// Plan feature: breathing stages and stats (default false).
    public var breathing: Bool?
    /// Plan feature: snoring stages and stats (default true).
    public var snoring: Bool?
    /// Strict mode: missing User-Agent → 401, missing `seq_num` → 422 (default false).
    public var strict: Bool?
    /// Status for closing an already-ended session: 404 (default) or 403.
    public var closeEndedStatus: Int?
    /// Webhook body keys: `event` (default: event/version/data) or `callback` (callback_event/…).
    public var webhookKeys: String?
    /// Delivery attempts per webhook (default 1: no retries, as the real service; up to 10 opts
    /// into retries after 1 s, 2 s, 4 s…).
    public var webhookMaxAttempts: Int?
    /// Origins (`http://127.0.0.1:3000`) webhooks may be sent to although they are on loopback, a
    /// private network or the local link. Consulted only while the server listens beyond loopback;
    /// on loopback every callback URL is delivered (default: none).
    public var webhookAllowedOrigins: [String]?
    /// Status for invalid product registrations: 422 (default) or 400.
    public var productValidationStatus: Int?
    /// Access-token lifetime in seconds (default 36000).
    public var accessTokenSeconds: Double?
    /// Refresh-token lifetime in seconds (default 14 days).
    public var refreshTokenSeconds: Double?
    /// `sleep_cycle_time` element style: `empty` (default), `numbers` or `strings`.
    public var sleepCycleTime: String?
    /// 422 bodies: `string` (default, `{"detail": "…"}`) or `list` (FastAPI's `{"detail": [{loc, msg, type}]}`).
    public var validationErrorStyle: String?

    /// The longest token lifetime (100 years): `expires_in` is an integer, and a lifetime past
    /// 64 bits of seconds cannot be one.
    static let maxTokenSeconds: Double = 3_153_600_000

    /// Empty settings (all defaults).
    public init() {}

    var completionDelay: Double { completionDelaySeconds ?? 2 }
    var maxSession: Double { maxSessionSeconds ?? 86_400 }
    var rejectsConflicts: Bool { conflictMode == "reject" }
    var tooShort: Int { tooShortChunks ?? 10 }
    var realtime: Int { realtimeChunks ?? 10 }
    var inferenceInterval: Int { inferenceIntervalChunks ?? 10 }
    var breathingEnabled: Bool { breathing ?? false }
    var snoringEnabled: Bool { snoring ?? true }
    var isStrict: Bool { strict ?? false }
    var webhookAttempts: Int { webhookMaxAttempts ?? 1 }
    /// The allowed origins, normalized as `WebhookOrigin` compares them.
    var allowedWebhookOrigins: Set<String> { Set((webhookAllowedOrigins ?? []).compactMap(WebhookOrigin.normalized)) }
    var accessTTL: Double { accessTokenSeconds ?? 36_000 }
    var refreshTTL: Double { refreshTokenSeconds ?? 14 * 86_400 }

    /// The effective settings of a project: the contract's defaults, under the configuration
    /// file's `asleep` section, under the project's stored document, under `patch` — merged as
    /// RFC 7396 layers (`SettingsDocument`), so a key set to null in a later layer falls back.
    static func resolve(configuration: JSONValue, stored: JSONValue?, patch: JSONValue? = nil) throws -> AsleepSettings {
        let defaults = try JSONValue.from(AsleepSettings().effective)
        return try SettingsDocument.resolve(AsleepSettings.self, layers: [defaults, configuration, stored ?? [:], patch ?? [:]])
    }

    /// Why these settings cannot be used, or nil.
    func validationProblem() -> String? {
        if let value = completionDelaySeconds, !(0..<30).contains(value) { return "`completionDelaySeconds` must be at least 0 and under 30." }
        if let value = maxSessionSeconds, !(value > 0) { return "`maxSessionSeconds` must be positive." }
        if let value = conflictMode, !["close", "reject"].contains(value) { return "`conflictMode` must be `close` or `reject`." }
        for (name, value) in [("tooShortChunks", tooShortChunks), ("realtimeChunks", realtimeChunks), ("inferenceIntervalChunks", inferenceIntervalChunks)] {
            if let value, value < 1 { return "`\(name)` must be at least 1." }
        }
        if let value = closeEndedStatus, ![403, 404].contains(value) { return "`closeEndedStatus` must be 403 or 404." }
        if let value = webhookKeys, !["event", "callback"].contains(value) { return "`webhookKeys` must be `event` or `callback`." }
        if let value = webhookMaxAttempts, !(1...10).contains(value) { return "`webhookMaxAttempts` must be 1–10." }
        if let origins = webhookAllowedOrigins {
            if origins.count > 100 { return "`webhookAllowedOrigins` holds at most 100 origins." }
            if let bad = origins.first(where: { WebhookOrigin.normalized($0) == nil }) {
                return "`webhookAllowedOrigins` holds origins like `http://127.0.0.1:3000` (scheme, host, optional port; no path); `\(bad.prefix(200))` is not one."
            }
        }
        if let value = productValidationStatus, ![400, 422].contains(value) { return "`productValidationStatus` must be 400 or 422." }
        if let value = accessTokenSeconds, !(value > 0 && value <= Self.maxTokenSeconds) { return "`accessTokenSeconds` must be positive and at most 100 years." }
        if let value = refreshTokenSeconds, !(value > 0 && value <= Self.maxTokenSeconds) { return "`refreshTokenSeconds` must be positive and at most 100 years." }
        if let value = sleepCycleTime, !["empty", "numbers", "strings"].contains(value) { return "`sleepCycleTime` must be `empty`, `numbers` or `strings`." }
        if let value = validationErrorStyle, !["string", "list"].contains(value) { return "`validationErrorStyle` must be `string` or `list`." }
        return nil
    }

    /// Every field with its effective value (for `GET …/asleep/settings`).
    var effective: AsleepSettings {
        var result = self
        result.completionDelaySeconds = completionDelay
        result.maxSessionSeconds = maxSession
        result.conflictMode = conflictMode ?? "close"
        result.terminateOnJoin = terminateOnJoin ?? false
        result.tooShortChunks = tooShort
        result.realtimeChunks = realtime
        result.inferenceIntervalChunks = inferenceInterval
        result.breathing = breathingEnabled
        result.snoring = snoringEnabled
        result.strict = isStrict
        result.closeEndedStatus = closeEndedStatus ?? 404
        result.webhookKeys = webhookKeys ?? "event"
        result.webhookMaxAttempts = webhookAttempts
        result.webhookAllowedOrigins = webhookAllowedOrigins ?? []
        result.productValidationStatus = productValidationStatus ?? 422
        result.accessTokenSeconds = accessTTL
        result.refreshTokenSeconds = refreshTTL
        result.sleepCycleTime = sleepCycleTime ?? "empty"
        result.validationErrorStyle = validationErrorStyle ?? "string"
        return result
    }
}
