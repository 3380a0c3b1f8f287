import Foundation

/// An odometer reading reported for a vehicle.
public struct TelematicsKilometersReport: Sendable, Codable, Equatable {
    /// The report's id.
    public var id: Int
    /// The vehicle the odometer belongs to.
    public var vehicleId: Int
    /// The odometer reading.
    public var kilometers: Double
    /// The driver's note, if any.
    public var observations: String?
    /// When the odometer was read; the report time unless given (ISO 8601).
    public var readAt: String
    /// When the server received the report (project clock, ISO 8601).
    public var reportedAt: String
    /// Whether a later `correctKilometers` replaced this reading.
    public var corrected: Bool
    /// When it was corrected (ISO 8601).
    public var correctedAt: String?
}
