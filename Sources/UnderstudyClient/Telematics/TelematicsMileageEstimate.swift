import Foundation

/// The estimated-mileage route's answer.
public struct TelematicsMileageEstimate: Sendable, Codable, Equatable {
    /// The vehicle estimated.
    public var vehicleId: Int
    /// −1 when unknown.
    public var estimatedKilometers: Double
    /// The odometer of the latest report; nil without one.
    public var lastReportedKilometers: Double?
    /// When that odometer was read (ISO 8601).
    public var lastReportedAt: String?
    /// Trip distance driven in the vehicle since that reading.
    public var trackedKilometersSinceReport: Double
    /// The project-clock time of the estimate (ISO 8601).
    public var estimatedAt: String
}
