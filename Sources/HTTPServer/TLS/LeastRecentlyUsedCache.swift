/// A bounded map that drops its least recently used entry when full: random SNI names can make
/// it churn but never grow past `capacity`.
///
/// Lookups and hits are O(1); an insertion into a full cache scans for the oldest entry, O(n). At
/// the default 1,024 entries that scan is a few microseconds, against the fraction of a millisecond
/// the certificate it makes room for took to mint, so a linked list would buy nothing measurable.
struct LeastRecentlyUsedCache<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var lastUse: UInt64
    }

    /// The most entries kept.
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0

    /// An empty cache holding at most `capacity` entries (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many entries are held.
    var count: Int { entries.count }

    /// The value for `key`, marking it the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard entries[key] != nil else { return nil }
        clock += 1
        entries[key]!.lastUse = clock
        return entries[key]!.value
    }

    /// Stores `value` for `key` as the most recently used, evicting the least recently used entry
    /// when the cache is full.
    mutating func insert(_ value: Value, for key: Key) {
        clock += 1
        if entries[key] == nil, entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        entries[key] = Entry(value: value, lastUse: clock)
    }

    /// Drops every entry.
    mutating func removeAll() {
        entries.removeAll()
    }
}
