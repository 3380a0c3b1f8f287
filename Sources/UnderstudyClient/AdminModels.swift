import Foundation

/// A project as the control plane returns it.
public struct Project: Sendable, Codable, Equatable {
    /// Its id.
    public var id: String
    /// Its name.
    public var name: String
    /// The seed of its ids, when given.
    public var seed: Int64?
    /// When it was created.
    public var createdAt: String
    /// Whether it is the demo project.
    public var isDemo: Bool
    /// Its clock.
    public var clock: ClockState
    /// Credentials per platform (`warplink`: `sdkKey`, `apiKey`; `asleep`: `apiKey`; …).
    public var credentials: [String: [String: String]]
    /// Base URL per platform.
    public var baseURLs: [String: String]
    /// SDK settings to paste, per platform, named as each SDK names them.
    public var sdkSettings: [String: [String: String]]

    /// Credential `name` of `platform`, or "".
    public func credential(_ platform: String, _ name: String) -> String { credentials[platform]?[name] ?? "" }
}

/// A project clock.
public struct ClockState: Sendable, Codable, Equatable {
    /// `real`, `frozen` or `offset`.
    public var mode: String
    /// The project's current time.
    public var now: String
    /// Offset from real time (mode `offset`).
    public var offsetSeconds: Double
    /// The frozen instant (mode `frozen`).
    public var frozenAt: String?
}

/// A fault rule: which requests, what happens, how often, for how long.
public struct FaultRule: Sendable, Codable, Equatable {
    /// Which requests (every field given must match).
    public struct Match: Sendable, Codable, Equatable {
        /// `warplink`, `asleep`, `warrantylife` or `telematics`.
        public var platform: String?
        /// Method.
        public var method: String?
        /// Path glob (`*` within a segment, `**` across), full or below the platform prefix.
        public var path: String?
        /// Headers that must be present with these values.
        public var headers: [String: String]?

        /// Creates a match.
        public init(platform: String? = nil, method: String? = nil, path: String? = nil, headers: [String: String]? = nil) {
            self.platform = platform
            self.method = method
            self.path = path
            self.headers = headers
        }
    }

    /// What happens.
    public struct Action: Sendable, Codable, Equatable {
        /// `status`, `delay`, `hang`, `reset`, `closeAfterHeaders`, `truncate`, `malformedJSON`.
        public var type: String
        /// Status for `status`.
        public var status: Int?
        /// Custom body for `status`.
        public var body: AnyJSON?
        /// Milliseconds for `delay`; the longest hold for `hang`.
        public var delayMs: Int?
        /// `Retry-After` seconds.
        public var retryAfter: Int?
        /// Body bytes kept by `truncate`.
        public var bytes: Int?

        /// Creates an action.
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

    /// Set by the server.
    public var id: String?
    /// Set by the server: the owning project, nil for global rules.
    public var projectID: String?
    /// Which requests.
    public var match: Match
    /// What happens.
    public var action: Action
    /// At most this many times.
    public var times: Int?
    /// After this many successes.
    public var after: Int?
    /// With this probability.
    public var probability: Double?
    /// Seed for `probability`.
    public var seed: UInt64?
    /// Lifetime in seconds (server default 600).
    public var ttlSeconds: Double?
    /// Set by the server.
    public var expiresAt: String?
    /// Set by the server: matching requests seen.
    public var matched: Int?
    /// Set by the server: faults applied.
    public var hits: Int?

    /// Creates a rule.
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

/// One journalled request.
public struct JournalEntry: Sendable, Codable, Equatable {
    public var id: Int
    public var time: String
    public var projectID: String?
    public var platform: String
    public var method: String
    public var path: String
    public var route: String?
    public var query: String
    /// Status sent; 0 when a fault sent none (reset, hang).
    public var status: Int
    public var durationMs: Double
    public var requestHeaders: [String: String]
    public var requestBody: String?
    public var requestBodySize: Int
    public var responseHeaders: [String: String]
    public var responseBody: String?
    public var responseBodySize: Int
    public var fault: String?

    /// The request body parsed as JSON.
    public var requestJSON: AnyJSON? { requestBody.flatMap { try? JSONDecoder().decode(AnyJSON.self, from: Data($0.utf8)) } }
    /// The response body parsed as JSON.
    public var responseJSON: AnyJSON? { responseBody.flatMap { try? JSONDecoder().decode(AnyJSON.self, from: Data($0.utf8)) } }
}

/// A page of journal entries, newest first, with the number of this project's entries evicted so far.
public struct JournalPage: Sendable, Codable, Equatable {
    /// The entries.
    public var requests: [JournalEntry]
    /// Entries of this project dropped by the journal's bounds; non-zero means a verification may be incomplete.
    public var evicted: Int
}

/// Journal filters.
public struct JournalQuery: Sendable, Codable, Equatable {
    public var platform: String?
    public var method: String?
    /// Path glob or exact path.
    public var path: String?
    public var status: Int?
    /// Only entries after this id.
    public var since: Int?
    public var limit: Int?

    /// Creates a filter.
    public init(platform: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil, since: Int? = nil, limit: Int? = nil) {
        self.platform = platform
        self.method = method
        self.path = path
        self.status = status
        self.since = since
        self.limit = limit
    }
}

/// A saved snapshot.
public struct SnapshotInfo: Sendable, Codable, Equatable {
    public var name: String
    public var createdAt: String
    public var rows: Int
}

/// A recorded side effect (mail, push, webhook).
public struct OutboxMessage: Sendable, Codable, Equatable {
    public var id: Int
    public var projectID: String
    public var platform: String
    public var kind: String
    public var recipient: String?
    public var subject: String?
    public var payload: AnyJSON
    public var status: String
    public var attempts: Int
    public var lastError: String?
    public var createdAt: String
    public var updatedAt: String
}

/// The control plane's error body.
public struct AdminErrorBody: Sendable, Codable, Equatable {
    /// The error.
    public struct Detail: Sendable, Codable, Equatable {
        public var code: String
        public var message: String
        public var details: AnyJSON?
    }
    /// The error.
    public var error: Detail
}
