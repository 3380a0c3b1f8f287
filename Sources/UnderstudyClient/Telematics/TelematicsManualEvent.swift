import Foundation

/// A stored manual event.
public struct TelematicsManualEvent: Sendable, Codable, Equatable {
    /// The server's id for the event.
    public var id: Int
    /// The id the client sent; a repeat returns the stored event with 200.
    public var clientEventId: String?
    /// The `TelematicsManualEventType` raw value.
    public var type: String
    /// When the event happened (ISO 8601).
    public var timestamp: String
    /// When the server stored it (project clock, ISO 8601).
    public var receivedAt: String
    /// The trip it falls in, once that trip is built.
    public var tripId: Int?
    /// The telematics period it falls in.
    public var periodId: Int?
}
