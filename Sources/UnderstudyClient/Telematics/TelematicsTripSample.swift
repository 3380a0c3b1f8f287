import Foundation

/// A sample of a trip.
public struct TelematicsTripSample: Sendable, Codable, Equatable {
    /// When the fix was taken (ISO 8601).
    public var timestamp: String
    /// The same instant in epoch milliseconds.
    public var timestampMs: Int64
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Speed in km/h (the uploaded m/s × 3.6).
    public var speedKmh: Double?
    /// Heading in degrees from north.
    public var courseDeg: Double?
    /// Fix accuracy in metres.
    public var horizontalAccuracyM: Double?
    /// Altitude in metres.
    public var altitudeM: Double?
    /// The road's speed limit, if uploaded.
    public var speedLimitKmh: Double?
    /// Whether the phone was handled: screen unlocked and not hands-free.
    public var phoneInUse: Bool?
}
