import Foundation
import Storage
import Synchronization

/// The journal's shared bodies: a body of `minimumBytes` or more is stored once in
/// `journal_bodies` while recent entries carry the same bytes, and entries name it by id.
///
/// A polling SDK gets the same 43 KB trip list back at every poll. Writing each copy into the
/// log and then into the file was most of what journalling such an answer cost, and under load
/// it kept the disk busy enough to stall every other write behind it.
///
/// Only the writer touches the cache of stored bodies (inside its write jobs, one at a time), so
/// what it says is always what the database holds: a body deleted by an eviction or a clear is
/// forgotten in the same job, and a job that fails forgets everything.
final class JournalBodies: Sendable {
    /// A body as the cache compares it: the bytes as received, and their hash.
    struct Key: Sendable {
        /// `hash(bytes)`.
        let hash: UInt64
        /// The raw body (before the capture cap and redaction: the stored text follows from them).
        let bytes: Data
    }

    /// Bodies smaller than this stay in their entry: an id and an index entry cost about as much.
    static let minimumBytes = 1024
    /// Bodies larger than this stay in their entry too: the caches would hold on to them, and
    /// uploads that large are seldom sent twice.
    static let maximumBytes = 1 << 20

    /// Bodies by hash with a value each (an id, a text); past `maxEntries` bodies or `maxBytes`
    /// of them, the oldest are forgotten first.
    private struct Recent<Value> {
        private var byHash: [UInt64: (bytes: Data, value: Value)] = [:]
        /// Hashes in insertion order (at most a few hundred: removing the first is cheap).
        private var order: [UInt64] = []
        private var heldBytes = 0
        let maxEntries: Int
        let maxBytes: Int

        init(maxEntries: Int, maxBytes: Int) {
            self.maxEntries = maxEntries
            self.maxBytes = maxBytes
        }

        var count: Int { byHash.count }

        /// The value of the body with `key`'s bytes, compared byte for byte.
        func value(for key: Key) -> Value? {
            guard let recent = byHash[key.hash], recent.bytes == key.bytes else { return nil }
            return recent.value
        }

        /// Keeps `value` for `key`'s bytes; a different body with the same hash loses its slot.
        mutating func insert(_ value: Value, for key: Key) {
            if let replaced = byHash.updateValue((key.bytes, value), forKey: key.hash) {
                heldBytes -= replaced.bytes.count
            } else {
                order.append(key.hash)
            }
            heldBytes += key.bytes.count
            while byHash.count > maxEntries || heldBytes > maxBytes, !order.isEmpty {
                if let gone = byHash.removeValue(forKey: order.removeFirst()) { heldBytes -= gone.bytes.count }
            }
        }

        /// Forgets the bodies whose value `matches`.
        mutating func removeAll(where matches: (Value) -> Bool) {
            for (hash, recent) in byHash where matches(recent.value) {
                byHash[hash] = nil
                heldBytes -= recent.bytes.count
            }
            // Else the order would keep growing while removals, not the bounds, keep the count down.
            order.removeAll { byHash[$0] == nil }
        }
    }

    /// Ids of stored bodies, and the id the next one gets.
    private let stored: Mutex<(recent: Recent<Int>, nextID: Int)>
    /// The stored form of recent bodies, for the journal's flush queue: building the text of a
    /// 43 KB answer (UTF-8 check, secret scan, copy) cost 30 µs a request.
    private let texts = Mutex(Recent<Journal.StoredBody?>(maxEntries: 64, maxBytes: 8 << 20))

    /// Where bodies of `JournalBodyFile.minimumBytes` or more are kept, when the journal has a
    /// SQLite file of its own; nil keeps every body in `journal_bodies.body`.
    let file: JournalBodyFile?
    /// Whether a job deleted a body kept in `file` since `unnamedSegments(connection:)` last looked.
    private let deletedFromFile = Atomic<Bool>(false)

    /// A cache that numbers new bodies from `nextID`, holding at most `maxEntries` bodies and
    /// `maxBytes` of them (the bytes are the exchanges' own, kept alive a little longer), and
    /// keeping large ones in `file` when there is one.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    init(nextID: Int, maxEntries: Int = 256, maxBytes: Int = 16 << 20, file: JournalBodyFile? = nil) {
        stored = Mutex((Recent(maxEntries: maxEntries, maxBytes: maxBytes), nextID))
        self.file = file
    }

    /// The segments of `file` no stored body lies in any more, as the job on `connection` sees
    /// the table; checked only when a job deleted a body kept there since the last call. Their
    /// files go once that job's transaction commits (`JournalBodyFile.delete`).
    func unnamedSegments(connection: any StoreConnection) throws -> [Int] {
        guard let file, deletedFromFile.exchange(false, ordering: .relaxed) else { return [] }
        return try file.unnamedSegments(connection: connection)
    }

    /// The key of a body worth sharing, nil for a smaller one.
    static func key(_ bytes: Data) -> Key? {
        (minimumBytes...maximumBytes).contains(bytes.count) ? Key(hash: hash(bytes), bytes: bytes) : nil
    }

    /// A 64-bit hash of `bytes`, eight bytes a step in four independent lanes (the multiplies of
    /// one lane do not wait for another's): about 2 µs for a 43 KB answer. Equal hashes are
    /// compared byte for byte before a body is shared, so this only has to spread well.
    static func hash(_ bytes: Data) -> UInt64 {
        bytes.withUnsafeBytes { raw -> UInt64 in
            let count = raw.count
            let k0: UInt64 = 0x9E37_79B9_7F4A_7C15, k1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
            var a = k0 ^ UInt64(count), b = k1, c = k0 &* 3, d = k1 &* 5
            func mix(_ lane: inout UInt64, _ word: UInt64) {
                lane = (lane ^ word) &* k1
                lane ^= lane >> 29
            }
            var offset = 0
            while offset + 32 <= count {
                mix(&a, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                mix(&b, raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                mix(&c, raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
                mix(&d, raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
                offset += 32
            }
            while offset + 8 <= count {
                mix(&a, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0, shift: UInt64 = 0
            while offset < count {
                tail |= UInt64(raw[offset]) << shift
                shift += 8
                offset += 1
            }
            mix(&b, tail)
            var h = a ^ (b &* k0) ^ (c &* k1) ^ (d &* 0x1656_67B1_9E37_79F9)
            h ^= h >> 33
            h = h &* 0xFF51_AFD7_ED55_8CCD
            return h ^ (h >> 33)
        }
    }

    /// `Journal.storedBody(key.bytes, cap:)`, from the recent ones when the same bytes were
    /// stored lately. Runs on the journal's flush queue; `cap` is the journal's own.
    func body(for key: Key, cap: Int) -> Journal.StoredBody? {
        if let body = texts.withLock({ $0.value(for: key) }) { return body }
        let body = Journal.storedBody(key.bytes, cap: cap)
        texts.withLock { $0.insert(body, for: key) }
        return body
    }

    /// The id of the stored body with `key`'s bytes, inserting `body` as a new one when no
    /// cached one has them; `added` is what a new body counts against the byte bound (0 when an
    /// existing one is named). Runs inside a writer job.
    func id(for key: Key, body: Journal.StoredBody, connection: any StoreConnection) throws -> (id: Int, added: Int) {
        if let id = stored.withLock({ $0.recent.value(for: key) }) { return (id, 0) }
        let id = stored.withLock { stored -> Int in
            defer { stored.nextID += 1 }
            return stored.nextID
        }
        if let file, file.keeps(body.storedCount) {
            let position = try file.append(body)
            try connection.run(
                "INSERT INTO journal_bodies (id, body, stored_bytes, file_position) VALUES (?, ?, ?, ?)",
                id, Data(), body.storedCount, position)
        } else {
            try connection.run("INSERT INTO journal_bodies (id, body, stored_bytes) VALUES (?, ?, ?)", id, body, body.storedCount)
        }
        stored.withLock { $0.recent.insert(id, for: key) }
        return (id, body.storedCount)
    }

    /// Deletes those of `candidates` that no entry names any more (after entries were deleted),
    /// and has `cache` forget them; returns what the deleted bodies counted against the byte
    /// bound. Runs inside the write that deleted the entries.
    static func collect(_ candidates: Set<Int>, connection: any StoreConnection, cache: JournalBodies?) throws -> Int {
        guard !candidates.isEmpty else { return 0 }
        var deleted: Set<Int> = [], freed = 0
        for id in candidates.sorted() {
            let named =
                try connection.queryOne(
                    """
                    SELECT 1 AS named WHERE EXISTS (SELECT 1 FROM journal WHERE request_body_ref = ?)
                        OR EXISTS (SELECT 1 FROM journal WHERE response_body_ref = ?)
                    """, id, id) != nil
            guard !named else { continue }
            // A SELECT, then a DELETE: `DELETE … RETURNING` has SQLite build a temporary table for
            // the rows it returns, on every run (5.3 against 4.5 µs in SQLite alone), and an upload
            // evicts about one body.
            if let row = try connection.queryOne("SELECT stored_bytes, file_position FROM journal_bodies WHERE id = ?", id) {
                try connection.run("DELETE FROM journal_bodies WHERE id = ?", id)
                freed += try row.decode("stored_bytes", as: Int.self)
                if try row.decodeIfPresent("file_position", as: Int.self) != nil { cache?.deletedFromFile.store(true, ordering: .relaxed) }
            }
            deleted.insert(id)
        }
        if !deleted.isEmpty, let cache { cache.stored.withLock { $0.recent.removeAll(where: deleted.contains) } }
        return freed
    }

    /// The bodies named by the entries `whereSQL` selects (before they are deleted).
    static func named(where whereSQL: String, _ bindings: [any SQLBindable], connection: any StoreConnection) throws -> Set<Int> {
        var ids: Set<Int> = []
        for column in ["request_body_ref", "response_body_ref"] {
            for row in try connection.query("SELECT DISTINCT \(column) AS ref FROM journal WHERE \(whereSQL) AND \(column) IS NOT NULL", bindings: bindings) {
                ids.insert(try row.decode("ref"))
            }
        }
        return ids
    }

    /// Forgets every cached body: a write job that inserted some failed and rolled them back.
    func forgetAll() {
        stored.withLock { $0.recent.removeAll { _ in true } }
    }

    /// Bodies cached now (tests).
    var cachedCount: Int { stored.withLock { $0.recent.count } }
}
