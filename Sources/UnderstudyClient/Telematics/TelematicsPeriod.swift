import Foundation

/// `TelematicsPeriod`: a run of samples without a long silence, from which trips are built.
public struct TelematicsPeriod: Sendable, Codable, Equatable {
    /// The period's id.
    public var id: Int
    /// Its first sample's time (ISO 8601).
    public var startedAt: String
    /// Its last sample's time once closed (ISO 8601); nil while still open.
    public var endedAt: String?
    /// Whether trips have been built from it.
    public var isProcessed: Bool
    /// When it was processed (project clock, ISO 8601).
    public var processedAt: String?
    /// The vehicle of its samples, when one was current.
    public var vehicleId: Int?
    /// The service code its batches carried.
    public var serviceCode: String?
    /// Trips built from it.
    public var tripCount: Int
    /// Distance of those trips.
    public var distanceKm: Double
    /// Samples it holds.
    public var sampleCount: Int
    /// Attention events inside it.
    public var attentionEventCount: Int
}
