import Foundation

/// One telemetry sample as the SDK uploads it.
public struct TelematicsSample: Sendable, Codable, Equatable {
    /// When the fix was taken, epoch milliseconds; duplicates of a stored timestamp are ignored.
    public var timestampMs: Int64
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Device-reported speed in m/s; trips derive speed from positions without it.
    public var speedMps: Double?
    /// Heading in degrees from north.
    public var courseDeg: Double?
    /// Fix accuracy in metres.
    public var horizontalAccuracyM: Double?
    /// Altitude in metres.
    public var altitudeM: Double?
    /// The road's speed limit; speeding is only detected where it is known.
    public var speedLimitKmh: Double?
    /// Whether the screen was locked; an unlocked phone not in hands-free counts as in use.
    public var screenLocked: Bool?
    /// Whether the phone was in a hands-free holder or call mode.
    public var handsFree: Bool?

    /// Creates a sample.
    public init(
        timestampMs: Int64, latitude: Double, longitude: Double, speedMps: Double? = nil, courseDeg: Double? = nil,
        horizontalAccuracyM: Double? = nil, altitudeM: Double? = nil, speedLimitKmh: Double? = nil, screenLocked: Bool? = nil, handsFree: Bool? = nil
    ) {
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedMps = speedMps
        self.courseDeg = courseDeg
        self.horizontalAccuracyM = horizontalAccuracyM
        self.altitudeM = altitudeM
        self.speedLimitKmh = speedLimitKmh
        self.screenLocked = screenLocked
        self.handsFree = handsFree
    }
}
