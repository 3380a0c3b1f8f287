import EmulatorCore
import Foundation

/// Per-project tunables [D-TM-05, D-TM-12, D-TM-17, D-TM-19]. The effective value is
/// `SettingsDocument`'s layering: these defaults, under the `settings` object of the
/// configuration file's `telematics` section, under the project's stored document (only what
/// the control plane changed). Every threshold is named so processing is repeatable.
public struct TelematicsSettings: Codable, Sendable, Equatable {
    /// Access-token lifetime when neither the user nor the mint request sets one.
    public var defaultAccessTtlSeconds: Double = 3600
    /// Refresh-token lifetime default (30 days).
    public var defaultRefreshTtlSeconds: Double = 30 * 86_400
    /// How long a rotated refresh token still returns its successor pair.
    public var rotationGraceSeconds: Double = 60
    /// Sample-time silence that closes a period.
    public var periodIdleTimeoutSeconds: Double = 600
    /// Sample gap that splits trips inside a period.
    public var tripGapSeconds: Double = 300
    /// Shortest trip kept.
    public var minTripDistanceKm: Double = 0.3
    /// Briefest trip kept.
    public var minTripDurationSeconds: Double = 60
    /// Speed at or above which a generic event counts as "high speed".
    public var highSpeedKmh: Double = 50
    /// Whether a period is processed as soon as it closes (false: only the control-plane call).
    public var autoProcess: Bool = true
    /// Largest decompressed telemetry batch accepted.
    public var maxBatchBytes: Int = 10 * 1024 * 1024
    /// Vehicle types, name → code.
    public var vehicleTypes: [String: Int] = ["Car": 1, "Van": 2, "Motorcycle": 3, "Truck": 4]
    /// Fuel types, name → code.
    public var fuelTypes: [String: Int] = ["Diesel": 1, "Gasoline": 2, "Electric": 3, "Hybrid": 4, "LPG": 5]
    /// Add reasons, name → code.
    public var addReasons: [String: Int] = ["New vehicle": 1, "Replacement": 2, "Temporary": 3, "Rental": 4]
    /// Nil: every service code is valid (open mode). Otherwise the allow-list.
    public var serviceCodes: [ServiceCode]?

    /// A service code of the allow-list.
    public struct ServiceCode: Codable, Sendable, Equatable {
        /// The code the SDK sends.
        public var code: String
        /// A display name.
        public var serviceName: String?
        /// Features, e.g. `TRIPS`, `KILOMETERS`, `ATTENTION`.
        public var features: [String]?
    }

    /// The defaults.
    public init() {}

    /// Encodes every key, `serviceCodes` as null in open mode (the control plane has always shown
    /// the key; the synthesized encoder would leave it out).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(defaultAccessTtlSeconds, forKey: .defaultAccessTtlSeconds)
        try container.encode(defaultRefreshTtlSeconds, forKey: .defaultRefreshTtlSeconds)
        try container.encode(rotationGraceSeconds, forKey: .rotationGraceSeconds)
        try container.encode(periodIdleTimeoutSeconds, forKey: .periodIdleTimeoutSeconds)
        try container.encode(tripGapSeconds, forKey: .tripGapSeconds)
        try container.encode(minTripDistanceKm, forKey: .minTripDistanceKm)
        try container.encode(minTripDurationSeconds, forKey: .minTripDurationSeconds)
        try container.encode(highSpeedKmh, forKey: .highSpeedKmh)
        try container.encode(autoProcess, forKey: .autoProcess)
        try container.encode(maxBatchBytes, forKey: .maxBatchBytes)
        try container.encode(vehicleTypes, forKey: .vehicleTypes)
        try container.encode(fuelTypes, forKey: .fuelTypes)
        try container.encode(addReasons, forKey: .addReasons)
        try container.encode(serviceCodes, forKey: .serviceCodes)
    }

    /// The document's keys; a `PATCH` naming any other is refused.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case defaultAccessTtlSeconds, defaultRefreshTtlSeconds, rotationGraceSeconds, periodIdleTimeoutSeconds, tripGapSeconds
        case minTripDistanceKm, minTripDurationSeconds, highSpeedKmh, autoProcess, maxBatchBytes
        case vehicleTypes, fuelTypes, addReasons, serviceCodes
    }

    /// The defaults as the bottom layer.
    static var defaultsDocument: JSONValue {
        get throws { try JSONValue.from(TelematicsSettings()) }
    }

    /// The effective settings of `layers` (bottom first) over the defaults. Each layer replaces
    /// the top-level keys it names — a catalogue or allow-list is replaced whole, not merged
    /// name by name — so before each layer its object-valued keys are cleared.
    static func resolve(_ layers: [JSONValue]) throws -> TelematicsSettings {
        var documents = [try defaultsDocument]
        for case .object(let members) in layers {
            let cleared = members.filter { if case .object = $0.value { true } else { false } }.mapValues { _ in JSONValue.null }
            if !cleared.isEmpty { documents.append(.object(cleared)) }
            documents.append(.object(members))
        }
        return try SettingsDocument.resolve(TelematicsSettings.self, layers: documents)
    }

    /// The project's settings could not be read back: its stored document is not JSON or no
    /// longer decodes (edited by hand, or written by another version). That is a storage
    /// failure — 503 — never the caller's 400: no request could fix it.
    struct Unreadable: Error, Equatable {
        /// What is wrong with the stored document, naming the setting.
        let reason: String
    }

    /// A project's effective settings: `configured` (checked when the platform was built, so it
    /// cannot be what fails) under the project's `stored` document.
    static func effective(configured: JSONValue, stored: JSONValue) throws(Unreadable) -> TelematicsSettings {
        do { return try resolve([configured, stored]) } catch {
            throw Unreadable(reason: ErrorText.of(error))
        }
    }

    /// `stored` with `changes`' top-level keys replaced (a null removes the key, so the value
    /// falls back to the configuration or default).
    static func replacing(_ stored: JSONValue, with changes: [String: JSONValue]) -> JSONValue {
        var members = stored.objectValue ?? [:]
        for (key, value) in changes {
            if value.isNull { members.removeValue(forKey: key) } else { members[key] = value }
        }
        return .object(members)
    }

    /// Longest duration any setting or lifetime may have (100 years), so time arithmetic stays in range.
    public static let maxSeconds: Double = 100 * 365 * 86_400

    /// Problems with the values (negative lifetimes and the like), for the control plane's 400.
    public var problems: [String] {
        var found: [String] = []
        let durations = [defaultAccessTtlSeconds, defaultRefreshTtlSeconds, rotationGraceSeconds, periodIdleTimeoutSeconds, tripGapSeconds, minTripDurationSeconds]
        if durations.contains(where: { !$0.isFinite || $0 > Self.maxSeconds }) { found.append("durations must be at most \(Int(Self.maxSeconds)) seconds") }
        if !minTripDistanceKm.isFinite || !highSpeedKmh.isFinite { found.append("thresholds must be finite") }
        if defaultAccessTtlSeconds <= 0 { found.append("defaultAccessTtlSeconds must be positive") }
        if defaultRefreshTtlSeconds <= 0 { found.append("defaultRefreshTtlSeconds must be positive") }
        if rotationGraceSeconds < 0 { found.append("rotationGraceSeconds must not be negative") }
        if periodIdleTimeoutSeconds <= 0 { found.append("periodIdleTimeoutSeconds must be positive") }
        if tripGapSeconds <= 0 { found.append("tripGapSeconds must be positive") }
        if minTripDistanceKm < 0 || minTripDurationSeconds < 0 { found.append("trip minimums must not be negative") }
        if maxBatchBytes <= 0 { found.append("maxBatchBytes must be positive") }
        return found
    }
}
