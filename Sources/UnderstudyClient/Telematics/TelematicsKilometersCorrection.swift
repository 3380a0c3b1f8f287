import Foundation

/// The result of `correctKilometers`.
public struct TelematicsKilometersCorrection: Sendable, Codable, Equatable {
    /// The corrected vehicle.
    public var vehicleId: Int
    /// The corrected odometer reading.
    public var kilometers: Double
    /// How many of the latest reports the correction applied to.
    public var correctionCount: Int
    /// Those reports after the correction, newest first.
    public var reports: [TelematicsKilometersReport]
}
