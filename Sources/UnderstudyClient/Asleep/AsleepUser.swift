import Foundation

/// `GET /ai/v1/users/{id}` result.
public struct AsleepUser: Sendable, Codable, Equatable {
    /// The user's id (`G-…`).
    public var userId: String
    /// Always false (deletion is immediate).
    public var toBeDeleted: Bool
    /// The most recently created session.
    public var lastSessionInfo: AsleepLastSessionInfo?
    /// Metadata (birth date, gender, height, weight).
    public var metadata: AsleepUserMetadata?
}
