import Foundation

/// A driving event of a trip.
public struct TelematicsTripEvent: Sendable, Codable, Equatable {
    /// The specific driving event type, e.g. `hardBrakingHighSpeed`.
    public var type: String
    /// `detected` or `manual`.
    public var source: String
    /// When it happened (ISO 8601).
    public var timestamp: String
    /// Where it happened, degrees north.
    public var latitude: Double?
    /// Where it happened, degrees east.
    public var longitude: Double?
    /// How long it lasted, when known.
    public var durationSec: Double?
    /// Its magnitude when known (g, km/h over the limit, …).
    public var value: Double?
}
