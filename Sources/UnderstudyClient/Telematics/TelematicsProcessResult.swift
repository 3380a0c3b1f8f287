import Foundation

/// The "process now" result.
public struct TelematicsProcessResult: Sendable, Codable, Equatable {
    /// Periods closed and processed by this call.
    public var periodsProcessed: Int
    /// Trips built from them.
    public var tripsCreated: Int
}
