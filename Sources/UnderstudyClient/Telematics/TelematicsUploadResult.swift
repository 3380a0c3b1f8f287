import Foundation

/// The telemetry route's answer.
public struct TelematicsUploadResult: Sendable, Codable, Equatable {
    /// The batch's id, lower-cased.
    public var batchId: String
    /// How many samples were new (the original count for a duplicate).
    public var accepted: Int
    /// When the server first stored the batch (project clock, ISO 8601).
    public var receivedAt: String
    /// true when the `batchId` was seen before; absent otherwise.
    public var duplicate: Bool?
}
