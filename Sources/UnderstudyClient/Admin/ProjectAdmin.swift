import Foundation

/// The control plane of one project: clock, faults, journal, snapshots, outbox.
public struct ProjectAdmin: Sendable {
    let admin: AdminClient
    /// The project id.
    public let id: String

    private var base: String { "/__admin/projects/\(ClientHTTP.encode(id))" }

    /// The project with its credentials, base URLs and clock.
    public func get() async throws(UnderstudyClientError) -> Project {
        try await admin.raw(ClientRequest(method: "GET", path: base)).expect(200)
    }

    /// Deletes the project and all its state.
    public func delete() async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: base)).expect(204)
    }

    /// The project's whole state as a bundle: the raw JSON bytes, to save as a file or import elsewhere.
    public func export() async throws(UnderstudyClientError) -> Data {
        let response = try await admin.raw(ClientRequest(method: "GET", path: base + "/export"))
        try response.expect(200)
        return response.body
    }

    /// Clears the project's state, keeping its credentials.
    public func reset() async throws(UnderstudyClientError) -> Project {
        try await admin.raw(ClientRequest(method: "POST", path: base + "/reset")).expect(200)
    }

    // MARK: Clock

    /// The project's clock now.
    public func clock() async throws(UnderstudyClientError) -> ClockState {
        try await admin.raw(ClientRequest(method: "GET", path: base + "/clock")).expect(200)
    }

    /// Freezes the clock at `date` (ISO 8601) or at the current time.
    public func freezeClock(at date: String? = nil) async throws(UnderstudyClientError) -> ClockState {
        try await setClock(["mode": "frozen", "now": date.map(AnyJSON.string) ?? .null])
    }

    /// Runs the clock from real time shifted by `seconds`.
    public func offsetClock(by seconds: Double) async throws(UnderstudyClientError) -> ClockState {
        try await setClock(["mode": "offset", "offsetSeconds": .double(seconds)])
    }

    /// Back to real time.
    public func realClock() async throws(UnderstudyClientError) -> ClockState {
        try await setClock(["mode": "real"])
    }

    /// Moves the clock forward.
    public func advanceClock(by seconds: Double) async throws(UnderstudyClientError) -> ClockState {
        try await admin.raw(.json("POST", base + "/clock/advance", ["seconds": seconds])).expect(200)
    }

    private func setClock(_ body: AnyJSON) async throws(UnderstudyClientError) -> ClockState {
        var object = body.object ?? [:]
        object = object.filter { !$0.value.isNull }
        return try await admin.raw(.json("PUT", base + "/clock", AnyJSON.object(object))).expect(200)
    }

    // MARK: Faults

    /// Adds a fault rule limited to this project.
    public func addFault(_ rule: FaultRule) async throws(UnderstudyClientError) -> FaultRule {
        try await admin.raw(.json("POST", base + "/faults", rule)).expect(201)
    }

    /// This project's rules, with counters.
    public func faults() async throws(UnderstudyClientError) -> [FaultRule] {
        struct List: Decodable { var rules: [FaultRule] }
        return try await admin.raw(ClientRequest(method: "GET", path: base + "/faults")).expect(200, as: List.self).rules
    }

    /// Removes one rule.
    public func removeFault(_ ruleID: String) async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: base + "/faults/\(ClientHTTP.encode(ruleID))")).expect(204)
    }

    /// Removes all of this project's rules.
    public func removeFaults() async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: base + "/faults")).expect(204)
    }

    // MARK: Journal

    /// Journalled requests, newest first. With `waitMs` (and `query.since`, the newest id seen) it is a
    /// long poll: the answer comes as soon as a newer entry matches, or empty after `waitMs`.
    public func requests(_ query: JournalQuery = JournalQuery(), waitMs: Int? = nil) async throws(UnderstudyClientError) -> JournalPage {
        try await admin.journalPage(path: base + "/requests", query: query, waitMs: waitMs)
    }

    /// The journal as a HAR 1.2 archive (oldest first), with the listing's filters: the bytes to
    /// save as a `.har` file or hand to a HAR reader.
    public func requestsHAR(_ query: JournalQuery = JournalQuery()) async throws(UnderstudyClientError) -> Data {
        let response = try await admin.raw(ClientRequest(method: "GET", path: base + "/requests.har", query: query.listingItems()))
        try response.expect(200)
        return response.body
    }

    /// Waits until `count` matching requests exist; throws `unexpectedStatus(408, …)` on timeout.
    /// Without `query.platform` it counts no control-plane call (the test's own seeding); `admin` waits for those.
    public func waitForRequests(_ query: JournalQuery = JournalQuery(), count: Int = 1, timeoutMs: Int = 5_000) async throws(UnderstudyClientError) -> JournalPage {
        struct Body: Encodable {
            var platform: String?, method: String?, path: String?, status: Int?, since: Int?, count: Int, timeoutMs: Int
        }
        // The wait route filters on fewer fields than the listing; a filter it would drop is refused, not ignored.
        guard query.statusClass == nil, query.before == nil, query.unmatched == nil, query.device == nil else {
            throw .encoding("waitForRequests takes no statusClass, before, unmatched or device; use requests(_:waitMs:) for those")
        }
        let body = Body(
            platform: query.platform, method: query.method, path: query.path, status: query.status, since: query.since,
            count: count, timeoutMs: timeoutMs)
        var request = try ClientRequest.json("POST", base + "/requests/wait", body)
        request.timeout = Double(timeoutMs) / 1000 + 10
        return try await admin.raw(request).expect(200)
    }

    /// Clears this project's journal.
    public func clearRequests() async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: base + "/requests")).expect(204)
    }

    // MARK: Snapshots

    /// Saves the project's state as `name`.
    public func saveSnapshot(_ name: String) async throws(UnderstudyClientError) -> SnapshotInfo {
        try await admin.raw(.json("POST", base + "/snapshots", ["name": name])).expect(201)
    }

    /// The saved snapshots.
    public func snapshots() async throws(UnderstudyClientError) -> [SnapshotInfo] {
        struct List: Decodable { var snapshots: [SnapshotInfo] }
        return try await admin.raw(ClientRequest(method: "GET", path: base + "/snapshots")).expect(200, as: List.self).snapshots
    }

    /// Restores snapshot `name`, atomically.
    public func restoreSnapshot(_ name: String) async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "POST", path: base + "/snapshots/\(ClientHTTP.encode(name))/restore")).expect(200)
    }

    /// Deletes snapshot `name`.
    public func deleteSnapshot(_ name: String) async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: base + "/snapshots/\(ClientHTTP.encode(name))")).expect(204)
    }

    // MARK: Outbox

    /// Recorded side effects, oldest first.
    public func outbox(platform: String? = nil, kind: String? = nil) async throws(UnderstudyClientError) -> [OutboxMessage] {
        struct List: Decodable { var messages: [OutboxMessage] }
        var items: [(String, String)] = []
        if let platform { items.append(("platform", platform)) }
        if let kind { items.append(("kind", kind)) }
        return try await admin.raw(ClientRequest(method: "GET", path: base + "/outbox", query: items)).expect(200, as: List.self).messages
    }

    /// Sends a request to this project's platform control routes: `path` is below
    /// `/__admin/projects/{id}/<platform>`, e.g. `platform: "warplink", path: "/links"`.
    public func platformRequest(
        _ platform: String, _ method: String, _ path: String, json: AnyJSON? = nil,
        query: [(String, String)] = []
    ) async throws(UnderstudyClientError) -> ClientResponse {
        var request = ClientRequest(method: method, path: base + "/" + platform + path, query: query)
        if let json {
            request = try .json(method, base + "/" + platform + path, json)
            request.query = query
        }
        return try await admin.raw(request)
    }
}

extension ProjectAdmin {
    /// Adds a fault rule limited to this project, given as JSON, so the server checks every member strictly.
    public func addFault(json rule: AnyJSON) async throws(UnderstudyClientError) -> FaultRule {
        try await admin.raw(.json("POST", "/__admin/projects/\(ClientHTTP.encode(id))/faults", rule)).expect(201)
    }
}
