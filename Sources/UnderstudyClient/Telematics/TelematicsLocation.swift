import Foundation

/// A location in a trip.
public struct TelematicsLocation: Sendable, Codable, Equatable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// A street address; always nil, since the emulator does not geocode.
    public var address: String?
}
