import Foundation

/// A page of journal entries, newest first, with the number of this project's entries evicted so far.
public struct JournalPage: Sendable, Codable, Equatable {
    /// The entries that matched the query, newest first.
    public var requests: [JournalEntry]
    /// Entries of this project dropped by the journal's bounds; non-zero means a verification may be incomplete.
    public var evicted: Int
}
