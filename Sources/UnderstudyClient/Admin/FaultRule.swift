import Foundation

/// A fault rule: which requests, what happens, how often, for how long.
public struct FaultRule: Sendable, Codable, Equatable {
    /// Which requests (every field given must match).
    public struct Match: Sendable, Codable, Equatable {
        /// `warplink`, `asleep`, `warrantylife` or `telematics`.
        public var platform: String?
        /// Only requests with this method, e.g. `POST`.
        public var method: String?
        /// Path glob (`*` within a segment, `**` across), full or below the platform prefix.
        public var path: String?
        /// Headers that must be present with these values.
        public var headers: [String: String]?

        /// A match; nil members match anything.
        public init(platform: String? = nil, method: String? = nil, path: String? = nil, headers: [String: String]? = nil) {
            self.platform = platform
            self.method = method
            self.path = path
            self.headers = headers
        }
    }

    /// What a matching request gets instead of (or before) its normal answer.
    public struct Action: Sendable, Codable, Equatable {
        /// `status`, `delay`, `hang`, `reset`, `closeAfterHeaders`, `truncate`, `malformedJSON`.
        public var type: String
        /// The HTTP status a `status` action answers with.
        public var status: Int?
        /// Custom body for `status`.
        public var body: AnyJSON?
        /// Milliseconds for `delay`; the longest hold for `hang`.
        public var delayMs: Int?
        /// The `Retry-After` header, in seconds, of a `status` answer.
        public var retryAfter: Int?
        /// Body bytes kept by `truncate`.
        public var bytes: Int?

        /// An action from its parts; the static members build the usual ones.
        public init(type: String, status: Int? = nil, body: AnyJSON? = nil, delayMs: Int? = nil, retryAfter: Int? = nil, bytes: Int? = nil) {
            self.type = type
            self.status = status
            self.body = body
            self.delayMs = delayMs
            self.retryAfter = retryAfter
            self.bytes = bytes
        }

        /// Answer with `status` (in the platform's error format unless `body` is given).
        public static func status(_ status: Int, body: AnyJSON? = nil, retryAfter: Int? = nil) -> Action {
            Action(type: "status", status: status, body: body, retryAfter: retryAfter)
        }
        /// Answer normally after `milliseconds`.
        public static func delay(_ milliseconds: Int) -> Action { Action(type: "delay", delayMs: milliseconds) }
        /// Never answer; close after `milliseconds` (default 30 s) or when the client leaves.
        public static func hang(_ milliseconds: Int? = nil) -> Action { Action(type: "hang", delayMs: milliseconds) }
        /// Reset the connection (TCP RST) without answering.
        public static let reset = Action(type: "reset")
        /// Send the head, then close.
        public static let closeAfterHeaders = Action(type: "closeAfterHeaders")
        /// Send the head and `bytes` body bytes, then close.
        public static func truncate(_ bytes: Int? = nil) -> Action { Action(type: "truncate", bytes: bytes) }
        /// Send a body that is not valid JSON.
        public static let malformedJSON = Action(type: "malformedJSON")
    }

    /// The rule's id (`flt_…`), set by the server.
    public var id: String?
    /// Set by the server: the owning project, nil for global rules.
    public var projectID: String?
    /// Which requests the rule applies to.
    public var match: Match
    /// What those requests get.
    public var action: Action
    /// At most this many times.
    public var times: Int?
    /// After this many successes.
    public var after: Int?
    /// The chance, 0 to 1, that a matching request is faulted (seeded by `seed`, so runs repeat).
    public var probability: Double?
    /// Seed for `probability`.
    public var seed: UInt64?
    /// Lifetime in seconds (server default 600).
    public var ttlSeconds: Double?
    /// When the rule lapses, set by the server from `ttlSeconds`.
    public var expiresAt: String?
    /// Set by the server: matching requests seen.
    public var matched: Int?
    /// Set by the server: faults applied.
    public var hits: Int?

    /// A rule to add; nil limits mean every matching request, forever (until the TTL).
    public init(match: Match, action: Action, times: Int? = nil, after: Int? = nil, probability: Double? = nil, seed: UInt64? = nil, ttlSeconds: Double? = nil) {
        self.match = match
        self.action = action
        self.times = times
        self.after = after
        self.probability = probability
        self.seed = seed
        self.ttlSeconds = ttlSeconds
    }
}
