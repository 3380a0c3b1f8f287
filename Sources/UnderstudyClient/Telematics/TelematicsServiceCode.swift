import Foundation

/// A service-code check.
public struct TelematicsServiceCode: Sendable, Codable, Equatable {
    /// The code as checked.
    public var code: String
    /// Whether telemetry may carry the code.
    public var valid: Bool
    /// The name of the service the code belongs to.
    public var serviceName: String
    /// What the code unlocks, e.g. `TRIPS`; telemetry needs `TRIPS`.
    public var features: [String]
}
