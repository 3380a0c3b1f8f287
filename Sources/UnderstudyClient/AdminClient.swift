import Foundation

/// The control plane (`/__admin`).
public struct AdminClient: Sendable {
    let http: ClientHTTP
    let adminToken: String?

    private func send(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        var request = request
        if let adminToken { request.headers["X-Understudy-Admin-Token"] = adminToken }
        return try await http.send(request)
    }

    /// Liveness: true when `/__admin/health` answers 200.
    public func health() async throws(UnderstudyClientError) -> Bool {
        try await send(ClientRequest(method: "GET", path: "/__admin/health")).status == 200
    }

    /// Readiness: true when `/__admin/ready` answers 200.
    public func ready() async throws(UnderstudyClientError) -> Bool {
        try await send(ClientRequest(method: "GET", path: "/__admin/ready")).status == 200
    }

    /// Creates a project with fresh credentials for all four platforms.
    public func createProject(name: String? = nil, id: String? = nil, seed: UInt64? = nil,
                              credentials: [String: [String: String]]? = nil) async throws(UnderstudyClientError) -> Project {
        struct Body: Encodable { var name: String?; var id: String?; var seed: UInt64?; var credentials: [String: [String: String]]? }
        return try await send(.json("POST", "/__admin/projects", Body(name: name, id: id, seed: seed, credentials: credentials))).expect(201)
    }

    /// Every project on the server, the demo project included.
    public func projects() async throws(UnderstudyClientError) -> [Project] {
        struct List: Decodable { var projects: [Project] }
        return try await send(ClientRequest(method: "GET", path: "/__admin/projects")).expect(200, as: List.self).projects
    }

    /// The control plane of one project.
    public func project(_ id: String) -> ProjectAdmin { ProjectAdmin(admin: self, id: id) }

    /// Adds a fault rule for every project.
    public func addGlobalFault(_ rule: FaultRule) async throws(UnderstudyClientError) -> FaultRule {
        try await send(.json("POST", "/__admin/faults", rule)).expect(201)
    }

    /// Global fault rules.
    public func globalFaults() async throws(UnderstudyClientError) -> [FaultRule] {
        struct List: Decodable { var rules: [FaultRule] }
        return try await send(ClientRequest(method: "GET", path: "/__admin/faults")).expect(200, as: List.self).rules
    }

    /// Removes every global fault rule.
    public func removeGlobalFaults() async throws(UnderstudyClientError) {
        try await send(ClientRequest(method: "DELETE", path: "/__admin/faults")).expect(204)
    }

    /// The OpenAPI document of the control plane (`nil`) or of a platform.
    public func openAPI(_ platform: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        let path = platform.map { "/__admin/openapi/\($0).json" } ?? "/__admin/openapi.json"
        return try await send(ClientRequest(method: "GET", path: path)).expect(200)
    }

    /// Sends a request under `/__admin` (for platform control routes; adds the admin token).
    public func raw(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        try await send(request)
    }
}

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

    /// Journalled requests, newest first.
    public func requests(_ query: JournalQuery = JournalQuery()) async throws(UnderstudyClientError) -> JournalPage {
        var items: [(String, String)] = []
        if let value = query.platform { items.append(("platform", value)) }
        if let value = query.method { items.append(("method", value)) }
        if let value = query.path { items.append(("path", value)) }
        if let value = query.status { items.append(("status", String(value))) }
        if let value = query.since { items.append(("since", String(value))) }
        if let value = query.limit { items.append(("limit", String(value))) }
        return try await admin.raw(ClientRequest(method: "GET", path: base + "/requests", query: items)).expect(200)
    }

    /// Waits until `count` matching requests exist; throws `unexpectedStatus(408, …)` on timeout.
    public func waitForRequests(_ query: JournalQuery = JournalQuery(), count: Int = 1, timeoutMs: Int = 5_000) async throws(UnderstudyClientError) -> JournalPage {
        struct Body: Encodable {
            var platform: String?, method: String?, path: String?, status: Int?, since: Int?, count: Int, timeoutMs: Int
        }
        let body = Body(platform: query.platform, method: query.method, path: query.path, status: query.status, since: query.since,
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
    public func platformRequest(_ platform: String, _ method: String, _ path: String, json: AnyJSON? = nil,
                                query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        var request = ClientRequest(method: method, path: base + "/" + platform + path, query: query)
        if let json {
            request = try .json(method, base + "/" + platform + path, json)
            request.query = query
        }
        return try await admin.raw(request)
    }
}
