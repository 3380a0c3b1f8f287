import Foundation

/// A rule that makes matching requests fail on purpose.
public struct FaultRule: Sendable, Codable, Equatable {
    /// Which requests the rule applies to; every field given must match.
    public struct Match: Sendable, Codable, Equatable {
        /// A platform's name (as in its path prefix); nil for any.
        public var platform: String?
        /// Method, e.g. `POST`; nil for any.
        public var method: String?
        /// Path glob (`*` matches within a segment, `**` across segments), against the full path
        /// (`/acme/v1/orders`) or the path below the platform prefix (`/v1/orders`).
        public var path: String?
        /// Headers that must be present with exactly these values (names case-insensitive).
        public var headers: [String: String]?

        /// Creates a match.
        public init(platform: String? = nil, method: String? = nil, path: String? = nil, headers: [String: String]? = nil) {
            self.platform = platform
            self.method = method
            self.path = path
            self.headers = headers
        }
    }

    /// What happens to a matching request.
    public typealias Action = FaultAction

    /// The rule id (`flt_…`).
    public var id: String?
    /// The project it is limited to; nil for every project.
    public var projectID: String?
    /// Which requests.
    public var match: Match
    /// What happens.
    public var action: Action
    /// Apply to at most this many requests (nil: unlimited).
    public var times: Int?
    /// Let this many matching requests through first.
    public var after: Int?
    /// Apply with this probability (0–1), drawn from `seed` when given.
    public var probability: Double?
    /// Seed for `probability`, for repeatable chaos.
    public var seed: UInt64?
    /// Seconds until the rule disappears by itself (default 600), so a crashed test leaves none behind.
    public var ttlSeconds: Double?
    /// When the rule expires (ISO 8601, real time); set by the server.
    public var expiresAt: String?
    /// Requests that matched so far; set by the server.
    public var matched: Int?
    /// Requests the fault was applied to so far; set by the server.
    public var hits: Int?

    /// Creates a rule.
    public init(
        match: Match, action: Action, times: Int? = nil, after: Int? = nil, probability: Double? = nil,
        seed: UInt64? = nil, ttlSeconds: Double? = nil
    ) {
        self.match = match
        self.action = action
        self.times = times
        self.after = after
        self.probability = probability
        self.seed = seed
        self.ttlSeconds = ttlSeconds
    }

    /// A problem with the rule as submitted, or nil when it is valid; `platforms` are the names
    /// a rule may match.
    public func validationProblem(platforms: [PlatformID]) -> String? {
        if let problem = action.validationProblem { return problem }
        if let platform = match.platform, !platforms.contains(PlatformID(platform)) {
            return "match.platform must be one of \(platforms.map(\.rawValue).joined(separator: ", "))."
        }
        if let times, times < 1 { return "times must be at least 1." }
        if let after, after < 0 { return "after must not be negative." }
        if let probability, !(0...1).contains(probability) { return "probability must be between 0 and 1." }
        if let ttl = ttlSeconds, ttl <= 0 || ttl > 86_400 { return "ttlSeconds must be in (0, 86400]." }
        return nil
    }
}
