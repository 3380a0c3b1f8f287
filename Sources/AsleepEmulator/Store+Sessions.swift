import EmulatorCore
import Foundation
import Storage

/// Sessions, their chunks, and the webhook queue.
extension AsleepStore {
    // MARK: Sessions

    /// The session `id` of `project`.
    func session(project: ProjectID, id: String) throws -> SessionRecord? {
        try connection.fetchOne(SessionRecord.self, "SELECT * FROM asleep_sessions WHERE session_id = ? AND project_id = ?", id, project)
    }

    /// The user's sessions, by start time.
    func sessions(project: ProjectID, user: String) throws -> [SessionRecord] {
        try connection.fetchAll(
            SessionRecord.self, "SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? ORDER BY start_time, created_at, session_id",
            project, user)
    }

    /// The user's sessions that started in `window` (`from ..< before`), by start time, or newest
    /// first when `descending`; `page` skips and caps in SQL when the caller needs no other filter.
    func sessions(
        project: ProjectID, user: String, startingIn window: (from: Double, before: Double), descending: Bool = false,
        page: (offset: Int, limit: Int)? = nil
    ) throws -> [SessionRecord] {
        // The (project, user, start_time, created_at, session_id) index serves the range and
        // either order, so a bounded list reads its window and no sort runs.
        let order = descending ? "start_time DESC, created_at DESC, session_id DESC" : "start_time, created_at, session_id"
        let sql = "SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? AND start_time >= ? AND start_time < ? ORDER BY \(order)"
        guard let page else { return try connection.fetchAll(SessionRecord.self, sql, project, user, window.from, window.before) }
        return try connection.fetchAll(SessionRecord.self, sql + " LIMIT ? OFFSET ?", project, user, window.from, window.before, page.limit, page.offset)
    }

    /// The project's sessions, optionally of one user and one state, by start time.
    func sessions(project: ProjectID, user: String?, state: String?) throws -> [SessionRecord] {
        // One statement per filter: `(? IS NULL OR user_id = ?)` used no index, and every call read
        // and sorted all the project's nights. A user's come from (project, user, start_time,
        // created_at, session_id) in order, their state checked on the way; a state's from
        // (project, state, start_time).
        switch (user, state) {
        case (nil, nil):
            return try connection.fetchAll(
                SessionRecord.self, "SELECT * FROM asleep_sessions WHERE project_id = ? ORDER BY start_time, created_at, session_id",
                project)
        case (nil, let state?):
            return try connection.fetchAll(
                SessionRecord.self,
                """
                SELECT * FROM asleep_sessions WHERE project_id = ? AND state = ? ORDER BY start_time, created_at, session_id
                """, project, state)
        case (let user?, nil):
            return try sessions(project: project, user: user)
        case (let user?, let state?):
            return try connection.fetchAll(
                SessionRecord.self,
                """
                SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? AND state = ? ORDER BY start_time, created_at, session_id
                """, project, user, state)
        }
    }

    /// The user's OPEN sessions.
    func openSessions(project: ProjectID, user: String) throws -> [SessionRecord] {
        try connection.fetchAll(SessionRecord.self, "SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? AND state = 'OPEN'", project, user)
    }

    /// The user's most recently created session.
    func latestSession(project: ProjectID, user: String) throws -> SessionRecord? {
        try connection.fetchOne(
            SessionRecord.self,
            """
            SELECT * FROM asleep_sessions WHERE project_id = ? AND user_id = ? ORDER BY created_at DESC, start_time DESC, session_id DESC LIMIT 1
            """, project, user)
    }

    /// Whether any project has a session `id` (ids are global keys).
    func sessionIDExists(_ id: String) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM asleep_sessions WHERE session_id = ?", id).int ?? 0 > 0
    }

    // The due checks run on every upload, report fetch and session call. Each bounds the time
    // column itself (`start_time <= ?`), which the indexes on (project, state, time) can seek,
    // rather than only `start_time + ? <= ?`, which reads every night of the project still in
    // progress. The bound has a second of slack for rounding; the exact test stays beside it.

    /// OPEN sessions that have run `maxSession` seconds by `now`.
    func sessionsPastMaximum(project: ProjectID, maxSession: Double, now: Date) throws -> [SessionRecord] {
        let now = now.timeIntervalSince1970
        return try connection.fetchAll(
            SessionRecord.self,
            """
            SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'OPEN' AND start_time <= ? AND start_time + ? <= ?
            """, project, now - maxSession + 1, maxSession, now)
    }

    /// CLOSED, unheld sessions closed at least `delay` seconds before `now`.
    func sessionsDueToComplete(project: ProjectID, delay: Double, now: Date) throws -> [SessionRecord] {
        let now = now.timeIntervalSince1970
        return try connection.fetchAll(
            SessionRecord.self,
            """
            SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'CLOSED' AND hold = 0 AND closed_at <= ? AND closed_at + ? <= ?
            """, project, now - delay + 1, delay, now)
    }

    /// Whether either of the two lists above would be non-empty (a cheap check on a reader).
    func hasDueTransitions(project: ProjectID, maxSession: Double, delay: Double, now: Date) throws -> Bool {
        guard let due = try nextTransitionDue(project: project, maxSession: maxSession, delay: delay) else { return false }
        return due <= now.timeIntervalSince1970
    }

    /// When the project's first state change falls due (seconds since 1970; nil when no session
    /// waits for one): `hasDueTransitions` is true exactly when this is at or before `now`.
    /// The earliest start and the earliest close are each the first entry of their index.
    func nextTransitionDue(project: ProjectID, maxSession: Double, delay: Double) throws -> Double? {
        let earliestStart = try connection.scalar(
            """
            SELECT start_time FROM asleep_sessions WHERE project_id = ? AND state = 'OPEN' ORDER BY start_time LIMIT 1
            """, project
        ).double
        let earliestClose = try connection.scalar(
            """
            SELECT closed_at FROM asleep_sessions WHERE project_id = ? AND state = 'CLOSED' AND hold = 0 AND closed_at IS NOT NULL
            ORDER BY closed_at LIMIT 1
            """, project
        ).double
        return [earliestStart.map { $0 + maxSession }, earliestClose.map { $0 + delay }].compactMap { $0 }.min()
    }

    /// Projects with an OPEN or CLOSED session (the worker's round).
    func projectsWithLiveSessions() throws -> [ProjectID] {
        try connection.query("SELECT DISTINCT project_id FROM asleep_sessions WHERE state IN ('OPEN', 'CLOSED')")
            .map { try $0.decode("project_id", as: String.self) }
    }

    /// Adds a session.
    func insertSession(_ session: SessionRecord) throws {
        try connection.run(
            """
            INSERT INTO asleep_sessions (session_id, project_id, customer, user_id, state, start_time, end_time, unexpected_end_time,
                closed_at, complete_time, hold, created_timezone, inference_type, service, callback_url, api_key, product_id,
                last_seq_num, overrides, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            bindings: [
                session.id, session.project, session.customer, session.userID, session.state.rawValue, session.start.timeIntervalSince1970,
                session.end?.timeIntervalSince1970, session.unexpectedEnd?.timeIntervalSince1970, session.closedAt?.timeIntervalSince1970,
                session.completeTime?.timeIntervalSince1970, session.hold, session.createdTimezone, session.inferenceType, session.service,
                session.callbackURL, session.apiKey, session.productID, session.lastSeqNum,
                String(decoding: AsleepJSON.encoded(session.overrides), as: UTF8.self), session.createdAt.timeIntervalSince1970,
            ])
    }

    /// Writes every mutable column of `session` back.
    func updateSession(_ session: SessionRecord) throws {
        try connection.run(
            """
            UPDATE asleep_sessions SET state = ?, start_time = ?, end_time = ?, unexpected_end_time = ?, closed_at = ?, complete_time = ?,
                hold = ?, created_timezone = ?, service = ?, callback_url = ?, api_key = ?, last_seq_num = ?, overrides = ?
            WHERE session_id = ? AND project_id = ?
            """,
            bindings: [
                session.state.rawValue, session.start.timeIntervalSince1970, session.end?.timeIntervalSince1970,
                session.unexpectedEnd?.timeIntervalSince1970, session.closedAt?.timeIntervalSince1970,
                session.completeTime?.timeIntervalSince1970, session.hold, session.createdTimezone, session.service, session.callbackURL,
                session.apiKey, session.lastSeqNum, String(decoding: AsleepJSON.encoded(session.overrides), as: UTF8.self), session.id, session.project,
            ])
    }

    /// Writes what an upload changes in a session: its callback URL, the key it came with and the
    /// last chunk's number. Rewriting every column (`updateSession`) re-encoded the overrides and
    /// rewrote the state and start time's index entries on every 30-second chunk.
    func recordUpload(_ session: SessionRecord) throws {
        try connection.run(
            "UPDATE asleep_sessions SET callback_url = ?, api_key = ?, last_seq_num = ? WHERE session_id = ? AND project_id = ?",
            session.callbackURL, session.apiKey, session.lastSeqNum, session.id, session.project)
    }

    /// Deletes a session and its chunks.
    func deleteSession(project: ProjectID, id: String) throws {
        try connection.run("DELETE FROM asleep_chunks WHERE session_id = ? AND project_id = ?", id, project)
        try connection.run("DELETE FROM asleep_sessions WHERE session_id = ? AND project_id = ?", id, project)
    }

    /// Deletes every session (and chunk) of a user.
    func deleteSessions(project: ProjectID, user: String) throws {
        try connection.run(
            "DELETE FROM asleep_chunks WHERE session_id IN (SELECT session_id FROM asleep_sessions WHERE project_id = ? AND user_id = ?)",
            project, user)
        try connection.run("DELETE FROM asleep_sessions WHERE project_id = ? AND user_id = ?", project, user)
    }

    // MARK: Chunks

    /// The sequence numbers received for a session.
    func receivedChunks(session: String) throws -> ReceivedChunks {
        // A night is 960 rows: read as plain integers, not a Row each (a fifth of a report fetch).
        ReceivedChunks(try connection.integers("SELECT seq_num FROM asleep_chunks WHERE session_id = ?", session))
    }

    /// The session's chunks by sequence number. The ORDER BY is also what steers SQLite to the
    /// primary key (session_id, seq_num), which holds them in order: without it the planner took
    /// the project index and read every chunk of every night of the project.
    func chunks(project: ProjectID, session: String) throws -> [ChunkRecord] {
        try connection.fetchAll(
            ChunkRecord.self,
            """
            SELECT seq_num, size, sha256, received_at FROM asleep_chunks WHERE session_id = ? AND project_id = ? ORDER BY seq_num
            """, session, project)
    }

    /// Stores a chunk; false when that `seq_num` was already there (an idempotent duplicate).
    func insertChunk(project: ProjectID, session: String, seqNum: Int, size: Int, sha256: String, now: Date) throws -> Bool {
        try connection.run(
            """
            INSERT OR IGNORE INTO asleep_chunks (session_id, project_id, seq_num, size, sha256, received_at) VALUES (?, ?, ?, ?, ?, ?)
            """, session, project, seqNum, size, sha256, now.timeIntervalSince1970) > 0
    }

    // MARK: Webhooks

    /// Queues a webhook for the delivery worker and records it in the outbox. `firstAttempt` is
    /// real time: deliveries must not wait for a frozen project clock.
    func insertWebhook(
        id: String, session: SessionRecord, event: String, url: String, body: JSONValue, maxAttempts: Int,
        firstAttempt: Date, now: Date
    ) throws {
        let outboxID = try Outbox.add(
            connection, project: session.project, platform: .asleep, kind: "webhook", recipient: url, subject: event,
            payload: body, status: "pending", now: now)
        try connection.run(
            """
            INSERT INTO asleep_webhooks (id, project_id, outbox_id, session_id, event, url, api_key, user_id, body, max_attempts, next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            bindings: [
                id, session.project, outboxID, session.id, event, url, session.apiKey, session.userID,
                String(decoding: AsleepJSON.encoded(body), as: UTF8.self), maxAttempts, firstAttempt.timeIntervalSince1970,
                now.timeIntervalSince1970,
            ])
    }

    /// The project's deliveries (of one session, when given), oldest first.
    func webhooks(project: ProjectID, session: String?) throws -> [WebhookRecord] {
        // One statement per filter, so that a session's deliveries come from (project, session,
        // created_at, outbox_id) in order.
        guard let session else {
            return try connection.fetchAll(WebhookRecord.self, "SELECT * FROM asleep_webhooks WHERE project_id = ? ORDER BY created_at, outbox_id", project)
        }
        return try connection.fetchAll(
            WebhookRecord.self, "SELECT * FROM asleep_webhooks WHERE project_id = ? AND session_id = ? ORDER BY created_at, outbox_id",
            project, session)
    }

    /// Up to `limit` pending deliveries due at `now` (real time), oldest first.
    func dueWebhooks(now: Date, limit: Int) throws -> [WebhookRecord] {
        try connection.fetchAll(
            WebhookRecord.self, "SELECT * FROM asleep_webhooks WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY created_at, id LIMIT ?",
            now.timeIntervalSince1970, limit)
    }

    /// The due webhooks (as `dueWebhooks`), each with its next attempt moved `lease` seconds on,
    /// inside the caller's write: the claim that keeps two senders off one webhook.
    func claimDueWebhooks(now: Date, lease: TimeInterval, limit: Int) throws -> [WebhookRecord] {
        let due = try dueWebhooks(now: now, limit: limit)
        for webhook in due {
            try connection.run("UPDATE asleep_webhooks SET next_attempt_at = ? WHERE id = ?", now.timeIntervalSince1970 + lease, webhook.id)
        }
        return due
    }

    /// Records one delivery attempt on the webhook and its outbox row.
    func recordAttempt(
        webhook: WebhookRecord, status: WebhookStatus, attempts: Int, lastStatus: Int?, lastError: String?,
        nextAttempt: Date, projectNow: Date
    ) throws {
        try connection.run(
            "UPDATE asleep_webhooks SET status = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ? WHERE id = ?",
            status.rawValue, attempts, lastStatus, lastError, nextAttempt.timeIntervalSince1970, webhook.id)
        try Outbox.markAttempt(connection, id: webhook.outboxID, status: status.rawValue, error: lastError, now: projectNow)
    }
}
