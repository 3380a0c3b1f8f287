import Foundation

/// `{"detail": "…"}`, Asleep's error body.
public struct AsleepErrorBody: Sendable, Codable, Equatable {
    /// The documented error text, e.g. `user does not exist` or `Plan is expired`.
    public var detail: String
}
