import EmulatorCore
import Foundation
import Storage

/// Where a session is in its life: OPEN while the SDK uploads, CLOSED once stopped, COMPLETE when
/// the (emulated) analysis is done.
enum SessionState: String, Sendable, Equatable, SQLColumnDecodable, CaseIterable {
    case open = "OPEN"
    case closed = "CLOSED"
    case complete = "COMPLETE"
}

/// The plan state of an API key or app: anything but `active` makes every call fail the way the
/// real service does for that plan.
enum CredentialState: String, Sendable, Equatable, SQLColumnDecodable, CaseIterable {
    case active
    case planExpired = "plan_expired"
    case rateLimited = "rate_limited"
    case quotaExceeded = "quota_exceeded"
    case revoked
}

/// Which of an app's two tokens a token row is.
enum TokenKind: String, Sendable, Equatable, SQLColumnDecodable {
    case access
    case refresh
}

/// Where a webhook is in its delivery.
enum WebhookStatus: String, Sendable, Equatable, SQLColumnDecodable {
    case pending
    case delivered
    case failed
    /// Not sent: the target's address is not allowed (see `WebhookDelivery`).
    case refused
}

/// A session row (`asleep_sessions`).
struct SessionRecord: Sendable, Equatable, RowDecodable {
    var id: String
    var project: ProjectID
    var customer: String
    var userID: String
    var state: SessionState
    var start: Date
    var end: Date?
    var unexpectedEnd: Date?
    var closedAt: Date?
    var completeTime: Date?
    var hold: Bool
    var createdTimezone: String
    var inferenceType: String
    var service: String
    var callbackURL: String?
    var apiKey: String?
    var productID: String?
    var lastSeqNum: Int?
    /// Control-plane overrides: explicit stage arrays, detections, forced peculiarities, stat overrides.
    var overrides: JSONValue
    var createdAt: Date

    init(
        id: String, project: ProjectID, customer: String, userID: String, state: SessionState, start: Date, end: Date?,
        unexpectedEnd: Date?, closedAt: Date?, completeTime: Date?, hold: Bool, createdTimezone: String, inferenceType: String,
        service: String, callbackURL: String?, apiKey: String?, productID: String?, lastSeqNum: Int?, overrides: JSONValue, createdAt: Date
    ) {
        self.id = id
        self.project = project
        self.customer = customer
        self.userID = userID
        self.state = state
        self.start = start
        self.end = end
        self.unexpectedEnd = unexpectedEnd
        self.closedAt = closedAt
        self.completeTime = completeTime
        self.hold = hold
        self.createdTimezone = createdTimezone
        self.inferenceType = inferenceType
        self.service = service
        self.callbackURL = callbackURL
        self.apiKey = apiKey
        self.productID = productID
        self.lastSeqNum = lastSeqNum
        self.overrides = overrides
        self.createdAt = createdAt
    }

    init(row: Row) throws {
        id = try row.decode("session_id")
        project = try row.decode("project_id")
        customer = try row.decode("customer")
        userID = try row.decode("user_id")
        state = try row.decode("state", as: SessionState.self)
        start = try row.epochSeconds("start_time")
        end = try row.epochSecondsIfPresent("end_time")
        unexpectedEnd = try row.epochSecondsIfPresent("unexpected_end_time")
        closedAt = try row.epochSecondsIfPresent("closed_at")
        completeTime = try row.epochSecondsIfPresent("complete_time")
        hold = try row.decode("hold")
        createdTimezone = try row.decode("created_timezone")
        inferenceType = try row.decode("inference_type")
        service = try row.decode("service")
        callbackURL = try row.decodeIfPresent("callback_url")
        apiKey = try row.decodeIfPresent("api_key")
        productID = try row.decodeIfPresent("product_id")
        lastSeqNum = try row.decodeIfPresent("last_seq_num")
        guard let overrides = try row.jsonIfPresent("overrides") else { throw RowDecodingError.unexpectedNull("overrides") }
        self.overrides = overrides
        createdAt = try row.epochSeconds("created_at")
    }

    /// A fresh OPEN session.
    static func empty(id: String, project: ProjectID, customer: String, userID: String, start: Date, now: Date) -> SessionRecord {
        SessionRecord(
            id: id, project: project, customer: customer, userID: userID, state: .open, start: start, end: nil, unexpectedEnd: nil,
            closedAt: nil, completeTime: nil, hold: false, createdTimezone: "UTC", inferenceType: "MELSPECTROGRAM", service: "NOSERVICE",
            callbackURL: nil, apiKey: nil, productID: nil, lastSeqNum: nil, overrides: [:], createdAt: now)
    }
}

/// A user row (`asleep_users`).
struct UserRecord: Sendable, Equatable, RowDecodable {
    var id: String
    var project: ProjectID
    var customer: String
    /// The validated metadata object, or null when the user has none.
    var metadata: JSONValue
    var createdAt: Date

    init(row: Row) throws {
        id = try row.decode("user_id")
        project = try row.decode("project_id")
        customer = try row.decode("customer")
        metadata = try row.jsonIfPresent("metadata") ?? .null
        createdAt = try row.epochSeconds("created_at")
    }
}

/// A received chunk row (`asleep_chunks`): the first copy of each sequence number.
struct ChunkRecord: Sendable, Equatable, RowDecodable {
    /// What a seeded chunk stores in place of a hash: it was never sent, so there are no bytes to hash.
    static let seededHash = "seeded"

    var seqNum: Int
    var size: Int
    /// The file's SHA-256 in lower-case hex, or `seededHash`.
    var sha256: String
    var receivedAt: Date

    /// Whether the control plane made the chunk up (`POST /sessions` with `chunks`) rather than an upload bringing it.
    var isSeeded: Bool { sha256 == Self.seededHash }

    init(row: Row) throws {
        seqNum = try row.decode("seq_num")
        size = try row.decode("size")
        sha256 = try row.decode("sha256")
        receivedAt = try row.epochSeconds("received_at")
    }
}
