import Foundation

/// A saved copy of one project's state, restorable by name.
public struct SnapshotInfo: Sendable, Codable, Equatable {
    /// The name the snapshot was saved under; restoring by it replaces the project's state.
    public var name: String
    /// When it was saved (ISO 8601).
    public var createdAt: String
    /// How many database rows of the project it holds.
    public var rows: Int
}
