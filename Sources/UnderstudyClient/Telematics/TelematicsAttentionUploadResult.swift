import Foundation

/// The attention-events route's answer.
public struct TelematicsAttentionUploadResult: Sendable, Codable, Equatable {
    /// Events stored for the first time.
    public var accepted: Int
    /// Events whose `id` was already stored.
    public var duplicates: Int
}
