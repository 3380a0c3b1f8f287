import Foundation
import Storage

/// A side effect a platform produced for the outside world (an e-mail, a silent push, a webhook),
/// recorded so a test can read it back instead of needing a real mailbox or device.
public struct OutboxMessage: Sendable, Codable, Equatable {
    /// Row id.
    public var id: Int
    /// Owning project.
    public var projectID: ProjectID
    /// Platform that produced it.
    public var platform: String
    /// `email`, `push`, `webhook`, …
    public var kind: String
    /// Address, device token or URL.
    public var recipient: String?
    /// E-mail subject or event name.
    public var subject: String?
    /// The message content (JSON).
    public var payload: JSONValue
    /// `pending`, `delivered`, `failed`, `refused` (a webhook whose target was not allowed), or `recorded` for messages that are never sent anywhere.
    public var status: String
    /// Delivery attempts so far.
    public var attempts: Int
    /// The last delivery error.
    public var lastError: String?
    /// When it was produced (project clock).
    public var createdAt: String
    /// When it last changed.
    public var updatedAt: String
}

/// Reads and writes the `outbox` table.
public struct Outbox: Sendable {
    let database: any Database

    /// Records a message inside the caller's transaction and returns its id.
    @discardableResult
    public static func add(
        _ connection: any StoreConnection, project: ProjectID, platform: PlatformID, kind: String,
        recipient: String?, subject: String?, payload: JSONValue, status: String = "recorded", now: Date
    ) throws -> Int {
        let time = Timestamp.format(now)
        let id = try connection.scalar(
            """
            INSERT INTO outbox (project_id, platform, kind, recipient, subject, payload, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """, project, platform.rawValue, kind, recipient, subject,
            String(decoding: payload.encoded(), as: UTF8.self), status, time, time)
        return try Row(columns: ["id"], values: [id]).decode("id")
    }

    /// Messages of a project, oldest first, optionally of one platform and kind.
    public func list(project: ProjectID, platform: PlatformID? = nil, kind: String? = nil) async throws -> [OutboxMessage] {
        try await database.read { connection in try Self.list(connection, project: project, platform: platform, kind: kind) }
    }

    /// Messages of a project, oldest first, optionally of one platform and kind, read on `connection`.
    public static func list(
        _ connection: any StoreConnection, project: ProjectID, platform: PlatformID? = nil,
        kind: String? = nil
    ) throws -> [OutboxMessage] {
        // One statement per filter: `(? IS NULL OR platform = ?)` cannot use an index, and every
        // call read and sorted the project's whole outbox. (project, platform, kind, id) leads to a
        // platform's messages (sorted by id) and to one kind of them already in id order. A kind
        // alone reads the project's messages: each kind belongs to one platform, and clients name both.
        let rows: [Row]
        switch (platform?.rawValue, kind) {
        case (nil, nil):
            rows = try connection.query("SELECT * FROM outbox WHERE project_id = ? ORDER BY id", project)
        case (let platform?, nil):
            rows = try connection.query("SELECT * FROM outbox WHERE project_id = ? AND platform = ? ORDER BY id", project, platform)
        case (nil, let kind?):
            rows = try connection.query("SELECT * FROM outbox WHERE project_id = ? AND kind = ? ORDER BY id", project, kind)
        case (let platform?, let kind?):
            rows = try connection.query("SELECT * FROM outbox WHERE project_id = ? AND platform = ? AND kind = ? ORDER BY id", project, platform, kind)
        }
        return try rows.map { try Self.message($0) }
    }

    /// Updates delivery state.
    public static func markAttempt(_ connection: any StoreConnection, id: Int, status: String, error: String?, now: Date) throws {
        try connection.run(
            "UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = ?, updated_at = ? WHERE id = ?",
            status, error, Timestamp.format(now), id)
    }

    /// Builds a message from a row; a missing or mistyped column, or a payload that is not JSON, throws.
    public static func message(_ row: Row) throws -> OutboxMessage {
        OutboxMessage(
            id: try row.decode("id"), projectID: try row.decode("project_id"), platform: try row.decode("platform"),
            kind: try row.decode("kind"), recipient: try row.decodeIfPresent("recipient"), subject: try row.decodeIfPresent("subject"),
            payload: try JSONValue.parse(try row.decode("payload", as: Data.self)),
            status: try row.decode("status"), attempts: try row.decode("attempts"), lastError: try row.decodeIfPresent("last_error"),
            createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
    }
}
