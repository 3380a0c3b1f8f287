import Foundation

/// `TelematicsAttentionEvent`, with the SDK's keys.
public struct TelematicsAttentionEvent: Sendable, Codable, Equatable {
    /// A lower-case UUID; an upload repeating it is counted as a duplicate.
    public var id: String
    /// The detector's kind, `phoneDistraction`.
    public var type: String
    /// Window start, epoch milliseconds.
    public var startTimestampMs: Int64
    /// Window end, epoch milliseconds; overlapping windows count once in a trip's distraction.
    public var endTimestampMs: Int64
    /// The detector's confidence, 0 to 1.
    public var confidence: Double
    /// Mean speed over the window in m/s.
    public var averageSpeedMps: Double?
    /// Last known position, degrees north.
    public var latitude: Double?
    /// Last known position, degrees east.
    public var longitude: Double?
    /// Accuracy of that position in metres.
    public var horizontalAccuracyM: Double?
    /// When that position was taken, epoch milliseconds.
    public var locationTimestampMs: Int64?
    /// The on-device model that produced the event.
    public var detectorVersion: String

    /// Creates an event (a 10 s `phoneDistraction` window by default).
    public init(
        id: String = UUID().uuidString.lowercased(), type: String = "phoneDistraction", startTimestampMs: Int64, endTimestampMs: Int64? = nil,
        confidence: Double, averageSpeedMps: Double? = nil, latitude: Double? = nil, longitude: Double? = nil,
        horizontalAccuracyM: Double? = nil, locationTimestampMs: Int64? = nil, detectorVersion: String = "distraction-tflite-1.0"
    ) {
        self.id = id
        self.type = type
        self.startTimestampMs = startTimestampMs
        self.endTimestampMs = endTimestampMs ?? startTimestampMs + 10_000
        self.confidence = confidence
        self.averageSpeedMps = averageSpeedMps
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracyM = horizontalAccuracyM
        self.locationTimestampMs = locationTimestampMs
        self.detectorVersion = detectorVersion
    }
}
