/// What the journal's table holds, in the order it was written, as eviction needs it: each
/// entry's id, project, counted bytes and the shared bodies it names.
///
/// Once the journal is full, every entry written means one evicted, and finding out what to
/// evict by reading the table (the cutoff id, the count per project, the bodies the evicted
/// entries name) read every evicted row three more times before the `DELETE` read it again:
/// a third of what the journal's threads spent per request. The ledger knows all of it, so an
/// eviction is the `DELETE` alone.
///
/// Only the journal's writer touches it, inside its write jobs, so it changes in the same order
/// as the table. Rows written before the ledger began (by an earlier run, or before a failed job
/// made the journal start the ledger over) are not listed: while any may be left, eviction reads
/// the table as before, and the ledger only follows what that eviction deleted.
struct JournalLedger: Sendable {
    /// One entry of the table.
    struct Item: Sendable, Equatable {
        var id: Int
        var project: ProjectID?
        /// What the byte bound counts for it (`stored_bytes`).
        var bytes: Int
        var requestBodyRef: Int?
        var responseBodyRef: Int?
        /// What the shared bodies this entry stored anew count. Eviction expects them back with
        /// the entry: exact for a body no later entry names (an upload), early for one that later
        /// entries name too (it comes back with the last of them, and a later eviction goes on).
        var storedBodyBytes = 0
    }

    /// What one eviction deletes: every entry with an id up to `cutoff`.
    struct Eviction: Equatable {
        var cutoff: Int
        var count = 0
        /// The deleted entries' own bytes (the bodies they free are counted as they are deleted).
        var bytes = 0
        /// Entries per project; requests with no project under "", as `journal_evictions` counts them.
        var perProject: [String: Int] = [:]
        /// The shared bodies the deleted entries name (kept while other entries still name them).
        var bodies: Set<Int> = []
    }

    /// Written order; `items[..<head]` are gone (dropped in bulk once they are half the array).
    private var items: [Item] = []
    private var head = 0
    /// Rows with an id up to this may be in the table without being listed; nil once none can be.
    private(set) var unlistedThrough: Int?
    /// The highest id ever listed (kept when the ledger starts over: those rows may still be there).
    private var highestID = 0

    /// A ledger of a table whose rows up to `unlistedThrough` (nil: none) it does not know.
    init(unlistedThrough: Int?) {
        self.unlistedThrough = unlistedThrough
    }

    /// Entries listed.
    var count: Int { items.count - head }

    /// Lists an entry just inserted.
    mutating func append(_ item: Item) {
        items.append(item)
        highestID = max(highestID, item.id)
    }

    /// What to delete so that at least `count` entries and `bytes` bytes go, oldest first; nil
    /// while the table may hold rows the ledger does not list (the table decides then).
    ///
    /// Ids are reserved when a request arrives and written when it is answered, so a slow
    /// request's entry can follow entries with higher ids: everything up to the cutoff goes,
    /// wherever it was written, as `DELETE … WHERE id <= cutoff` deletes it.
    func plan(count: Int, bytes: Int) -> Eviction? {
        guard unlistedThrough == nil, count > 0 || bytes > 0 else { return nil }
        var cutoff = 0, coveredCount = 0, coveredBytes = 0, index = head
        while index < items.count, coveredCount < count || coveredBytes < bytes {
            cutoff = max(cutoff, items[index].id)
            coveredCount += 1
            coveredBytes += items[index].bytes + items[index].storedBodyBytes
            index += 1
        }
        guard cutoff > 0 else { return nil }
        var eviction = Eviction(cutoff: cutoff)
        for item in items[head...] where item.id <= cutoff {
            eviction.count += 1
            eviction.bytes += item.bytes
            eviction.perProject[item.project ?? "", default: 0] += 1
            if let ref = item.requestBodyRef { eviction.bodies.insert(ref) }
            if let ref = item.responseBodyRef { eviction.bodies.insert(ref) }
        }
        return eviction
    }

    /// Forgets the entries `eviction` deleted.
    mutating func remove(_ eviction: Eviction) {
        var removed = 0
        while head < items.count, items[head].id <= eviction.cutoff {
            head += 1
            removed += 1
        }
        // Entries written out of id order, behind the first one above the cutoff.
        if removed < eviction.count { removeAll { $0.id <= eviction.cutoff } }
        compact()
    }

    /// Follows an eviction that read the table: every entry up to `cutoff` is gone, and once that
    /// covers every unlisted row, the ledger lists the whole table.
    mutating func tableEvicted(through cutoff: Int) {
        removeAll { $0.id <= cutoff }
        if let unlisted = unlistedThrough, cutoff >= unlisted { unlistedThrough = nil }
    }

    /// Forgets a project's entries (they were cleared).
    mutating func remove(project: ProjectID) { removeAll { $0.project == project } }

    /// Starts over knowing nothing: a write job failed, so what the table holds is no longer
    /// certain. Rows up to `reservedThrough` (every id reserved so far) or any id ever listed may
    /// exist unlisted.
    mutating func startOver(reservedThrough: Int) {
        items = []
        head = 0
        unlistedThrough = max(reservedThrough, highestID, unlistedThrough ?? 0)
    }

    /// The listed entries, oldest first (tests).
    var listed: [Item] { Array(items[head...]) }

    private mutating func removeAll(where gone: (Item) -> Bool) {
        items.removeSubrange(..<head)
        head = 0
        items.removeAll(where: gone)
    }

    private mutating func compact() {
        guard head >= 4096, head * 2 >= items.count else { return }
        items.removeSubrange(..<head)
        head = 0
    }
}
