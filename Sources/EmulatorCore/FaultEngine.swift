import Foundation
import HTTPServer
import Storage
import Synchronization

/// Holds fault rules (persisted, cached in memory for the request path) and decides which one
/// applies to a request.
public final class FaultEngine: Sendable {
    private struct Live: Sendable {
        var rule: FaultRule
        var expires: Date
        var generator: IDGenerator
        var matched = 0
        var hits = 0
        /// Counters changed since they were last written.
        var dirty = false
    }

    private let database: any Database
    private let rules = Mutex<[Live]>([])
    private let currentTime: @Sendable () -> Date
    /// Default lifetime of a rule that gives no `ttlSeconds`.
    public static let defaultTTL: Double = 600

    /// Creates the engine over `database`; call `load()` before serving. TTLs run on real time
    /// (`now` is injectable for tests), not a project clock: they exist so that a crashed test
    /// leaves no rule behind, whatever its project's clock says.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(database: any Database, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.currentTime = now
    }

    /// Loads unexpired rules from the database.
    public func load() async throws {
        let now = currentTime().timeIntervalSince1970
        let rows = try await database.write { connection -> [Row] in
            try connection.run("DELETE FROM fault_rules WHERE expires_at IS NOT NULL AND expires_at <= ?", now)
            return try connection.query("SELECT rule, expires_at, matched, hits FROM fault_rules ORDER BY created_at")
        }
        let loaded = try rows.compactMap { try Self.live($0, now: now) }
        rules.withLock { $0 = loaded }
    }

    /// Replaces the cached rules of `project` with its stored ones (after a bundle import wrote them).
    public func reload(project: ProjectID) async throws {
        let now = currentTime().timeIntervalSince1970
        let rows = try await database.read { connection in
            try connection.query("SELECT rule, expires_at, matched, hits FROM fault_rules WHERE project_id = ? ORDER BY created_at, rowid", project)
        }
        let loaded = try rows.compactMap { try Self.live($0, now: now) }
        rules.withLock { all in
            all.removeAll { $0.rule.projectID == project }
            all.append(contentsOf: loaded)
        }
    }

    private static func live(_ row: Row, now: Double) throws -> Live? {
        // A rule stored by an older version that no longer decodes is dropped, not fatal: rules
        // are test scaffolding with a TTL, and refusing to start over one helps nobody.
        guard let data = row.data("rule"), let rule = try? JSONDecoder().decode(FaultRule.self, from: data) else { return nil }
        return Live(
            rule: rule, expires: Date(timeIntervalSince1970: try row.decodeIfPresent("expires_at", as: Double.self) ?? now + Self.defaultTTL),
            generator: IDGenerator(seed: rule.seed), matched: try row.decode("matched"), hits: try row.decode("hits"))
    }

    /// Adds a rule (validated by the caller) and returns it as stored.
    public func add(_ submitted: FaultRule, project: ProjectID?, id: String) async throws -> FaultRule {
        var rule = submitted
        rule.id = id
        rule.projectID = project
        let ttl = rule.ttlSeconds ?? Self.defaultTTL
        let expires = currentTime().addingTimeInterval(ttl)
        rule.ttlSeconds = ttl
        rule.expiresAt = Timestamp.format(expires)
        rule.matched = 0
        rule.hits = 0
        let stored = rule
        let encoded = try JSONEncoder().encode(stored)
        try await database.write { connection in
            try connection.run(
                "INSERT INTO fault_rules (id, project_id, rule, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                id, project, encoded, Timestamp.format(Date()), expires.timeIntervalSince1970)
        }
        rules.withLock { $0.append(Live(rule: stored, expires: expires, generator: IDGenerator(seed: stored.seed))) }
        return stored
    }

    /// Rules of one project (`project` nil: the global rules), with their counters — read afresh
    /// from a shared database, where other instances add rules and count their hits.
    public func list(project: ProjectID?) async throws -> [FaultRule] {
        if isShared { try await load() }
        let now = currentTime()
        return rules.withLock { all in
            all.removeAll { $0.expires <= now }
            return all.filter { $0.rule.projectID == project }.map { live in
                var rule = live.rule
                rule.matched = live.matched
                rule.hits = live.hits
                return rule
            }
        }
    }

    /// Removes one rule; false when there was no such rule in that scope.
    public func remove(id: String, project: ProjectID?) async throws -> Bool {
        let removed = rules.withLock { all -> Bool in
            let before = all.count
            all.removeAll { $0.rule.id == id && $0.rule.projectID == project }
            return all.count != before
        }
        if removed { try await database.write { try $0.run("DELETE FROM fault_rules WHERE id = ?", id) } }
        return removed
    }

    /// Removes every rule of a scope (`project` nil: the global rules).
    public func removeAll(project: ProjectID?) async throws {
        rules.withLock { $0.removeAll { $0.rule.projectID == project } }
        try await database.write { try $0.run("DELETE FROM fault_rules WHERE project_id IS ?", project) }
    }

    /// Forgets the rules of a deleted or reset project (their rows go with the project).
    public func forget(project: ProjectID) {
        rules.withLock { $0.removeAll { $0.rule.projectID == project } }
    }

    /// The action to apply to this request, if any rule fires. Counts matches and hits.
    /// `path` is the full routed path; `platformPrefix` lets rules name paths below the prefix.
    public func fire(platform: PlatformID, project: ProjectID?, method: HTTPMethod, path: String, headers: HTTPHeaders) -> (id: String, action: FaultRule.Action)? {
        let now = currentTime()
        return rules.withLock { all -> (String, FaultRule.Action)? in
            if all.isEmpty { return nil }
            all.removeAll { $0.expires <= now }
            for index in all.indices {
                let rule = all[index].rule
                if let scope = rule.projectID, scope != project { continue }
                guard Self.matches(rule.match, platform: platform, method: method, path: path, headers: headers) else { continue }
                all[index].matched += 1
                all[index].dirty = true
                if let after = rule.after, all[index].matched <= after { continue }
                if let times = rule.times, all[index].hits >= times { continue }
                if let probability = rule.probability, all[index].generator.unit() >= probability { continue }
                all[index].hits += 1
                return (rule.id ?? "", rule.action)
            }
            return nil
        }
    }

    /// Whether other instances share the rules and their counters (a PostgreSQL database): then
    /// `fireShared` counts in the database, so `times: 3` means three in total across instances.
    public var isShared: Bool { database.isShared }

    /// `fire` for a shared database: the rules that match are tried in order, and each match is
    /// counted by one transaction that locks the rule's row, so instances never both take the
    /// last of a rule's `times`. A database failure skips the rule (the request goes on unfaulted).
    public func fireShared(platform: PlatformID, project: ProjectID?, method: HTTPMethod, path: String, headers: HTTPHeaders) async -> (id: String, action: FaultRule.Action)? {
        let now = currentTime()
        let candidates = rules.withLock { all -> [(rule: FaultRule, draw: Double?)] in
            all.removeAll { $0.expires <= now }
            return all.indices.compactMap { index in
                let rule = all[index].rule
                if let scope = rule.projectID, scope != project { return nil }
                guard Self.matches(rule.match, platform: platform, method: method, path: path, headers: headers) else { return nil }
                return (rule, rule.probability == nil ? nil : all[index].generator.unit())
            }
        }
        for (rule, draw) in candidates {
            guard let id = rule.id else { continue }
            let outcome = try? await database.write { connection -> (fires: Bool, matched: Int, hits: Int)? in
                guard let row = try connection.queryOne("SELECT matched, hits FROM fault_rules WHERE id = ? FOR UPDATE", id) else { return nil }
                let matched = try row.decode("matched", as: Int.self) + 1
                var hits = try row.decode("hits", as: Int.self)
                var fires = !(rule.after.map { matched <= $0 } ?? false) && !(rule.times.map { hits >= $0 } ?? false)
                if let probability = rule.probability, let draw, draw >= probability { fires = false }
                if fires { hits += 1 }
                try connection.run("UPDATE fault_rules SET matched = ?, hits = ? WHERE id = ?", matched, hits, id)
                return (fires, matched, hits)
            }
            guard let outcome = outcome ?? nil else { continue }
            rules.withLock { all in
                if let index = all.firstIndex(where: { $0.rule.id == id }) { (all[index].matched, all[index].hits) = (outcome.matched, outcome.hits) }
            }
            if outcome.fires { return (id, rule.action) }
        }
        return nil
    }

    /// Writes the counters of rules that matched since the last call, so they survive a restart.
    /// Called after `fire` on the request path; costs nothing while no rule matches.
    public func persistCounters() async throws {
        let changed = rules.withLock { all -> [(String, Int, Int)] in
            var changed: [(String, Int, Int)] = []
            for index in all.indices where all[index].dirty {
                all[index].dirty = false
                changed.append((all[index].rule.id ?? "", all[index].matched, all[index].hits))
            }
            return changed
        }
        guard !changed.isEmpty else { return }
        try await database.write { connection in
            for (id, matched, hits) in changed {
                try connection.run("UPDATE fault_rules SET matched = ?, hits = ? WHERE id = ?", matched, hits, id)
            }
        }
    }

    static func matches(_ match: FaultRule.Match, platform: PlatformID, method: HTTPMethod, path: String, headers: HTTPHeaders) -> Bool {
        if let wanted = match.platform, wanted != platform.rawValue { return false }
        if let wanted = match.method, wanted.uppercased() != method.rawValue { return false }
        if let pattern = match.path {
            let relative = path.hasPrefix(platform.pathPrefix) ? String(path.dropFirst(platform.pathPrefix.count)) : path
            guard Glob.matches(pattern, path) || Glob.matches(pattern, relative) else { return false }
        }
        for (name, value) in match.headers ?? [:] where headers[name] != value { return false }
        return true
    }

    /// Parses the `X-Understudy-Fault` header: `;`-separated `key[=value]` items, e.g.
    /// `status=503`, `status=429;retryAfter=2`, `delay=300`, `reset`, `hang=5`, `closeAfterHeaders`,
    /// `truncate=10`, `malformedJSON`. Nil when it names no known action or a value is out of range.
    public static func parseHeader(_ text: String) -> FaultRule.Action? {
        guard case .success(let action) = readHeader(text) else { return nil }
        return action
    }

    /// The keys the `X-Understudy-Fault` header takes.
    public static let headerKeys = ["status", "delay", "hang", "reset", "closeAfterHeaders", "truncate", "malformedJSON", "retryAfter"]

    /// Why an `X-Understudy-Fault` header was refused, in a sentence for the client.
    public struct HeaderProblem: Error, Sendable, Equatable {
        /// The sentence.
        public var message: String
    }

    /// `parseHeader`, saying what is wrong: an unknown key (a misspelling must not pass as "no
    /// fault"), a value that is no number, one out of range, or no action at all.
    public static func readHeader(_ text: String) -> Result<FaultRule.Action, HeaderProblem> {
        func problem(_ sentence: String) -> Result<FaultRule.Action, HeaderProblem> {
            .failure(HeaderProblem(message: "X-Understudy-Fault: " + sentence))
        }
        var kind: FaultAction.Kind?
        var retryAfter: Int?
        for item in text.split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            guard let key = parts.first, !key.isEmpty else { continue }
            let value = parts.count > 1 ? parts[1] : nil
            func whole(_ fallback: Int?) -> Int?? {
                guard let value else { return .some(fallback) }
                return Int(value).map { .some($0) } ?? nil
            }
            switch key {
            case "status":
                guard let status = whole(500), let status else { return problem("`status` takes a whole number, as in status=503.") }
                kind = .status(status, body: nil)
            case "delay":
                guard let milliseconds = whole(1000), let milliseconds else { return problem("`delay` takes milliseconds, as in delay=300.") }
                kind = .delay(milliseconds: milliseconds)
            case "hang":
                if let value {
                    guard let seconds = Double(value) else { return problem("`hang` takes seconds, as in hang=5.") }
                    kind = .hang(milliseconds: (seconds * 1000).roundedInt() ?? -1)
                } else {
                    kind = .hang(milliseconds: FaultAction.defaultHangMilliseconds)
                }
            case "reset": kind = .reset
            case "closeAfterHeaders": kind = .closeAfterHeaders
            case "truncate":
                guard let bytes = whole(nil) else { return problem("`truncate` takes a byte count, as in truncate=10.") }
                kind = .truncate(bytes: bytes)
            case "malformedJSON": kind = .malformedJSON
            case "retryAfter":
                guard let seconds = value.flatMap({ Int($0) }) else { return problem("`retryAfter` takes seconds, as in retryAfter=2.") }
                retryAfter = seconds
            default:
                return problem("unknown key `\(key)`; the keys are \(headerKeys.joined(separator: ", ")).")
            }
        }
        guard let kind else { return problem("no fault named; use one of status, delay, hang, reset, closeAfterHeaders, truncate, malformedJSON.") }
        let action = FaultAction(kind, retryAfter: retryAfter)
        if let invalid = action.validationProblem { return problem(invalid) }
        return .success(action)
    }
}

/// Path globs for fault rules: `*` within one segment, `**` across segments.
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        matches(Array(pattern.utf8)[...], Array(text.utf8)[...])
    }

    private static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == UInt8(ascii: "*") {
            let crossesSegments = pattern.dropFirst().first == UInt8(ascii: "*")
            let rest = pattern.dropFirst(crossesSegments ? 2 : 1)
            var index = text.startIndex
            while true {
                if matches(rest, text[index...]) { return true }
                if index == text.endIndex { return false }
                if !crossesSegments && text[index] == UInt8(ascii: "/") { return false }
                index += 1
            }
        }
        guard let character = text.first, character == first else { return false }
        return matches(pattern.dropFirst(), text.dropFirst())
    }
}

extension FaultEngine {
    /// Whether `match` selects a `POST` request of `platform` to `path` with `headers` (for tests of the matcher).
    public static func matchesForTesting(_ match: FaultRule.Match, platform: PlatformID, path: String, headers: HTTPHeaders) -> Bool {
        matches(match, platform: platform, method: .post, path: path, headers: headers)
    }
}
