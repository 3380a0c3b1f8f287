import Foundation

/// Which journal entries to list or wait for; every member given must match.
public struct JournalQuery: Sendable, Codable, Equatable {
    /// Only this platform's requests (`warplink`, `asleep`, `warrantylife`, `telematics`, `admin`).
    public var platform: String?
    /// Only requests with this method.
    public var method: String?
    /// Path glob or exact path.
    public var path: String?
    /// Only requests answered with this status.
    public var status: Int?
    /// Only entries after this id.
    public var since: Int?
    /// At most this many entries (server default 100, at most 1000).
    public var limit: Int?

    /// A query; nil members match anything.
    public init(platform: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil, since: Int? = nil, limit: Int? = nil) {
        self.platform = platform
        self.method = method
        self.path = path
        self.status = status
        self.since = since
        self.limit = limit
    }
}
