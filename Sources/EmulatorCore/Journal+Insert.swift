import Foundation
import HTTPServer
import Storage

/// Writing batches: rows, their bodies and eviction past the bounds.
extension Journal {
    /// Inserts `batch`, evicting the oldest entries past the bounds.
    ///
    /// Up to `entriesPerYield` rows go in one multi-row `INSERT`, bound as `SQLValue`s: a statement
    /// per row looked its 400-character SQL up, bound 22 values through the protocol and stepped
    /// and reset SQLite's program once per request.
    func insert(_ batch: [StoredEntry], connection: any StoreConnection) throws {
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
    func evictPastBounds(adding batch: [StoredEntry], sharedBytes: Int, connection: any StoreConnection) throws {
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
        /// `UnmatchedRequest` as JSON, for a request meant for an emulated service that matched no project.
        var unmatched: String? = nil
        /// The app installation the request concerns, when its platform's checks named one.
        var device: String? = nil
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
        let unmatched = exchange.unmatched?.stored
        return StoredEntry(
            id: exchange.id, time: Timestamp.format(exchange.time), projectID: exchange.projectID, platform: exchange.platform,
            method: exchange.request.method.rawValue, path: exchange.path, route: exchange.route, query: exchange.request.query,
            status: exchange.status, durationMs: (exchange.durationMs * 1000).rounded() / 1000,
            requestHeaders: requestHeaders.json, requestBody: requestBody, requestBodyKey: requestBodyKey, requestBodySize: exchange.request.body.count,
            responseHeaders: responseHeaders.json, responseBody: responseBody, responseBodyKey: responseBodyKey,
            responseBodySize: exchange.responseBody.count,
            fault: exchange.fault, via: exchange.request.journalVia, proxyHost: exchange.request.journalProxyHost, unmatched: unmatched,
            device: exchange.device,
            storedBytes: (requestBodyKey == nil ? requestBody?.storedCount ?? 0 : 0) + (responseBodyKey == nil ? responseBody?.storedCount ?? 0 : 0)
                + 256 + requestHeaders.bytes + responseHeaders.bytes + (unmatched?.utf8.count ?? 0) + (exchange.device?.utf8.count ?? 0))
    }

    /// Stores the shared bodies `entry` names and appends its row's values (in `insertColumns`
    /// order) to `values`; returns the shared bodies it names, and what those it stored anew count.
    func place(_ entry: StoredEntry, into values: inout [SQLValue], connection: any StoreConnection) throws
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
        values.append(text(entry.unmatched)); values.append(text(entry.device))
        return (request.ref, response.ref, added)
    }

    /// The journal row's columns, in the order `place` appends their values.
    static let insertColumns = [
        "id", "project_id", "time", "platform", "method", "path", "route", "query", "status", "duration_ms",
        "request_headers", "request_body", "request_body_size", "response_headers", "response_body", "response_body_size",
        "fault", "stored_bytes", "via", "proxy_host", "request_body_ref", "response_body_ref", "unmatched", "device",
    ]
    static let columnsPerRow = insertColumns.count

    /// `INSERT`s of 1…`entriesPerYield` rows, made once (index: rows − 1).
    static let insertStatements: [String] = (1...entriesPerYield).map { rows in
        let row = "(" + Array(repeating: "?", count: columnsPerRow).joined(separator: ", ") + ")"
        return "INSERT INTO journal (" + insertColumns.joined(separator: ", ") + ") VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    static func insertSQL(rows: Int) -> String { insertStatements[rows - 1] }
}
