import Testing

@testable import EmulatorCore

@Suite("Credential index: derived values")
struct ProjectStateCacheTests {
    @Test("a derived value is loaded once, then served from the cache until its project changes")
    func cachedUntilInvalidated() {
        let index = ProjectStateCache()
        var loads = 0
        let load = { () -> String in
            loads += 1; return "v\(loads)"
        }
        #expect(index.derived("settings", project: "p", load: load) == "v1")
        #expect(index.derived("settings", project: "p", load: load) == "v1")
        #expect(index.derived("settings", project: "q", load: load) == "v2") // per project
        index.invalidate(project: "p")
        #expect(index.derived("settings", project: "p", load: load) == "v3")
        #expect(index.derived("settings", project: "q", load: load) == "v2") // another project's entry stays
        index.invalidateAll()
        #expect(index.derived("settings", project: "q", load: load) == "v4")
    }

    @Test("a value loaded while the project was invalidated is returned but not cached")
    func loadRacingAnInvalidation() {
        let index = ProjectStateCache()
        let stale = index.derived("settings", project: "p") { () -> String in
            index.invalidate(project: "p") // a control-plane write commits while this request loads
            return "old"
        }
        #expect(stale == "old")
        #expect(index.derived("settings", project: "p") { "new" } == "new")
    }

    @Test("a failing load caches nothing")
    func failingLoad() throws {
        struct Unreadable: Error {}
        let index = ProjectStateCache()
        #expect(throws: Unreadable.self) { try index.derived("settings", project: "p") { () throws -> Int in throw Unreadable() } }
        #expect(index.derived("settings", project: "p") { 7 } == 7)
    }
}
