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
    /// Only statuses of this class: 1…5 for `1xx`…`5xx`, 0 for "no response sent" (listings only, not `waitForRequests`).
    public var statusClass: Int?
    /// Only entries older than this id: the cursor for the next page back (listings only).
    public var before: Int?
    /// `true`: only requests meant for an emulated service that matched no project; `false`: only
    /// the others. The journal across projects only (`AdminClient.requests`): such requests are in no project's.
    public var unmatched: Bool?
    /// Only requests that concern this app installation (`JournalEntry.device`; listings only).
    public var device: String?

    /// A query; nil members match anything.
    public init(
        platform: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil, since: Int? = nil, limit: Int? = nil,
        statusClass: Int? = nil, before: Int? = nil, unmatched: Bool? = nil,
        device: String? = nil
    ) {
        self.platform = platform
        self.method = method
        self.path = path
        self.status = status
        self.since = since
        self.limit = limit
        self.statusClass = statusClass
        self.before = before
        self.unmatched = unmatched
        self.device = device
    }

    /// The listing's query string items, with the long poll's `waitMs` when it is given.
    func listingItems(waitMs: Int? = nil) -> [(String, String)] {
        var items: [(String, String)] = []
        if let platform { items.append(("platform", platform)) }
        if let method { items.append(("method", method)) }
        if let path { items.append(("path", path)) }
        if let status { items.append(("status", String(status))) }
        if let statusClass { items.append(("status", "\(statusClass)xx")) }
        if let since { items.append(("after", String(since))) }
        if let before { items.append(("before", String(before))) }
        if let unmatched { items.append(("unmatched", String(unmatched))) }
        if let device { items.append(("device", device)) }
        if let limit { items.append(("limit", String(limit))) }
        if let waitMs { items.append(("waitMs", String(waitMs))) }
        return items
    }
}
