import Foundation

/// A driving event carried in a telemetry batch.
public struct TelematicsBatchEvent: Sendable, Codable, Equatable {
    /// A driving event type (`hardBrakingHighSpeed`, … or a generic `hardBraking`/`abruptAcceleration`).
    public var type: String
    /// When it happened, epoch milliseconds; it joins the trip that spans it.
    public var timestampMs: Int64
    /// Where it happened, degrees north.
    public var latitude: Double?
    /// Where it happened, degrees east.
    public var longitude: Double?

    /// Creates an event.
    public init(type: String, timestampMs: Int64, latitude: Double? = nil, longitude: Double? = nil) {
        self.type = type
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
    }
}
