import Foundation
import HTTPServer
import Synchronization

/// The integration checks: runs every rule over each observed SDK request as it is answered,
/// keeps what each rule remembers per project in memory, and turns breaches into findings,
/// stored with the project (`FindingStore`). Nothing here can fail a request: a store error is
/// logged, and the SDK's answer was made before the checks saw it.
///
/// Cost per request while the checks are on: the route group's `observe` step, a cached read of
/// the project's settings, one lock, and the rules of the request's platform, each a dictionary
/// lookup or two; a finding's write is queued off the request path (`PendingFindings`, merged
/// with others of the same row), and a reading of the findings waits for the queue first, so a
/// finding is never missing for want of a write.
public final class CheckEngine: Sendable {
    /// Whether the checks run at all (`--checks off` turns them off for the whole server).
    public let isEnabled: Bool
    /// Every rule the server knows: the generic ones, then each platform's.
    public let definitions: [RuleDefinition]

    private let rulesByPlatform: [PlatformID: [RuleEntry]]
    private let services: EmulatorServices
    private let metrics: EmulatorMetrics
    private let store: FindingStore
    private let memory = Mutex<[ProjectID: ProjectMemory]>([:])
    private let pending: PendingFindings

    /// The checks of `platforms` (their `checkRules` and the generic rules); throws on two rules with one id.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(services: EmulatorServices, platforms: [any Platform], metrics: EmulatorMetrics) throws {
        isEnabled = services.settings.checksEnabled
        self.services = services
        self.metrics = metrics
        store = FindingStore(database: services.database)
        pending = PendingFindings(store: store, logger: services.logger)
        let generic = GenericRules.all.enumerated().map { RuleEntry(index: $0.offset, id: $0.element.definition.id, rule: $0.element) }
        var definitions = GenericRules.all.map(\.definition)
        var byPlatform: [PlatformID: [RuleEntry]] = [:]
        for platform in platforms {
            let own = platform.checkRules.map { rule -> RuleEntry in
                defer { definitions.append(rule.definition) }
                return RuleEntry(index: definitions.count, id: rule.definition.id, rule: rule)
            }
            byPlatform[platform.id] = generic + own
        }
        var seen = Set<String>()
        for definition in definitions where !seen.insert(definition.id).inserted {
            throw AdminError(status: 500, code: "duplicate_rule", message: "Two integration checks are named `\(definition.id)`.")
        }
        rulesByPlatform = byPlatform
        self.definitions = definitions
        metrics.registerFindingRules(definitions.map(\.id))
    }

    /// The longest device name kept, in UTF-8 bytes (a longer one is cut; a cut character becomes U+FFFD).
    public static let maxDeviceBytes = 200

    /// The rule named `id`.
    public func definition(_ id: String) -> RuleDefinition? { definitions.first { $0.id == id } }

    // MARK: Observing requests

    /// Checks one answered SDK request: asks its route's `observe` step what it concerns, then
    /// runs the platform's rules. Called by the pipeline after faults, before the journal, which
    /// records the device returned (cut to `maxDeviceBytes`).
    func observe(
        _ request: Request, _ response: Response, observer: @Sendable (Request, EmulatorContext, Response) async -> Observation?,
        context: EmulatorContext, journalID: Int, routedPath: String
    ) async -> String? {
        guard isEnabled, let project = context.projectID, let platform = context.platform,
            var observation = await observer(request, context, response)
        else { return nil }
        // The device comes from the request: a client's 10 KB id would be kept in every key and row.
        if let device = observation.device, device.utf8.count > Self.maxDeviceBytes {
            observation.device = String(decoding: device.utf8.prefix(Self.maxDeviceBytes), as: UTF8.self)
        }
        let checked = CheckedRequest(
            journalID: journalID, project: project, platform: platform, request: request, path: routedPath, route: context.route,
            parameters: context.parameters, response: response, time: services.clocks.now(for: project).timeIntervalSince1970,
            duration: Double(MonotonicClock.nanoseconds() &- request.receivedAt) / 1e9, observation: observation,
            credentials: context.presentedCredentials)
        await evaluate(checked)
        return observation.device
    }

    /// Runs the rules over `request` and queues the write of each finding they raise.
    public func evaluate(_ request: CheckedRequest) async {
        guard let rules = rulesByPlatform[request.platform], !rules.isEmpty else { return }
        let settings = await settings(for: request.project)
        let count = definitions.count
        let raised = memory.withLock { all in
            all[request.project, default: ProjectMemory(rules: count)].run(rules, request, settings: settings)
        }
        guard !raised.isEmpty else { return }
        let replaced = Set(raised.flatMap { $0.rule.rule.supersedes })
        for (entry, violation) in raised where !replaced.contains(entry.id) {
            metrics.countFinding(rule: entry.id)
            let time = Date(timeIntervalSince1970: request.time)
            let finding = Finding(
                rule: entry.id, platform: request.platform, device: violation.device, firstSeen: time, lastSeen: time, count: 1,
                requests: violation.evidence, whatTheAppDid: violation.whatTheAppDid)
            pending.add(finding, project: request.project)
        }
    }

    /// The project's settings, from the project state cache (dropped whenever the project
    /// changes): one dictionary lookup per request. Unreadable settings are logged and the
    /// defaults used, so a broken document never stops the checks or a request.
    private func settings(for project: ProjectID) async -> CheckSettings {
        do {
            return try await services.projectCache.derived("checks.settings", project: project) { try await store.settings(project: project) }
        } catch {
            services.logger.error("the check settings could not be read", [("project", project), ("error", ErrorText.of(error))])
            return CheckSettings()
        }
    }

    // MARK: Reading and clearing

    /// Waits until every finding raised so far is stored.
    public func flush() async { await pending.flush() }

    /// Forgets what the rules remember of `project` (after a reset, a restore, a replacement, a
    /// deletion or clearing its findings), so nothing it did before counts afterwards.
    public func forget(project: ProjectID) {
        memory.withLock { _ = $0.removeValue(forKey: project) }
    }

    /// Forgets what the rules remember of one app installation of `project`: every trace whose
    /// key is the device or starts with it and a space (`CheckedRequest.target`), the keys rules
    /// give their traces by convention. A key of another shape stays until it ages out, which
    /// costs at most a finding.
    public func forget(project: ProjectID, device: String) {
        let prefix = device + " "
        memory.withLock { all in
            guard var kept = all[project] else { return }
            for index in kept.traces.indices {
                let before = kept.traces[index].count
                kept.traces[index] = kept.traces[index].filter { $0.key != device && !$0.key.hasPrefix(prefix) }
                kept.count -= before - kept.traces[index].count
            }
            all[project] = kept
        }
    }

    /// The project's findings, most recently seen first, after every pending write.
    public func findings(project: ProjectID) async throws -> [Finding] {
        await flush()
        return try await store.list(project: project)
    }

    /// Deletes the project's findings and forgets what its rules remember.
    public func clear(project: ProjectID) async throws {
        await flush()
        try await store.clear(project: project)
        forget(project: project)
    }

    /// The project's stored check settings, read fresh.
    public func storedSettings(project: ProjectID) async throws -> CheckSettings { try await store.settings(project: project) }

    /// Merges `patch` (RFC 7396) into the project's settings, checks the result and stores it.
    public func updateSettings(project: ProjectID, patch: JSONValue) async throws -> CheckSettings {
        guard case .object = patch else { throw AdminError.badRequest("The check settings must be a JSON object.", code: "invalid_settings") }
        let current = try await store.settings(project: project)
        let known = Set(definitions.map(\.id)).union(current.rules.keys)
        let settings = try CheckSettings.parse(SettingsDocument.merge(current.document, patch), known: known)
        try await store.save(settings, project: project)
        return settings
    }
}

/// A rule as the engine runs it: its place among all rules (where its traces are kept) and its id,
/// read once, since an existential's `definition` is a copy of five members.
private struct RuleEntry: Sendable {
    let index: Int
    let id: String
    let rule: any CheckRule
}

/// What the rules remember of one project: each rule's traces by key (in the order of
/// `CheckEngine.definitions`), and how many there are.
private struct ProjectMemory {
    /// Traces a project may keep before old ones are dropped.
    static let maxTraces = 4_096
    /// Traces older than this (seconds) go first.
    static let maxAge = 3_600.0

    var traces: [[String: Trace]]
    var count = 0

    init(rules: Int) { traces = Array(repeating: [:], count: rules) }

    /// Runs the rules the project has on over `request`, each with its own traces, keeping the count.
    mutating func run(_ rules: [RuleEntry], _ request: CheckedRequest, settings: CheckSettings) -> [(rule: RuleEntry, violation: Violation)] {
        var raised: [(rule: RuleEntry, violation: Violation)] = []
        let everyRule = settings.rules.isEmpty
        for entry in rules where everyRule || settings.isEnabled(entry.id) {
            let before = traces[entry.index].count
            if let violation = entry.rule.evaluate(request, memory: &traces[entry.index]) { raised.append((entry, violation)) }
            count += traces[entry.index].count - before
        }
        if count > Self.maxTraces { trim(now: request.time) }
        return raised
    }

    /// Drops traces older than `maxAge`, then everything if that was not enough: forgetting only
    /// ever costs a finding, never raises one.
    mutating func trim(now: Double) {
        for index in traces.indices { traces[index] = traces[index].filter { now - $0.value.time < Self.maxAge } }
        count = traces.reduce(0) { $0 + $1.count }
        if count > Self.maxTraces { (traces, count) = (Array(repeating: [:], count: traces.count), 0) }
    }
}

/// Findings waiting to be written, off the request path: one entry per project, rule and
/// device, so an app that breaks a rule on every request (a load test) costs a merge in memory
/// per request and one write per batch, not a write per request. One task drains the queue at a
/// time, each batch in one transaction after `gather` seconds in which more occurrences merge;
/// a reader waiting for the queue (`flush`) cuts that wait short.
private final class PendingFindings: Sendable {
    private struct Key: Hashable {
        var project: ProjectID
        var rule: String
        var device: String
    }

    private struct State {
        var queued: [Key: Finding] = [:]
        var order: [Key] = []
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var gathering: Task<Void, Never>?
    }

    /// How long a batch gathers before it is written.
    static let gather: UInt64 = 20_000_000

    private let state = Mutex(State())
    private let store: FindingStore
    private let logger: Logger

    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    init(store: FindingStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Queues one occurrence of `finding`, merged into one already waiting for the same row.
    func add(_ finding: Finding, project: ProjectID) {
        let key = Key(project: project, rule: finding.rule, device: finding.device)
        let start = state.withLock { state -> Bool in
            if var waiting = state.queued[key] {
                waiting.merge(finding)
                state.queued[key] = waiting
            } else {
                state.queued[key] = finding
                state.order.append(key)
            }
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if start { Task { await self.drain() } }
    }

    /// Waits until everything queued so far is written.
    func flush() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state -> Bool in
                guard state.draining || !state.queued.isEmpty else { return true }
                state.waiters.append(continuation)
                state.gathering?.cancel() // someone is reading: write now
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func drain() async {
        while true {
            let gathering = Task<Void, Never> { _ = try? await Task.sleep(nanoseconds: Self.gather) } // cancelled: only cut short
            let (go, idle) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                guard !state.queued.isEmpty else {
                    // Nothing left: this task stops, and whoever waited for the queue goes on.
                    state.draining = false
                    defer { state.waiters.removeAll() }
                    return (false, state.waiters)
                }
                state.gathering = gathering
                return (true, [])
            }
            guard go else {
                gathering.cancel()
                for waiter in idle { waiter.resume() }
                return
            }
            if state.withLock({ !$0.waiters.isEmpty }) { gathering.cancel() } // a reader came first
            await gathering.value
            let batch = state.withLock { state -> [(project: ProjectID, finding: Finding)] in
                state.gathering = nil
                let batch = state.order.compactMap { key in state.queued[key].map { (key.project, $0) } }
                state.queued.removeAll()
                state.order.removeAll()
                return batch
            }
            do {
                try await store.record(batch)
            } catch {
                // The batch as a whole failed (a project deleted meanwhile, the store gone): row by row, so one bad row loses only itself.
                for (project, finding) in batch {
                    do { try await store.record([(project, finding)]) } catch {
                        logger.error("a finding could not be saved", [("rule", finding.rule), ("project", project), ("error", ErrorText.of(error))])
                    }
                }
            }
        }
    }
}

extension Finding {
    /// `other`, a later occurrence of the same rule on the same device, added to this one.
    mutating func merge(_ other: Finding) {
        count += other.count
        firstSeen = min(firstSeen, other.firstSeen)
        if other.lastSeen >= lastSeen { whatTheAppDid = other.whatTheAppDid }
        lastSeen = max(lastSeen, other.lastSeen)
        requests = FindingStore.merged(requests, other.requests)
    }
}
