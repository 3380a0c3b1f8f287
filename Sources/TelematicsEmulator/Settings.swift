import EmulatorCore
import Foundation

/// Per-project tunables [D-TM-05, D-TM-12, D-TM-17, D-TM-19], stored as one JSON document and
/// replaceable through the control plane. Every threshold is named so processing is repeatable.
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

    /// Decodes a partial document: absent keys keep their defaults.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = TelematicsSettings()
        defaultAccessTtlSeconds = try c.decodeIfPresent(Double.self, forKey: .defaultAccessTtlSeconds) ?? d.defaultAccessTtlSeconds
        defaultRefreshTtlSeconds = try c.decodeIfPresent(Double.self, forKey: .defaultRefreshTtlSeconds) ?? d.defaultRefreshTtlSeconds
        rotationGraceSeconds = try c.decodeIfPresent(Double.self, forKey: .rotationGraceSeconds) ?? d.rotationGraceSeconds
        periodIdleTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .periodIdleTimeoutSeconds) ?? d.periodIdleTimeoutSeconds
        tripGapSeconds = try c.decodeIfPresent(Double.self, forKey: .tripGapSeconds) ?? d.tripGapSeconds
        minTripDistanceKm = try c.decodeIfPresent(Double.self, forKey: .minTripDistanceKm) ?? d.minTripDistanceKm
        minTripDurationSeconds = try c.decodeIfPresent(Double.self, forKey: .minTripDurationSeconds) ?? d.minTripDurationSeconds
        highSpeedKmh = try c.decodeIfPresent(Double.self, forKey: .highSpeedKmh) ?? d.highSpeedKmh
        autoProcess = try c.decodeIfPresent(Bool.self, forKey: .autoProcess) ?? d.autoProcess
        maxBatchBytes = try c.decodeIfPresent(Int.self, forKey: .maxBatchBytes) ?? d.maxBatchBytes
        vehicleTypes = try c.decodeIfPresent([String: Int].self, forKey: .vehicleTypes) ?? d.vehicleTypes
        fuelTypes = try c.decodeIfPresent([String: Int].self, forKey: .fuelTypes) ?? d.fuelTypes
        addReasons = try c.decodeIfPresent([String: Int].self, forKey: .addReasons) ?? d.addReasons
        serviceCodes = try c.decodeIfPresent([ServiceCode].self, forKey: .serviceCodes)
    }

    /// Encodes every key, `serviceCodes` as null in open mode.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(defaultAccessTtlSeconds, forKey: .defaultAccessTtlSeconds)
        try c.encode(defaultRefreshTtlSeconds, forKey: .defaultRefreshTtlSeconds)
        try c.encode(rotationGraceSeconds, forKey: .rotationGraceSeconds)
        try c.encode(periodIdleTimeoutSeconds, forKey: .periodIdleTimeoutSeconds)
        try c.encode(tripGapSeconds, forKey: .tripGapSeconds)
        try c.encode(minTripDistanceKm, forKey: .minTripDistanceKm)
        try c.encode(minTripDurationSeconds, forKey: .minTripDurationSeconds)
        try c.encode(highSpeedKmh, forKey: .highSpeedKmh)
        try c.encode(autoProcess, forKey: .autoProcess)
        try c.encode(maxBatchBytes, forKey: .maxBatchBytes)
        try c.encode(vehicleTypes, forKey: .vehicleTypes)
        try c.encode(fuelTypes, forKey: .fuelTypes)
        try c.encode(addReasons, forKey: .addReasons)
        try c.encode(serviceCodes, forKey: .serviceCodes)
    }

    private enum CodingKeys: String, CodingKey {
        case defaultAccessTtlSeconds, defaultRefreshTtlSeconds, rotationGraceSeconds, periodIdleTimeoutSeconds, tripGapSeconds
        case minTripDistanceKm, minTripDurationSeconds, highSpeedKmh, autoProcess, maxBatchBytes
        case vehicleTypes, fuelTypes, addReasons, serviceCodes
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
