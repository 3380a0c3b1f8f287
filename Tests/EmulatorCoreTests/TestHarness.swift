import EmulatorCore
import Foundation
import HTTPServer
import Storage

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PlatformID {
    /// The core tests' own platform: the core must work for a platform it has never heard of.
    static let testing = PlatformID("testing")
}

/// A minimal platform for exercising the core: items per project, kept in the outbox table.
struct TestPlatform: Platform {
    var id: PlatformID { .testing }

    func pathPrefix(forHost host: String) -> String? { host == "api.test.example" ? "/testing" : nil }

    func routes() -> [Route] {
        // The integration checks' installation: the `x-test-device` header, when sent.
        let observe: @Sendable (Request, EmulatorContext, Response) async -> Observation? = { request, context, _ in
            Observation(device: request.headers["x-test-device"], facts: context.noted)
        }
        var echo = Route(.post, "/echo") { request, context in
            context.note("echoed", "yes")
            let status = request.headers["x-test-status"].flatMap { Int($0) } ?? 200
            return .json(JSONValue.object(["status": .int(Int64(status))]), status: status)
        }
        echo.observe = observe
        var lookup = Route(.get, "/echo") { request, _ in
            let status = request.headers["x-test-status"].flatMap { Int($0) } ?? 200
            return .json(JSONValue.object(["status": .int(Int64(status))]), status: status)
        }
        lookup.observe = observe
        return [
            echo, lookup,
            Route(.post, "/items") { request, context in
                guard let project = context.projectID else { throw TestError(status: 401, message: "unknown key") }
                struct Body: Codable { var name: String }
                let body = try JSONBody.decode(Body.self, from: request)
                let now = context.now
                let id = try await context.database.write { connection in
                    try Outbox.add(
                        connection, project: project, platform: .testing, kind: "item", recipient: nil,
                        subject: body.name, payload: ["name": .string(body.name)], now: now)
                }
                return .json(JSONValue.object(["id": .int(Int64(id)), "name": .string(body.name), "createdAt": .string(Timestamp.format(now))]), status: 201)
            },
            Route(.get, "/items") { _, context in
                guard let project = context.projectID else { throw TestError(status: 401, message: "unknown key") }
                let items = try await context.services.outbox.list(project: project, kind: "item")
                return .json(JSONValue.object(["items": .array(items.map { .string($0.subject ?? "") })]))
            },
        ]
    }

    func adminRoutes() -> [AdminRoute] { [] }

    func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        .json(
            JSONValue.object(["error": ["code": .string("E\(failure.status)"), "message": .string(failure.message), "trace": .string(requestID)]]),
            status: failure.status)
    }

    func presentedCredentials(in request: Request) -> [PresentedCredential] {
        request.headers["x-test-key"].map { [PresentedCredential(kind: "key", value: $0)] } ?? []
    }

    func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        guard let project = try await services.project(forIssuedCredential: credential.value, platform: .testing) else { return nil }
        return CredentialRecord(project: project, kind: credential.kind, value: credential.value)
    }

    func makeCredentials(using generator: inout IDGenerator) -> [String: String] { ["key": "tk_" + generator.alphanumeric(16)] }
    func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {}
    func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] { ["endpoint": endpoints.baseURL + "/testing"] }
    var sdkConnection: SDKConnection { .baseURL(setting: "endpoint") }
    var projectTables: [String] { [] }
    func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {}
    func openAPIDocument() -> JSONValue { ["openapi": "3.1.0", "paths": [:]] }
}

struct TestError: FixedResponseError {
    let status: Int
    let message: String
    var response: Response { .json(JSONValue.object(["error": ["code": .string("E\(status)"), "message": .string(message)]]), status: status) }
}

/// An emulator with the test platform behind a real HTTP server on a free port.
final class Harness: Sendable {
    let emulator: Emulator
    let http: HTTPServer
    let baseURL: String
    let session: URLSession

    init(
        journal: JournalLimits = JournalLimits(), adminToken: String? = nil, proxy: ProxySettings = ProxySettings(),
        listensBeyondLoopback: Bool = false, allowedHosts: [AllowedHostName] = []
    ) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try migrator.migrate($0) }
        var settings = EmulatorSettings(journal: journal, adminToken: adminToken, proxy: proxy, listensBeyondLoopback: listensBeyondLoopback)
        settings.allowedHosts = allowedHosts
        let services = EmulatorServices(database: database, settings: settings)
        emulator = try Emulator(services: services, platforms: [TestPlatform()])
        try await emulator.load()
        http = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), application: emulator)
        let port = try http.start()
        baseURL = "http://127.0.0.1:\(port)"
        services.setListening(host: "127.0.0.1", port: port)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    func stop() async {
        await http.shutdown(gracePeriod: 1)
        session.finishTasksAndInvalidate()
    }

    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        var json: JSONValue? { try? JSONValue.parse(body) }
    }

    /// Answers a request in process, through the same pipeline, without a socket.
    func respond(_ method: String, _ path: String, json: JSONValue? = nil, headers: [String: String] = [:]) async -> Reply {
        var fields = HTTPHeaders()
        fields.add("Host", "127.0.0.1")
        for (name, value) in headers { fields.add(name, value) }
        if json != nil { fields.add("Content-Type", "application/json") }
        let response = await emulator.respond(to: Request(method: HTTPMethod(method), target: path, headers: fields, body: json?.encoded() ?? Data()))
        var replyHeaders: [String: String] = [:]
        for field in response.headers.fields { replyHeaders[field.name.lowercased()] = field.value }
        return Reply(status: response.status, headers: replyHeaders, body: response.body)
    }

    /// Sends a request; transport failures throw `URLError`.
    func call(
        _ method: String, _ path: String, json: JSONValue? = nil, body: Data? = nil, headers: [String: String] = [:],
        timeout: Double = 60
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = json.encoded()
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
        }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields[(key as! String).lowercased()] = value as? String }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// Creates a project and returns its id and test key.
    func project(_ name: String = "p", seed: UInt64? = nil) async throws -> (id: String, key: String) {
        var body: [String: JSONValue] = ["name": .string(name)]
        if let seed { body["seed"] = .int(Int64(seed)) }
        let reply = try await call("POST", "/__admin/projects", json: .object(body))
        guard reply.status == 201, let json = reply.json, let id = json["id"]?.stringValue,
            let key = json["credentials"]?["testing"]?["key"]?.stringValue
        else {
            throw TestError(status: reply.status, message: String(decoding: reply.body, as: UTF8.self))
        }
        return (id, key)
    }
}
