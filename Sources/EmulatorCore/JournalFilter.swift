import Foundation

/// Filters for journal queries.
public struct JournalFilter: Sendable, Codable, Equatable {
    /// Platform name.
    public var platform: String?
    /// Method.
    public var method: String?
    /// Path glob (`*`, `**`) or exact path.
    public var path: String?
    /// Exact status.
    public var status: Int?
    /// Only entries with an id greater than this.
    public var since: Int?
    /// Most entries returned (default 100, max 1000).
    public var limit: Int?
    /// Only entries with an id smaller than this (the cursor for older pages).
    public var before: Int?
    /// Only statuses of this class: 1…5 for 1xx…5xx, 0 for "no response sent".
    public var statusClass: Int?
    /// `proxy`: only requests that came through the proxy port; `direct`: only those that did not.
    public var via: String?
    /// Only requests that asked the proxy for this host (lower-case).
    public var proxyHost: String?
    /// `true`: only requests that matched no project for a reason (`JournalEntry.unmatched`);
    /// `false`: only the others.
    public var unmatched: Bool?
    /// Only requests whose platform's checks named this app installation (`JournalEntry.device`).
    public var device: String?
    /// Never entries of this platform: a wait without a platform leaves out `admin`, so a test's
    /// own control-plane calls do not answer it.
    public var excludedPlatform: String?

    /// Creates a filter.
    public init(
        platform: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil, since: Int? = nil, limit: Int? = nil,
        before: Int? = nil, statusClass: Int? = nil, via: String? = nil, proxyHost: String? = nil, unmatched: Bool? = nil,
        excludedPlatform: String? = nil, device: String? = nil
    ) {
        self.platform = platform
        self.method = method
        self.path = path
        self.status = status
        self.since = since
        self.limit = limit
        self.before = before
        self.statusClass = statusClass
        self.via = via
        self.proxyHost = proxyHost
        self.unmatched = unmatched
        self.excludedPlatform = excludedPlatform
        self.device = device
    }
}
