import EmulatorCore
import Foundation
import SQLiteStore

/// A session row.
struct SessionRecord: Sendable, Equatable {
    var id: String
    var project: ProjectID
    var customer: String
    var userID: String
    var state: String
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
    var overrides: JSONValue
    var createdAt: Date
}

extension SessionRecord {
    init(row: Row) {
        func date(_ name: String) -> Date? { row.double(name).map(Date.init(timeIntervalSince1970:)) }
        id = row.string("session_id") ?? ""
        project = row.string("project_id") ?? ""
        customer = row.string("customer") ?? ""
        userID = row.string("user_id") ?? ""
        state = row.string("state") ?? "OPEN"
        start = date("start_time") ?? Date(timeIntervalSince1970: 0)
        end = date("end_time")
        unexpectedEnd = date("unexpected_end_time")
        closedAt = date("closed_at")
        completeTime = date("complete_time")
        hold = row.bool("hold") ?? false
        createdTimezone = row.string("created_timezone") ?? "UTC"
        inferenceType = row.string("inference_type") ?? "MELSPECTROGRAM"
        service = row.string("service") ?? "NOSERVICE"
        callbackURL = row.string("callback_url")
        apiKey = row.string("api_key")
        productID = row.string("product_id")
        lastSeqNum = row.int("last_seq_num")
        overrides = (try? JSONValue.parse(Data((row.string("overrides") ?? "{}").utf8))) ?? [:]
        createdAt = date("created_at") ?? start
    }
}

/// A user row.
struct UserRecord: Sendable, Equatable {
    var id: String
    var project: ProjectID
    var customer: String
    var metadata: JSONValue
    var createdAt: Date

    init(row: Row) {
        id = row.string("user_id") ?? ""
        project = row.string("project_id") ?? ""
        customer = row.string("customer") ?? ""
        metadata = row.string("metadata").flatMap { try? JSONValue.parse(Data($0.utf8)) } ?? .null
        createdAt = Date(timeIntervalSince1970: row.double("created_at") ?? 0)
    }
}

/// This platform's SQL, against the `asleep_*` tables only.
enum AsleepStore {
    static func settings(_ connection: SQLiteConnection, project: ProjectID) throws -> AsleepSettings {
        guard let text = try connection.scalar("SELECT settings FROM asleep_settings WHERE project_id = ?", project).string,
              let settings = try? JSONDecoder().decode(AsleepSettings.self, from: Data(text.utf8)) else { return AsleepSettings() }
        return settings
    }

    static func saveSettings(_ connection: SQLiteConnection, project: ProjectID, _ settings: AsleepSettings) throws {
        let text = String(decoding: (try? JSONEncoder().encode(settings)) ?? Data("{}".utf8), as: UTF8.self)
        try connection.run("""
            INSERT INTO asleep_settings (project_id, settings) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings
            """, project, text)
    }

    static func user(_ connection: SQLiteConnection, project: ProjectID, customer: String?, id: String) throws -> UserRecord? {
        try connection.queryOne("SELECT * FROM asleep_users WHERE user_id = ? AND project_id = ? AND (? IS NULL OR customer = ?)",
                                id, project, customer, customer).map(UserRecord.init(row:))
    }

    static func insertUser(_ connection: SQLiteConnection, id: String, project: ProjectID, customer: String, metadata: JSONValue, now: Date) throws {
        try connection.run("INSERT INTO asleep_users (user_id, project_id, customer, metadata, created_at) VALUES (?, ?, ?, ?, ?)",
                           id, project, customer, metadata.isNull ? nil : String(decoding: metadata.encoded(), as: UTF8.self),
                           now.timeIntervalSince1970)
    }

    static func deleteUser(_ connection: SQLiteConnection, project: ProjectID, id: String) throws {
        try connection.run("DELETE FROM asleep_chunks WHERE session_id IN (SELECT session_id FROM asleep_sessions WHERE project_id = ? AND user_id = ?)", project, id)
        try connection.run("DELETE FROM asleep_sessions WHERE project_id = ? AND user_id = ?", project, id)
        try connection.run("DELETE FROM asleep_users WHERE project_id = ? AND user_id = ?", project, id)
    }

    static func session(_ connection: SQLiteConnection, project: ProjectID, id: String) throws -> SessionRecord? {
        try connection.queryOne("SELECT * FROM asleep_sessions WHERE session_id = ? AND project_id = ?", id, project).map(SessionRecord.init(row:))
    }

    static func sessions(_ connection: SQLiteConnection, project: ProjectID, user: String) throws -> [SessionRecord] {
        try connection.query("SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? ORDER BY start_time, created_at, session_id",
                             project, user).map(SessionRecord.init(row:))
    }

    static func openSessions(_ connection: SQLiteConnection, project: ProjectID, user: String) throws -> [SessionRecord] {
        try connection.query("SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? AND state = 'OPEN'", project, user)
            .map(SessionRecord.init(row:))
    }

    static func latestSession(_ connection: SQLiteConnection, project: ProjectID, user: String) throws -> SessionRecord? {
        try connection.queryOne("SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? ORDER BY created_at DESC, start_time DESC, session_id DESC LIMIT 1",
                                project, user).map(SessionRecord.init(row:))
    }

    static func insertSession(_ connection: SQLiteConnection, _ session: SessionRecord) throws {
        try connection.run("""
            INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, end_time, unexpected_end_time,
                closed_at, complete_time, hold, created_timezone, inference_type, service, callback_url, api_key, product_id,
                last_seq_num, overrides, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, bindings: [
                session.id, session.project, session.customer, session.userID, session.state, session.start.timeIntervalSince1970,
                session.end?.timeIntervalSince1970, session.unexpectedEnd?.timeIntervalSince1970, session.closedAt?.timeIntervalSince1970,
                session.completeTime?.timeIntervalSince1970, session.hold, session.createdTimezone, session.inferenceType, session.service,
                session.callbackURL, session.apiKey, session.productID, session.lastSeqNum,
                String(decoding: session.overrides.encoded(), as: UTF8.self), session.createdAt.timeIntervalSince1970,
            ])
    }

    /// Writes every mutable column of `session` back.
    static func updateSession(_ connection: SQLiteConnection, _ session: SessionRecord) throws {
        try connection.run("""
            UPDATE asleep_sessions SET state = ?, start_time = ?, end_time = ?, unexpected_end_time = ?, closed_at = ?, complete_time = ?,
                hold = ?, created_timezone = ?, service = ?, callback_url = ?, api_key = ?, last_seq_num = ?, overrides = ?
            WHERE session_id = ? AND project_id = ?
            """, bindings: [
                session.state, session.start.timeIntervalSince1970, session.end?.timeIntervalSince1970,
                session.unexpectedEnd?.timeIntervalSince1970, session.closedAt?.timeIntervalSince1970,
                session.completeTime?.timeIntervalSince1970, session.hold, session.createdTimezone, session.service, session.callbackURL,
                session.apiKey, session.lastSeqNum, String(decoding: session.overrides.encoded(), as: UTF8.self), session.id, session.project,
            ])
    }

    static func deleteSession(_ connection: SQLiteConnection, project: ProjectID, id: String) throws {
        try connection.run("DELETE FROM asleep_chunks WHERE session_id = ? AND project_id = ?", id, project)
        try connection.run("DELETE FROM asleep_sessions WHERE session_id = ? AND project_id = ?", id, project)
    }

    static func receivedChunks(_ connection: SQLiteConnection, session: String) throws -> Set<Int> {
        Set(try connection.query("SELECT seq_num FROM asleep_chunks WHERE session_id = ?", session).compactMap { $0.int("seq_num") })
    }

    /// Stores a chunk; false when that `seq_num` was already there (an idempotent duplicate).
    static func insertChunk(_ connection: SQLiteConnection, project: ProjectID, session: String, seqNum: Int, size: Int, sha256: String, now: Date) throws -> Bool {
        try connection.run("""
            INSERT OR IGNORE INTO asleep_chunks (session_id, project_id, seq_num, size, sha256, received_at) VALUES (?, ?, ?, ?, ?, ?)
            """, session, project, seqNum, size, sha256, now.timeIntervalSince1970) > 0
    }

    static func idExists(_ connection: SQLiteConnection, table: String, column: String, id: String) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM \(table) WHERE \(column) = ?", id).int ?? 0 > 0
    }
}
