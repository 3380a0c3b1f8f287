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
    public func createProject(
        name: String? = nil, id: String? = nil, seed: UInt64? = nil,
        credentials: [String: [String: String]]? = nil
    ) async throws(UnderstudyClientError) -> Project {
        struct Body: Encodable { var name: String?; var id: String?; var seed: UInt64?; var credentials: [String: [String: String]]? }
        return try await send(.json("POST", "/__admin/projects", Body(name: name, id: id, seed: seed, credentials: credentials))).expect(201)
    }

    /// Every project on the server, the demo project included.
    public func projects() async throws(UnderstudyClientError) -> [Project] {
        struct List: Decodable { var projects: [Project] }
        return try await send(ClientRequest(method: "GET", path: "/__admin/projects")).expect(200, as: List.self).projects
    }

    /// Imports a project bundle (the bytes `ProjectAdmin.export()` returns) as a new project, with id
    /// `id` (else the bundle's), or in place of project `replacing`, atomically.
    public func importProject(_ bundle: Data, id: String? = nil, replacing: String? = nil) async throws(UnderstudyClientError) -> Project {
        var query: [(String, String)] = []
        if let id { query.append(("id", id)) }
        if let replacing { query.append(("replace", replacing)) }
        let request = ClientRequest(
            method: "POST", path: "/__admin/projects/import", query: query,
            headers: ["Content-Type": "application/json"], body: bundle)
        return try await send(request).expect(201)
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
