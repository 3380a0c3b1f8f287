import Foundation
import HTTPServer
import SQLiteStore
import Synchronization

/// The request journal: appended off the hot path in batches, bounded by count and bytes with
/// eviction counted per project, and queryable (with a wait) by tests.
public final class Journal: Sendable {
    /// What the request path hands over: the raw exchange. Turning it into an entry (header
    /// maps, redaction, body text) happens at flush time, off the request path.
    public struct Exchange: Sendable {
        /// The reserved id.
        public var id: Int
        /// Real time of arrival.
        public var time: Date
        /// Owning project.
        public var projectID: ProjectID?
        /// Platform name or `admin`.
        public var platform: String
        /// Path as routed.
        public var path: String
        /// Matched route pattern.
        public var route: String?
        /// The request.
        public var request: Request
        /// Response status (0: none sent).
        public var status: Int
        /// Response headers.
        public var responseHeaders: HTTPHeaders
        /// Response body.
        public var responseBody: Data
        /// Milliseconds spent.
        public var durationMs: Double
        /// Fault applied, if any.
        public var fault: String?

        /// Creates an exchange record.
        public init(
            id: Int, time: Date, projectID: ProjectID?, platform: String, path: String, route: String?, request: Request,
            status: Int, responseHeaders: HTTPHeaders, responseBody: Data, durationMs: Double, fault: String?
        ) {
            self.id = id
            self.time = time
            self.projectID = projectID
            self.platform = platform
            self.path = path
            self.route = route
            self.request = request
            self.status = status
            self.responseHeaders = responseHeaders
            self.responseBody = responseBody
            self.durationMs = durationMs
            self.fault = fault
        }
    }

    private struct Pending: Sendable {
        var entries: [Exchange] = []
        var flushScheduled = false
        /// Bodies (and a fixed share for the rest) of exchanges recorded and not yet committed.
        var backlogBytes = 0
        /// What the exchanges in `entries` counted against `backlogBytes`, given back once their batch commits.
        var entriesFootprint = 0
        /// The bodies of `entries` counted so far, by the address and length of their bytes: many
        /// answers can share one buffer (a cached 43 KB trip list), which is in memory once.
        var countedBodies: Set<BodyBuffer> = []
        /// Recorders waiting for the backlog to fall under its bound.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let database: any Database
    private let limits: JournalLimits
    private let nextIDValue: Atomic<Int>
    private let pending = Mutex(Pending())
    private let totals = Mutex<(count: Int, bytes: Int)>((0, 0))
    private let flushQueue = DispatchQueue(label: "understudy.journal.flush")
    /// Wakes the waits a recorded exchange may satisfy.
    private let signal = JournalSignal()
    private let evictions = Atomic<Int>(0)
    private let backlogWaits = Atomic<Int>(0)
    /// Large bodies stored once; nil on a database other instances share, whose writers would
    /// number bodies alike (each entry there keeps its own copy).
    let bodies: JournalBodies?
    /// What the table holds, for eviction without reading it. Not kept on a database other
    /// instances share, whose table holds their entries too (eviction reads the table there).
    let ledger: Mutex<JournalLedger>
    private let keepsLedger: Bool

    /// Entries and stored bytes the journal holds now, as its eviction bounds count them (read by the metrics).
    public var storedTotals: (entries: Int, bytes: Int) { totals.withLock { ($0.count, $0.bytes) } }
    /// Bytes of the journal's body segment files, spares included (0 without them; read by the metrics).
    public var bodyFileBytes: Int { bodies?.file?.fileBytes() ?? 0 }
    /// Entries evicted since the process started (a counter for the metrics; the per-project counts are in the database).
    public var evictedSinceStart: Int { evictions.load(ordering: .relaxed) }
    /// Requests since the process started that waited for the journal's writer to catch up
    /// (`JournalLimits.backlogBytes`): a counter for the metrics, so slow answers can be told apart.
    public var backlogWaitsSinceStart: Int { backlogWaits.load(ordering: .relaxed) }

    /// Creates the journal, continuing ids after what the database holds. With a `bodyDirectory`
    /// (a journal in a SQLite file of its own), large bodies are kept in segment files there
    /// (`JournalBodyFile`, in segments of `bodySegmentBytes`), and segments no stored body lies in
    /// any more are deleted now.
    @inline(never) // see Database.init: classes with Atomic/Mutex storage are allocated in their own module
    public init(database: any Database, limits: JournalLimits, bodyDirectory: String? = nil, bodySegmentBytes: Int = 16 << 20) throws {
        self.database = database
        self.limits = limits
        let (maxID, count, bytes, maxBodyID, maxPosition) = try database.withWriterBlocking { connection -> (Int, Int, Int, Int, Int?) in
            let row = try connection.queryOne(
                """
                SELECT coalesce(max(id), 0) AS max_id, count(*) AS n,
                    coalesce(sum(stored_bytes), 0) + (SELECT coalesce(sum(stored_bytes), 0) FROM journal_bodies) AS bytes,
                    (SELECT coalesce(max(id), 0) FROM journal_bodies) AS max_body_id,
                    (SELECT max(file_position) FROM journal_bodies) AS max_position
                FROM journal
                """)
            // Aggregates with coalesce: one row, never NULL (but the last).
            guard let row else { return (0, 0, 0, 0, nil) }
            return (
                try row.decode("max_id"), try row.decode("n"), try row.decode("bytes"), try row.decode("max_body_id"),
                try row.decodeIfPresent("max_position")
            )
        }
        nextIDValue = Atomic(maxID + 1)
        let file = try bodyDirectory.flatMap { directory in
            database.isShared || !limits.enabled
                ? nil : try JournalBodyFile(directory: directory, segmentBytes: bodySegmentBytes, highestPosition: maxPosition)
        }
        if let file {
            // Left by a crash between a body's write and its row's commit, or by evictions whose
            // files were still to be deleted when the last run ended.
            file.delete(try database.withWriterBlocking { try file.unnamedSegments(connection: $0) })
        }
        bodies = database.isShared ? nil : JournalBodies(nextID: maxBodyID + 1, file: file)
        // What an earlier run wrote is not listed: eviction reads the table until it is gone.
        keepsLedger = !database.isShared
        ledger = Mutex(JournalLedger(unlistedThrough: database.isShared ? .max : count > 0 ? maxID : nil))
        totals.withLock { $0 = (count, bytes) }
    }

    /// How long recorded exchanges wait to be written together. Readers never wait for it: a
    /// query (and so every wait and long poll) flushes first. Longer batches cost the log less:
    /// every transaction rewrites the table's last leaf and index pages whole, so batches of ~30
    /// entries (2 ms at 15k requests/s) wrote 2.4 KB of log per entry, each synced again by
    /// the checkpoint.
    static let gatherDelay = DispatchTimeInterval.milliseconds(20)

    /// Entries a flush converts, or inserts, between two `sched_yield()`s. A flush is a burst of
    /// milliseconds of CPU on one thread, and Linux lets it run on until its slice ends: a loop or
    /// a client woken on the same core meanwhile waited behind it (a request's 1–3 ms at one
    /// connection, every gather interval). Yielding lets it run; the flush goes on next.
    static let entriesPerYield = 16

    /// The platform name of what the proxy answered itself (a CONNECT, a forwarded request).
    public static let proxyPlatform = "proxy"

    /// Reserves the id of a request about to be answered.
    public func reserveID() -> Int { nextIDValue.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Reserves a request id that no other instance sharing the database will use (one database
    /// round trip there); this instance's own counter when the database is not shared, or while
    /// it cannot be reached (the request then fails with 503, and its journal write with it).
    public func reserveRequestID() async -> Int {
        guard database.isShared, let shared = try? await database.nextSharedRequestID() else { return reserveID() }
        return shared
    }

    /// Whether recording is on.
    public var isEnabled: Bool { limits.enabled }

    /// Queues an exchange; it is written within `gatherDelay`, and before any query runs.
    ///
    /// Returns at once unless more than `JournalLimits.backlogBytes` of recorded exchanges wait to
    /// be committed: then it returns once the writer caught up, so a request answered faster than
    /// the journal can write (a 43 KB trip list at full speed) slows to the journal's pace instead
    /// of piling exchanges up in memory (that backlog grew the process by 100 MB every 3 s).
    public func record(_ entry: Exchange) async {
        guard limits.enabled, !Self.isJournalRead(entry) else { return }
        let (schedule, overBound) = pending.withLock { state -> (Bool, Bool) in
            let footprint = Self.footprint(entry, counted: &state.countedBodies)
            state.entries.append(entry)
            state.backlogBytes += footprint
            state.entriesFootprint += footprint
            let overBound = state.backlogBytes > limits.backlogBytes
            if state.flushScheduled { return (false, overBound) }
            state.flushScheduled = true
            return (true, overBound)
        }
        // Woken waits query, and a query flushes first: they see this entry without waiting for the batch.
        signal.announce(project: entry.projectID)
        if schedule {
            // A delay gathers the requests of a burst into one transaction. The timer's
            // block hands the batch to the writer itself, without a task and a continuation
            // (two more thread wake-ups per batch). Nobody waits for this batch: a failed write
            // loses its entries, and the next flush reports nothing about it.
            flushQueue.asyncAfter(deadline: .now() + Self.gatherDelay) { [self] in
                let (batch, footprint) = takeBatch()
                enqueue(batch, footprint: footprint) { _ in }
            }
        }
        guard overBound else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = pending.withLock { state -> Bool in
                guard state.backlogBytes > limits.backlogBytes else { return false }
                state.waiters.append(continuation)
                return true
            }
            if waits { backlogWaits.add(1, ordering: .relaxed) } else { continuation.resume() }
        }
    }

    /// Where a body's bytes are: the same buffer, however many exchanges hold it.
    struct BodyBuffer: Hashable, Sendable {
        var address: UInt
        var count: Int
    }

    /// What an exchange counts against the backlog bound: 1 KB for its row, and its bodies, each
    /// body of `JournalBodies.minimumBytes` or more only once per batch however many exchanges
    /// share its buffer. Counting a shared 43 KB trip list in full for every answer made trips at
    /// 16 connections wait on the bound (112 waits in a 3 s run) for memory they did not hold.
    /// The exchanges keep their bodies alive until the batch is taken, so no buffer counted in
    /// `counted` can be freed and its address reused meanwhile.
    static func footprint(_ exchange: Exchange, counted: inout Set<BodyBuffer>) -> Int {
        func bytes(_ body: Data) -> Int {
            guard body.count >= JournalBodies.minimumBytes else { return body.count }
            let address = body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
            return counted.insert(BodyBuffer(address: address, count: body.count)).inserted ? body.count : 0
        }
        return 1024 + bytes(exchange.request.body) + bytes(exchange.responseBody)
    }

    /// Gives back what a committed (or failed) batch counted against the backlog, and lets the
    /// waiting recorders go once it is under its bound again.
    private func release(_ footprint: Int) {
        let waiters = pending.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.backlogBytes -= footprint
            guard state.backlogBytes <= limits.backlogBytes else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Takes everything recorded so far as entries, and lets the next record schedule a flush.
    /// Runs on `flushQueue`, which hands batches to the writer in the order they were taken.
    private func takeBatch() -> (entries: [StoredEntry], footprint: Int) {
        let (exchanges, footprint) = pending.withLock { state -> ([Exchange], Int) in
            let taken = (state.entries, state.entriesFootprint)
            state.entries = []
            state.entriesFootprint = 0
            state.countedBodies.removeAll(keepingCapacity: true)
            state.flushScheduled = false
            return taken
        }
        let cap = limits.bodyCaptureBytes
        var entries: [StoredEntry] = []
        entries.reserveCapacity(exchanges.count)
        for (index, exchange) in exchanges.enumerated() {
            if index > 0, index % Self.entriesPerYield == 0 { sched_yield() }
            entries.append(Self.stored(exchange, cap: cap, bodies: bodies))
        }
        return (entries, footprint)
    }

    /// Reading the journal is not itself recorded: a live view long-polling it would otherwise
    /// wake itself with its own previous poll, forever.
    static func isJournalRead(_ exchange: Exchange) -> Bool {
        exchange.request.method == .get && (exchange.route == "/__admin/projects/{id}/requests" || exchange.route == "/__admin/requests")
    }

    /// Writes everything queued so far, and returns only once every entry recorded before the
    /// call is committed: batches are handed to the writer queue in the order they were taken,
    /// so even an empty flush waits for a batch another flush took a moment earlier.
    ///
    /// Turning exchanges into entries (header maps, redaction, body text) runs on the journal's
    /// own serial queue, not inside the write: the writer, which every SDK write waits for, only
    /// inserts. Batches reach that queue in the order taken (dispatched under the lock), and it
    /// hands them to the writer in the same order.
    public func flush() async throws {
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            // Taken on the queue: whatever was recorded before this call is either in a batch
            // the queue already handed to the writer, or in this one.
            flushQueue.async { [self] in
                let (batch, footprint) = takeBatch()
                enqueue(batch, footprint: footprint) { continuation.resume(returning: $0) }
            }
        }
        if let failure { throw failure }
    }

    /// Inserts `batch` (evicting past the bounds) in the writer's next transaction, then gives
    /// back its `footprint` against the backlog bound.
    private func enqueue(_ batch: [StoredEntry], footprint: Int, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let unnamedSegments = Mutex<[Int]>([])
        database.enqueueWrite(
            { [self] connection in
                guard !batch.isEmpty else { return }
                do {
                    try insert(batch, connection: connection)
                    let unnamed = try bodies?.unnamedSegments(connection: connection) ?? []
                    unnamedSegments.withLock { $0 = unnamed }
                } catch {
                    // Rolled back with the job: bodies it inserted are gone again, and the ledger
                    // may list entries the table no longer holds.
                    bodies?.forgetAll()
                    startLedgerOver()
                    throw error
                }
            },
            completion: { [self] error in
                // A failed commit lost the bodies of every job in it (and brought back the rows that
                // named the unnamed segments).
                if error != nil {
                    bodies?.forgetAll()
                    startLedgerOver()
                } else {
                    bodies?.file?.delete(unnamedSegments.withLock { $0 })
                }
                release(footprint)
                completion(error)
            })
    }

    /// Inserts `batch`, evicting the oldest entries past the bounds.
    ///
    /// Up to `entriesPerYield` rows go in one multi-row `INSERT`, bound as `SQLValue`s: a statement
    /// per row looked its 400-character SQL up, bound 22 values through the protocol and stepped
    /// and reset SQLite's program once per request.
    private func insert(_ batch: [StoredEntry], connection: any StoreConnection) throws {
        var listed: [JournalLedger.Item] = []
        listed.reserveCapacity(keepsLedger ? batch.count : 0)
        var sharedBytes = 0
        var values: [SQLValue] = []
        values.reserveCapacity(Self.columnsPerRow * min(batch.count, Self.entriesPerYield))
        var start = 0
        while start < batch.count {
            if start > 0 { sched_yield() }
            let chunk = batch[start..<min(start + Self.entriesPerYield, batch.count)]
            values.removeAll(keepingCapacity: true)
            for entry in chunk {
                let refs = try place(entry, into: &values, connection: connection)
                sharedBytes += refs.added
                guard keepsLedger else { continue }
                listed.append(
                    JournalLedger.Item(
                        id: entry.id, project: entry.projectID, bytes: entry.storedBytes,
                        requestBodyRef: refs.request, responseBodyRef: refs.response, storedBodyBytes: refs.added))
            }
            try connection.run(Self.insertSQL(rows: chunk.count), values: values)
            start += chunk.count
        }
        if keepsLedger { ledger.withLock { ledger in for item in listed { ledger.append(item) } } }
        try evictPastBounds(adding: batch, sharedBytes: sharedBytes, connection: connection)
    }

    /// Counts `batch` and the shared bodies it stored (`sharedBytes`) into the totals and evicts
    /// the oldest entries once they are past a bound.
    private func evictPastBounds(adding batch: [StoredEntry], sharedBytes: Int, connection: any StoreConnection) throws {
        let added = batch.reduce(sharedBytes) { $0 + $1.storedBytes }
        let (count, bytes) = totals.withLock { totals -> (Int, Int) in
            totals.count += batch.count
            totals.bytes += added
            return totals
        }
        if count > limits.maxEntries || bytes > limits.maxBytes {
            // Down to 99% of each bound: a few hundred rows per eviction. Evicting down to
            // 90% deleted thousands of rows in one go, stalling every write queued behind it.
            let excessCount = count > limits.maxEntries ? count - limits.maxEntries * 99 / 100 : 0
            let excessBytes = bytes > limits.maxBytes ? bytes - limits.maxBytes * 99 / 100 : 0
            let evicted = try evict(count: excessCount, bytes: excessBytes, connection: connection)
            totals.withLock {
                $0.count -= evicted.count; $0.bytes -= evicted.bytes
            }
            evictions.add(evicted.count, ordering: .relaxed)
        }
    }

    /// An entry as its row is inserted: the header maps already JSON text, its size counted.
    struct StoredEntry: Sendable {
        var id: Int
        var time: String
        var projectID: ProjectID?
        var platform: String
        var method: String
        var path: String
        var route: String?
        var query: String
        var status: Int
        var durationMs: Double
        var requestHeaders: String
        var requestBody: StoredBody?
        /// Set when the request body is worth storing once (see `JournalBodies`).
        var requestBodyKey: JournalBodies.Key?
        var requestBodySize: Int
        var responseHeaders: String
        var responseBody: StoredBody?
        /// Set when the response body is worth storing once.
        var responseBodyKey: JournalBodies.Key?
        var responseBodySize: Int
        var fault: String?
        var via: String?
        var proxyHost: String?
        /// What the byte bound counts for the entry itself: the bodies it keeps in its own row,
        /// header names and values, and 256 for the rest. A shared body counts once, when it is
        /// stored (`JournalBodies.id(for:body:connection:)`).
        var storedBytes: Int
    }

    /// The row of `exchange`: headers as JSON (secrets redacted), bodies as text cut at `cap`;
    /// with `bodies`, large bodies keyed to be stored once (and their text reused when recent).
    static func stored(_ exchange: Exchange, cap: Int, bodies: JournalBodies? = nil) -> StoredEntry {
        // Repeated request headers are joined, as a proxy would; a response's last one wins.
        let requestHeaders = headerObject(exchange.request.headers, redacting: true, joiningRepeats: true)
        let responseHeaders = headerObject(exchange.responseHeaders, redacting: false, joiningRepeats: false)
        func body(_ bytes: Data) -> (body: StoredBody?, key: JournalBodies.Key?) {
            guard let bodies, let key = JournalBodies.key(bytes) else { return (storedBody(bytes, cap: cap), nil) }
            let body = bodies.body(for: key, cap: cap)
            return (body, body == nil ? nil : key)
        }
        let (requestBody, requestBodyKey) = body(exchange.request.body), (responseBody, responseBodyKey) = body(exchange.responseBody)
        return StoredEntry(
            id: exchange.id, time: Timestamp.format(exchange.time), projectID: exchange.projectID, platform: exchange.platform,
            method: exchange.request.method.rawValue, path: exchange.path, route: exchange.route, query: exchange.request.query,
            status: exchange.status, durationMs: (exchange.durationMs * 1000).rounded() / 1000,
            requestHeaders: requestHeaders.json, requestBody: requestBody, requestBodyKey: requestBodyKey, requestBodySize: exchange.request.body.count,
            responseHeaders: responseHeaders.json, responseBody: responseBody, responseBodyKey: responseBodyKey,
            responseBodySize: exchange.responseBody.count,
            fault: exchange.fault, via: exchange.request.journalVia, proxyHost: exchange.request.journalProxyHost,
            storedBytes: (requestBodyKey == nil ? requestBody?.storedCount ?? 0 : 0) + (responseBodyKey == nil ? responseBody?.storedCount ?? 0 : 0)
                + 256 + requestHeaders.bytes + responseHeaders.bytes)
    }

    /// Stores the shared bodies `entry` names and appends its row's values (in `insertColumns`
    /// order) to `values`; returns the shared bodies it names, and what those it stored anew count.
    private func place(_ entry: StoredEntry, into values: inout [SQLValue], connection: any StoreConnection) throws
        -> (request: Int?, response: Int?, added: Int)
    {
        // A shared body leaves the entry's own column NULL and names the body instead.
        var added = 0
        func placeBody(_ body: StoredBody?, _ key: JournalBodies.Key?) throws -> (inline: StoredBody?, ref: Int?) {
            guard let body, let key, let bodies else { return (body, nil) }
            let placed = try bodies.id(for: key, body: body, connection: connection)
            added += placed.added
            return (nil, placed.id)
        }
        let request = try placeBody(entry.requestBody, entry.requestBodyKey), response = try placeBody(entry.responseBody, entry.responseBodyKey)
        func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
        func integer(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
        values.append(.integer(Int64(entry.id))); values.append(text(entry.projectID)); values.append(.text(entry.time))
        values.append(.text(entry.platform)); values.append(.text(entry.method)); values.append(.text(entry.path))
        values.append(text(entry.route)); values.append(.text(entry.query)); values.append(.integer(Int64(entry.status)))
        values.append(.real(entry.durationMs)); values.append(.text(entry.requestHeaders)); values.append(request.inline?.sqlValue ?? .null)
        values.append(.integer(Int64(entry.requestBodySize))); values.append(.text(entry.responseHeaders))
        values.append(response.inline?.sqlValue ?? .null); values.append(.integer(Int64(entry.responseBodySize)))
        values.append(text(entry.fault)); values.append(.integer(Int64(entry.storedBytes))); values.append(text(entry.via))
        values.append(text(entry.proxyHost)); values.append(integer(request.ref)); values.append(integer(response.ref))
        return (request.ref, response.ref, added)
    }

    /// The journal row's columns, in the order `place` appends their values.
    private static let insertColumns = [
        "id", "project_id", "time", "platform", "method", "path", "route", "query", "status", "duration_ms",
        "request_headers", "request_body", "request_body_size", "response_headers", "response_body", "response_body_size",
        "fault", "stored_bytes", "via", "proxy_host", "request_body_ref", "response_body_ref",
    ]
    private static let columnsPerRow = insertColumns.count

    /// `INSERT`s of 1…`entriesPerYield` rows, made once (index: rows − 1).
    private static let insertStatements: [String] = (1...entriesPerYield).map { rows in
        let row = "(" + Array(repeating: "?", count: columnsPerRow).joined(separator: ", ") + ")"
        return "INSERT INTO journal (" + insertColumns.joined(separator: ", ") + ") VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    private static func insertSQL(rows: Int) -> String { insertStatements[rows - 1] }

    /// Entries of a project (or of requests with no project when `project` is nil… use "" for those), newest first.
    public func query(project: ProjectID?, filter: JournalFilter) async throws -> (entries: [JournalEntry], evicted: Int) {
        try await flush()
        let limit = min(max(filter.limit ?? 100, 1), 1000)
        // A page can hold a thousand entries with 64 KiB bodies: read it off the event loop.
        return try await database.readOnPool { connection in
            var sql = " FROM journal WHERE 1 = 1"
            var bindings: [any SQLBindable] = []
            if let project { sql += " AND project_id = ?"; bindings.append(project) }
            if let platform = filter.platform { sql += " AND platform = ?"; bindings.append(platform) }
            if let method = filter.method { sql += " AND method = ?"; bindings.append(method.uppercased()) }
            if let status = filter.status { sql += " AND status = ?"; bindings.append(status) }
            if let via = filter.via { sql += via == "direct" ? " AND via IS NULL" : " AND via = ?"; if via != "direct" { bindings.append(via) } }
            if let proxyHost = filter.proxyHost { sql += " AND proxy_host = ?"; bindings.append(proxyHost.lowercased()) }
            if let since = filter.since { sql += " AND id > ?"; bindings.append(since) }
            if let before = filter.before { sql += " AND id < ?"; bindings.append(before) }
            if let statusClass = filter.statusClass {
                // Class 0 is "no response sent" (status 0), the others are the hundreds.
                sql += statusClass == 0 ? " AND status = 0" : " AND status >= ? AND status < ?"
                if statusClass != 0 { bindings.append(statusClass * 100); bindings.append(statusClass * 100 + 100) }
            }
            if let pattern = filter.path {
                // SQLite's GLOB (whose `*` also crosses `/`) keeps a superset of the matches, so
                // Swift's segment-aware glob below only looks at likely rows.
                let globs = [Self.sqliteGlob(pattern), "/*" + Self.sqliteGlob(pattern)]
                if connection.dialect == .postgres {
                    sql += " AND (path ~ ? OR path ~ ?)" // the same superset, as regular expressions
                    bindings += globs.map(SQLDialect.postgresRegex(fromGlob:))
                } else {
                    sql += " AND (path GLOB ? OR path GLOB ?)"
                    bindings += globs
                }
            }
            sql += " ORDER BY id DESC"
            guard let pattern = filter.path else {
                let entries = try connection.query("SELECT " + Self.entryColumns + sql + " LIMIT ?", bindings: bindings + [limit]).map { try self.entry($0) }
                return (entries, try Self.evicted(project, connection))
            }
            // Globs run in Swift, over the narrow columns: bodies are read only for the page itself.
            var ids: [Int] = []
            for row in try connection.query("SELECT id, platform, path" + sql, bindings: bindings) {
                let path: String = try row.decode("path"), platform: String = try row.decode("platform")
                guard path == pattern || Glob.matches(pattern, path) || Glob.matches(pattern, Self.relativePath(path, platform: platform)) else { continue }
                ids.append(try row.decode("id"))
                if ids.count >= limit { break }
            }
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            let entries =
                ids.isEmpty
                ? [] : try connection.query("SELECT \(Self.entryColumns) FROM journal WHERE id IN (\(placeholders)) ORDER BY id DESC", bindings: ids).map { try self.entry($0) }
            return (entries, try Self.evicted(project, connection))
        }
    }

    /// An entry's columns, with the shared bodies it names in `*_shared`, or where in the body
    /// file they are (`*_position`, `*_length`).
    private static let entryColumns = ["request", "response"].map { side in
        """
        (SELECT body FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_shared,
        (SELECT file_position FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_position,
        (SELECT stored_bytes FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_length
        """
    }.reduce("*") { $0 + ", " + $1 }

    /// Our glob as a looser SQLite GLOB: `**` → `*`, and SQLite's own `?` and `[` taken literally.
    static func sqliteGlob(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: "[", with: "[[]").replacingOccurrences(of: "?", with: "[?]").replacingOccurrences(of: "**", with: "*")
    }

    private static func evicted(_ project: ProjectID?, _ connection: any StoreConnection) throws -> Int {
        try project.map { try connection.scalar("SELECT evicted FROM journal_evictions WHERE project_id = ?", $0).int ?? 0 }
            ?? (try connection.scalar("SELECT coalesce(sum(evicted), 0) FROM journal_evictions").int ?? 0)
    }

    /// Waits until at least `count` entries match, or `timeout` passes. Returns what matched.
    ///
    /// The wait parks between queries and is woken by `record` (on this instance) or by the
    /// shared table's watcher (entries other instances wrote); an idle wait costs no CPU.
    public func wait(project: ProjectID?, filter: JournalFilter, count: Int, timeout: Double) async throws
        -> (entries: [JournalEntry], evicted: Int, satisfied: Bool)
    {
        // Callers bound the timeout (60 s for the routes); an hour caps what a library caller asks.
        let nanoseconds = timeout.isFinite ? (min(max(timeout, 0), 3_600) * 1e9).roundedInt() ?? 0 : 0
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        var wide = filter
        wide.limit = max(count, filter.limit ?? count)
        while true {
            // Read before the query: anything recorded while it runs makes the wait below return at once.
            let seen = signal.generation
            let last = try await query(project: project, filter: wide)
            if last.entries.count >= count { return (last.entries, last.evicted, true) }
            let watcher: (@Sendable () -> Void)? = database.isShared ? { @Sendable [self] in watchSharedTable() } : nil
            guard await signal.wait(after: seen, project: project, deadline: deadline, startWatcher: watcher) == .announced else {
                return (last.entries, last.evicted, false)
            }
        }
    }

    /// Makes every wait (and long poll) answer now with what it has, so a shutdown is not held
    /// up by an open dashboard.
    public func endWaits() { signal.end() }

    /// Waits parked now (read by the metrics).
    public var parkedWaits: Int { signal.parked }

    /// How often the watcher of a shared table looks for other instances' entries.
    static let sharedWatchInterval: Duration = .milliseconds(20)

    /// Ids below the newest that the shared table's watcher still counts: an instance commits its
    /// entries in batches after reserving their ids, so a lower id can appear after a higher one.
    static let sharedWatchWindow = 1_024

    /// On a database other instances share, their entries do not pass through `record` here: one
    /// task per instance reads the table every `sharedWatchInterval` while any wait is parked and
    /// wakes them all when it changed (one query per interval however many wait; each wait polling
    /// cost 100 waits ~6,000 transactions/s), and ends when none is left. What it reads is the
    /// newest id and how many entries lie within `sharedWatchWindow` ids of it, since ids are
    /// reserved before their batch commits: another instance's entry can land below one already seen.
    private func watchSharedTable() {
        Task { [self] in
            var seen: (floor: Int, newest: Int, count: Int)?
            repeat {
                if let read = try? await readSharedTable(after: seen) {
                    if seen == nil || seen?.newest != read.newest || seen?.count != read.count { signal.announceAll() }
                    seen = (read.floor, read.newest, read.countAboveFloor)
                }
                try? await Task.sleep(for: Self.sharedWatchInterval)
            } while !signal.releaseWatcherIfIdle()
        }
    }

    /// The newest id, and the entries above the last read's floor (`count`) and above the next
    /// read's (`countAboveFloor`, the window moved up behind the newest id): a count is only
    /// compared with one over the same ids.
    private func readSharedTable(after seen: (floor: Int, newest: Int, count: Int)?) async throws
        -> (floor: Int, newest: Int, count: Int, countAboveFloor: Int)
    {
        let window = Self.sharedWatchWindow
        return try await database.readOnPool { connection in
            let floor = try seen?.floor ?? max((connection.scalar("SELECT coalesce(max(id), 0) FROM journal").int ?? 0) - window, 0)
            let next = max((seen?.newest ?? 0) - window, floor)
            let row = try connection.queryOne(
                """
                SELECT coalesce(max(id), 0) AS newest, count(*) AS n, coalesce(sum(CASE WHEN id > ? THEN 1 ELSE 0 END), 0) AS above
                FROM journal WHERE id > ?
                """, next, floor)
            guard let row else { return (floor, seen?.newest ?? 0, 0, 0) }
            return (next, try row.decode("newest"), try row.decode("n"), try row.decode("above"))
        }
    }

    /// Deletes a project's entries (and its eviction count).
    public func clear(project: ProjectID) async throws {
        try await flush()
        let removed: (Int, Int)
        let unnamedSegments = Mutex<[Int]>([])
        do {
            removed = try await database.write { [self] connection -> (Int, Int) in
                let row = try connection.queryOne("SELECT count(*) AS n, coalesce(sum(stored_bytes), 0) AS bytes FROM journal WHERE project_id = ?", project)
                let named = try JournalBodies.named(where: "project_id = ?", [project], connection: connection)
                try connection.run("DELETE FROM journal WHERE project_id = ?", project)
                try connection.run("DELETE FROM journal_evictions WHERE project_id = ?", project)
                let freed = try JournalBodies.collect(named, connection: connection, cache: bodies)
                let unnamed = try bodies?.unnamedSegments(connection: connection) ?? []
                unnamedSegments.withLock { $0 = unnamed }
                ledger.withLock { $0.remove(project: project) }
                guard let row else { return (0, freed) }
                return (try row.decode("n"), try row.decode("bytes") + freed)
            }
        } catch {
            startLedgerOver()
            throw error
        }
        bodies?.file?.delete(unnamedSegments.withLock { $0 })
        totals.withLock {
            $0.count -= removed.0; $0.bytes -= removed.1
        }
    }

    /// Has the ledger forget what it listed: after a failed write, the table may hold less (or,
    /// after a failed clear, more) than it says. Every id reserved so far may be in the table.
    func startLedgerOver() {
        let reserved = nextIDValue.load(ordering: .relaxed)
        ledger.withLock { $0.startOver(reservedThrough: reserved) }
    }

    private static func relativePath(_ path: String, platform: String) -> String {
        let prefix = "/" + platform
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// A body column as journal text (`journalText(stored:)`), NULL when not captured.
    private static func text(_ row: Row, _ column: String) throws -> String? {
        try row.decodeIfPresent(column, as: Data.self).map(journalText(stored:))
    }

    private func entry(_ row: Row) throws -> JournalEntry {
        func headers(_ name: String) throws -> [String: String] {
            try JSONDecoder().decode([String: String].self, from: try row.decode(name, as: Data.self))
        }
        // The entry's own column, else the body file's bytes, else the shared body's column (empty
        // for a body kept in the file).
        func body(_ side: String) throws -> String? {
            if let text = try Self.text(row, side + "_body") { return text }
            if let position = try row.decodeIfPresent(side + "_body_position", as: Int.self) {
                return bodies?.file?.read(position: position, count: try row.decode(side + "_body_length")).map(Self.journalText(stored:))
            }
            return try Self.text(row, side + "_body_shared")
        }
        return JournalEntry(
            id: try row.decode("id"), time: try row.decode("time"), projectID: try row.decodeIfPresent("project_id"),
            platform: try row.decode("platform"), method: try row.decode("method"), path: try row.decode("path"),
            route: try row.decodeIfPresent("route"), query: try row.decode("query"), status: try row.decode("status"),
            durationMs: try row.decode("duration_ms"), requestHeaders: try headers("request_headers"),
            requestBody: try body("request"), requestBodySize: try row.decode("request_body_size"),
            responseHeaders: try headers("response_headers"), responseBody: try body("response"),
            responseBodySize: try row.decode("response_body_size"), fault: try row.decodeIfPresent("fault"),
            via: try row.decodeIfPresent("via"), proxyHost: try row.decodeIfPresent("proxy_host"))
    }

}
