#if canImport(CMalloc)
import CMalloc
#endif

/// How many heap arenas glibc's allocator may spread the server's threads over.
///
/// glibc hands a thread that finds its arena locked a new one, up to eight per core. The event
/// loops and the Dispatch threads behind the writers, the journal and the checkpoints came to
/// sit on a dozen arenas, and memory freed in one serves only the threads on it: over eight rounds
/// of the hot-path routes the live heap stayed at 57 MiB while the resident set rose from 135 to
/// 154 MiB before it levelled off at about 143. Capped at four arenas on two cores, six rounds
/// stayed at 109–117 MiB, at the same CPU per request (route medians 0.96–1.04 of uncapped in
/// three interleaved runs, every range spanning 1); two arenas cost resolve 8 % in lock waits.
enum MallocArenas {
    /// The cap for `cores` cores: two per core, at least four.
    static func limit(cores: Int) -> Int { max(4, 2 * cores) }

    /// Whether the environment already sets the cap, which glibc read at start-up and this must not
    /// override: `MALLOC_ARENA_MAX`, or the `glibc.malloc.arena_max` tunable.
    static func chosenByEnvironment(_ environment: [String: String]) -> Bool {
        environment["MALLOC_ARENA_MAX"] != nil || (environment["GLIBC_TUNABLES"] ?? "").contains("glibc.malloc.arena_max")
    }

    /// Caps the arenas for `cores` cores unless `environment` chose a cap; returns the cap set, nil
    /// when none was (the environment's choice, or an allocator other than glibc's).
    @discardableResult
    static func apply(cores: Int, environment: [String: String]) -> Int? {
        #if canImport(CMalloc)
        guard !chosenByEnvironment(environment) else { return nil }
        let arenas = limit(cores: cores)
        return cmalloc_set_arena_max(Int32(arenas)) == 1 ? arenas : nil
        #else
        return nil
        #endif
    }
}
