import Foundation

/// A project as the control plane returns it.
public struct Project: Sendable, Codable, Equatable {
    /// The project's id (`prj_…`, or `demo`), the `{id}` of every project route.
    public var id: String
    /// A label for people; names need not be unique.
    public var name: String
    /// The seed of its ids, when given.
    public var seed: Int64?
    /// When the project was created (ISO 8601).
    public var createdAt: String
    /// Whether it is the demo project.
    public var isDemo: Bool
    /// The project's virtual clock, which its expiries and timestamps follow.
    public var clock: ClockState
    /// Credentials per platform (`warplink`: `sdkKey`, `apiKey`; `asleep`: `apiKey`; …).
    public var credentials: [String: [String: String]]
    /// The URL to give each platform's SDK, e.g. `http://127.0.0.1:8080/asleep`.
    public var baseURLs: [String: String]
    /// SDK settings to paste, per platform, named as each SDK names them.
    public var sdkSettings: [String: [String: String]]

    /// Credential `name` of `platform`, or "".
    public func credential(_ platform: String, _ name: String) -> String { credentials[platform]?[name] ?? "" }
}

/// A project's virtual clock: real time, frozen at an instant, or real time shifted by an offset.
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

/// One journalled request.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Sequential id, also the request's trace id (`X-Understudy-Trace`).
    public var id: Int
    /// When the request arrived (real time, ISO 8601).
    public var time: String
    /// The project the request was identified as, if any.
    public var projectID: String?
    /// `warplink`, `asleep`, `warrantylife`, `telematics` or `admin`.
    public var platform: String
    /// The request method, e.g. `POST`.
    public var method: String
    /// The path as routed, with the platform prefix even for host-routed requests.
    public var path: String
    /// The route pattern that matched, e.g. `/asleep/ai/v1/users/{userId}`; nil when none did.
    public var route: String?
    /// The raw query string, without `?`.
    public var query: String
    /// Status sent; 0 when a fault sent none (reset, hang).
    public var status: Int
    /// Time spent answering, in milliseconds.
    public var durationMs: Double
    /// Request headers with secrets redacted, names lower-cased.
    public var requestHeaders: [String: String]
    /// The request body (decompressed, capped) as text when UTF-8, else `base64:` and the bytes in base64.
    public var requestBody: String?
    /// The decoded request body's size before capping.
    public var requestBodySize: Int
    /// The headers sent back, names lower-cased.
    public var responseHeaders: [String: String]
    /// The response body (capped), encoded like `requestBody`.
    public var responseBody: String?
    /// The response body's size before capping.
    public var responseBodySize: Int
    /// The fault applied, e.g. `rule flt_…: status 503` or `header: reset`; nil when none was.
    public var fault: String?

    /// The request body parsed as JSON.
    public var requestJSON: AnyJSON? { requestBody.flatMap { try? JSONDecoder().decode(AnyJSON.self, from: Data($0.utf8)) } }
    /// The response body parsed as JSON.
    public var responseJSON: AnyJSON? { responseBody.flatMap { try? JSONDecoder().decode(AnyJSON.self, from: Data($0.utf8)) } }
}

/// A page of journal entries, newest first, with the number of this project's entries evicted so far.
public struct JournalPage: Sendable, Codable, Equatable {
    /// The entries that matched the query, newest first.
    public var requests: [JournalEntry]
    /// Entries of this project dropped by the journal's bounds; non-zero means a verification may be incomplete.
    public var evicted: Int
}

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

/// A saved copy of one project's state, restorable by name.
public struct SnapshotInfo: Sendable, Codable, Equatable {
    /// The name the snapshot was saved under; restoring by it replaces the project's state.
    public var name: String
    /// When it was saved (ISO 8601).
    public var createdAt: String
    /// How many database rows of the project it holds.
    public var rows: Int
}

/// A recorded side effect (mail, push, webhook).
public struct OutboxMessage: Sendable, Codable, Equatable {
    /// The message's id, in production order.
    public var id: Int
    /// The project that produced it.
    public var projectID: String
    /// The platform that produced it.
    public var platform: String
    /// `email`, `push`, `webhook`, …
    public var kind: String
    /// The e-mail address, device token or URL it was for.
    public var recipient: String?
    /// The e-mail subject or webhook event name.
    public var subject: String?
    /// The message content: mail body fields, push payload or webhook body.
    public var payload: AnyJSON
    /// `pending`, `delivered`, `failed`, or `recorded` for messages never sent anywhere.
    public var status: String
    /// Delivery attempts so far (webhooks retry).
    public var attempts: Int
    /// Why the last delivery attempt failed.
    public var lastError: String?
    /// When it was produced (project clock, ISO 8601).
    public var createdAt: String
    /// When its delivery state last changed (ISO 8601).
    public var updatedAt: String
}

/// The control plane's error body.
public struct AdminErrorBody: Sendable, Codable, Equatable {
    /// What went wrong, as the server names it.
    public struct Detail: Sendable, Codable, Equatable {
        /// A stable snake_case code, e.g. `not_found`, `invalid_json`, `unknown_field`.
        public var code: String
        /// A sentence for people.
        public var message: String
        /// More about the error when the server has it, e.g. `{"field": …}` for a bad field.
        public var details: AnyJSON?
    }
    /// The `error` member of the body.
    public var error: Detail
}
