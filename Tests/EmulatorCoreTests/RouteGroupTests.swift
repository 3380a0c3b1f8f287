import Foundation
import HTTPServer
import Storage
import Synchronization
import Testing

@testable import EmulatorCore

/// `RouteGroup`: authentication once per request, the caller passed forward, errors answered in
/// one place (with the request's context), and the finishing step on every answer.
@Suite("Route groups")
struct RouteGroupTests {
    /// An error whose answer echoes the request's header and the journal id, as Telematics' does.
    struct EchoingError: ResponseError {
        let status: Int
        func response(to request: Request, in context: EmulatorContext) -> Response {
            .json(status: status, bytes: Data("{\"trace\":\"\(context.requestID)\",\"echo\":\"\(request.headers["x-echo"] ?? "")\"}".utf8))
        }
    }

    private static func context(credential: String?) throws -> EmulatorContext {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString).sqlite").path
        let services = EmulatorServices(database: try SQLiteDatabase(path: path), settings: EmulatorSettings())
        return EmulatorContext(
            requestID: "41", platform: nil, parameters: ["id": "7"], route: "/things/{id}", projectID: "p",
            presentedCredentials: credential.map { [PresentedCredential(kind: "key", value: $0)] } ?? [],
            now: Date(timeIntervalSince1970: 0), services: services)
    }

    private static func request(_ headers: [(String, String)] = []) -> Request {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        return Request(method: .get, target: "/things/7", headers: fields)
    }

    /// What the group's steps saw.
    final class Log: Sendable {
        let authentications = Mutex(0)
        let finished = Mutex<[String?]>([])
        let handled = Mutex(false)
    }

    /// A group whose caller is the presented key; counts authentications and records what `finish` saw.
    private static func group(_ log: Log, admitting: Bool = true) -> RouteGroup<String> {
        RouteGroup<String>(
            prefix: "/v1",
            authenticate: { _, context in
                log.authentications.withLock { $0 += 1 }
                guard let key = context.presented("key") else { throw EchoingError(status: 401) }
                return key
            },
            admit: { _, context in if !admitting { throw EchoingError(status: 429) } },
            translate: { error, _ in error is BodyError ? EchoingError(status: 400) : error },
            finish: { response, _, _, caller in
                log.finished.withLock { $0.append(caller) }
                response.headers.add("X-Finished", caller ?? "-")
            })
    }

    @Test("the handler gets the caller authentication made, once, and the finishing step sees it")
    func passesCallerForward() async throws {
        let log = Log()
        let route = Self.group(log).route(.get, "/things/{id}") { _, context in
            Response.json(bytes: Data("\"\(context.caller)-\(context.parameter("id"))-\(context.requestID)\"".utf8))
        }
        #expect(route.path == "/v1/things/{id}")
        let response = try await route.handler(Self.request(), try Self.context(credential: "k1"))
        #expect(String(decoding: response.body, as: UTF8.self) == "\"k1-7-41\"")
        #expect(response.headers["x-finished"] == "k1")
        #expect(log.authentications.withLock { $0 } == 1)
        #expect(log.finished.withLock { $0 } == ["k1"])
    }

    @Test("a refused authentication is answered by the error itself, with the request's context, and finished without a caller")
    func refusedAuthentication() async throws {
        let log = Log()
        let route = Self.group(log).route(.get, "/things/{id}") { _, _ in
            log.handled.withLock { $0 = true }
            return Response.empty(204)
        }
        let response = try await route.handler(Self.request([("X-Echo", "abc")]), try Self.context(credential: nil))
        #expect(response.status == 401)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"trace\":\"41\",\"echo\":\"abc\"}")
        #expect(response.headers["x-finished"] == "-")
        #expect(!log.handled.withLock { $0 })
    }

    @Test("an admission refusal keeps the caller for the finishing step; the handler never runs")
    func admissionRefusal() async throws {
        let log = Log()
        let route = Self.group(log, admitting: false).route(.get, "/x") { _, _ in Response.empty(204) }
        let response = try await route.handler(Self.request(), try Self.context(credential: "k2"))
        #expect(response.status == 429)
        #expect(response.headers["x-finished"] == "k2")
    }

    @Test("a broken database constraint is answered in one place: 409 for a unique clash, 400 for another, never the statement")
    func constraintViolations() async throws {
        let log = Log()
        let group = Self.group(log)
        for (code, status) in [(2067, 409), (275, 400)] {
            let route = group.route(.post, "/c") { _, _ in
                throw SQLiteError(code: Int32(code), message: "UNIQUE constraint failed: t.id", sql: "INSERT INTO t (id) VALUES (?)")
            }
            let response = try await route.handler(Self.request(), try Self.context(credential: "k"))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == status, "\(text)")
            #expect(!text.contains("INSERT") && !text.contains("constraint failed"))
        }
        #expect(CoreFailure.constraintViolation(unique: true).status == 409 && CoreFailure.constraintViolation(unique: false).status == 400)
    }

    @Test("a foreign error is translated into the platform's; one left untranslated takes the owner's envelope, never its detail")
    func translatesForeignErrors() async throws {
        let log = Log()
        let group = Self.group(log)
        let body = group.route(.post, "/b") { _, _ in throw BodyError(code: "bad", message: "no") }
        #expect(try await body.handler(Self.request(), try Self.context(credential: "k")).status == 400)
        struct Secret: Error { let sql = "SELECT * FROM keys" }
        let failing = group.route(.post, "/c") { _, _ in throw Secret() }
        let response = try await failing.handler(Self.request(), try Self.context(credential: "k"))
        #expect(response.status == 500)
        #expect(!String(decoding: response.body, as: UTF8.self).contains("SELECT"))
        #expect(response.headers["x-finished"] == "k")
    }
}
