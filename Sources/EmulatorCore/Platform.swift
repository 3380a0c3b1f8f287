import Foundation
import HTTPServer
import Storage

/// One emulated backend. Each platform module has one type conforming to this, in
/// `<Platform>Platform.swift`; the core wires it into routing, projects, faults and the journal.
public protocol Platform: Sendable {
    /// Which backend this is; also the path prefix (`/<name>`) and the journal's platform name.
    var id: PlatformID { get }

    /// For a request whose `Host` (lower-cased, port removed) is one of the real service's hosts,
    /// the path prefix to put in front of the request path, e.g. the real API host → `/<name>`.
    /// Nil when the host is not this platform's.
    func pathPrefix(forHost host: String) -> String?

    /// SDK-facing routes, with paths relative to the platform prefix (`/v1/sdk/validate`).
    func routes() -> [Route]

    /// Control-plane routes, with paths relative to `/__admin/projects/{id}/<platform>`.
    /// Their context always carries an existing project.
    func adminRoutes() -> [AdminRoute]

    /// The platform's own error body for failures the core detects (unknown route, unreadable
    /// body, injected fault status, …). The status must be `failure.status`.
    func errorResponse(for failure: CoreFailure, requestID: String) -> Response

    /// The credentials `request` presents, most specific first (an API-key header before a bearer
    /// token, say), without looking any of them up. The core resolves them through the credential
    /// index once per request and hands the first one found to the handler as `context.credential`.
    func presentedCredentials(in request: Request) -> [PresentedCredential]

    /// Looks a presented credential up in this platform's tables; nil when it is unknown. A thrown
    /// error (the database failing) is answered as 503 in the platform's format, never as "unknown".
    func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord?

    /// The project of a request that presents no known credential (a short-link tap on a custom
    /// domain, say), from the path the router sees and whether the request's `Host` chose the
    /// platform (so the platform need not ask about the host again); nil by default.
    func identifyProjectWithoutCredential(_ request: Request, routedPath: String, byHost: Bool, services: EmulatorServices) async throws -> ProjectID?

    /// Fresh credentials for a new project (names are the platform's, e.g. `sdkKey`, `apiKey`).
    func makeCredentials(using generator: inout IDGenerator) -> [String: String]

    /// Stores what the platform needs for `credentials` to work for `project` (key rows and the
    /// like). Runs inside the project-creation (or reset/restore) transaction.
    func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws

    /// Settings a developer pastes into the SDK: exactly the SDK's own parameters, by its own
    /// names, with URLs from `endpoints` (what the asking client reaches Understudy under).
    func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String]

    /// How the unmodified SDK reaches Understudy: its base-URL setting, or the proxy for its real hosts.
    var sdkConnection: SDKConnection { get }

    /// Tables with a `project_id` column holding this platform's per-project state, parents
    /// first. The core clears them on reset and copies them for snapshots.
    var projectTables: [String] { get }

    /// Loads demo data from `Config/fixtures/<platform>.json` into the demo project.
    func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws

    /// The OpenAPI 3.1 document for the SDK routes and this platform's control-plane routes.
    func openAPIDocument() -> JSONValue

    /// Called once after the server starts (background work such as webhook delivery).
    func start(services: EmulatorServices) async

    /// Called after a project's state was replaced behind the platform's back (reset, snapshot
    /// restore, deletion), so in-memory caches of that project can be dropped.
    func projectStateDidChange(_ project: ProjectID) async

    /// The integration checks taken from this platform's SDK documentation (see `CheckRule`);
    /// the generic ones (retry timing) are the core's and apply to every platform.
    var checkRules: [any CheckRule] { get }

    /// Removes the server-side state keyed to one app installation of `project` (`device` as the
    /// platform's `observe` step names it), so the app's first-launch flow can run again without
    /// a reset; returns how many records went (0: none was left). Runs as a control-plane write.
    func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int
}

extension Platform {
    /// No background work by default.
    public func start(services: EmulatorServices) async {}
    /// No caches by default.
    public func projectStateDidChange(_ project: ProjectID) async {}
    /// No credential-less identification by default.
    public func identifyProjectWithoutCredential(_ request: Request, routedPath: String, byHost: Bool, services: EmulatorServices) async throws -> ProjectID? {
        nil
    }
    /// No platform rules by default.
    public var checkRules: [any CheckRule] { [] }
    /// Keeps no state per device by default: a 409 saying so.
    public func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int {
        throw AdminError(
            status: 409, code: "no_device_state", message: "\(id.rawValue) keeps no server-side state per device; there is nothing to forget.")
    }
}

/// A failure the core detects before or around a platform's handler.
public enum CoreFailure: Sendable, Equatable {
    /// No route has this path.
    case routeNotFound
    /// The path exists for other methods.
    case methodNotAllowed([HTTPMethod])
    /// The request could not be read (bad framing, too large, broken gzip, slow headers…).
    case unreadableRequest(HTTPRequestError)
    /// A handler let a body decoding error escape.
    case invalidBody(BodyError)
    /// A fault rule asked for this status.
    case injected(status: Int)
    /// A bug: a handler threw something unexpected.
    case internalError(String)
    /// The store could not be reached (the database failed while identifying the project, say).
    case storageUnavailable
    /// The project's stored state cannot be rendered (a clock beyond its range, a timestamp cell
    /// that is not one): the server's data, not the request, so a 409 telling how to repair it.
    case storedStateUnreadable(project: String, detail: String)
    /// The `Host` names no host this server answers to (`HostAllowList`): 421, naming `--allowed-host`.
    case misdirectedRequest(host: String)
    /// A write broke a database constraint the rules did not check first: a unique clash is a 409,
    /// any other constraint a 400 — never a 500 showing the statement.
    case constraintViolation(unique: Bool)

    /// The status to answer with.
    public var status: Int {
        switch self {
        case .routeNotFound: return 404
        case .methodNotAllowed: return 405
        case .unreadableRequest(let error): return error.status
        case .invalidBody(let error): return error.status
        case .injected(let status): return status
        case .internalError: return 500
        case .storageUnavailable: return 503
        case .storedStateUnreadable: return 409
        case .misdirectedRequest: return 421
        case .constraintViolation(let unique): return unique ? 409 : 400
        }
    }

    /// A default human message.
    public var message: String {
        switch self {
        case .routeNotFound: return "Not found"
        case .methodNotAllowed(let allowed): return "Method not allowed; allowed: \(allowed.map(\.rawValue).joined(separator: ", "))"
        case .unreadableRequest(let error): return error.message
        case .invalidBody(let error): return error.message
        case .injected(let status): return "Injected fault: \(status) \(HTTPStatus.reason(status))"
        case .internalError(let message): return "Internal error: \(message)"
        case .storageUnavailable: return "The emulator's store is unavailable; try again."
        case .storedStateUnreadable(let project, let detail):
            return "Project `\(project)` holds state this server cannot read (\(detail)); "
                + "set its clock again (PUT /__admin/projects/\(project)/clock) or reset it (POST /__admin/projects/\(project)/reset)."
        case .misdirectedRequest(let host): return HostAllowList.refusalMessage(host: host)
        case .constraintViolation(let unique):
            return unique ? "The request conflicts with stored data." : "The request does not fit the stored data."
        }
    }
}

/// A method, a path pattern and a handler that gets a `Context`.
public struct RouteDefinition<Context: Sendable>: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The path pattern (`/links/resolve/{slug}`), relative to where the route is mounted.
    public var path: String
    /// Produces the response; thrown `ResponseError`s become their response, `BodyError`s the owner's 400.
    public var handler: @Sendable (Request, Context) async throws -> Response
    /// Whether a `GET` of this control-plane route may write (transitions that fell due, say), so
    /// web pages of other origins are refused it as they are every `POST`, `PUT`, `PATCH` and `DELETE`.
    public var writesOnGet = false
    /// What the integration checks learn from an answered request (its route group's `observe`
    /// step); nil leaves the request out of the checks.
    public var observe: (@Sendable (Request, Context, Response) async -> Observation?)?

    /// Creates a route.
    public init(_ method: HTTPMethod, _ path: String, _ handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        self.method = method
        self.path = path
        self.handler = handler
    }

    /// This route, marked as one whose `GET` may write (see `writesOnGet`).
    public func writingOnGet() -> Self {
        var route = self
        route.writesOnGet = true
        return route
    }
}

/// An SDK or core control-plane route.
public typealias Route = RouteDefinition<EmulatorContext>

/// What a handler knows about the request besides the request itself.
public struct EmulatorContext: Sendable {
    /// The journal id of this request (also usable as a trace id in error bodies).
    public let requestID: String
    /// The platform this request is for; nil for the core control plane.
    public let platform: PlatformID?
    /// Decoded path parameters.
    public let parameters: [String: String]
    /// The route pattern that matched, as registered (full path).
    public let route: String
    /// The project: from the credential (SDK routes, when identified) or the path (admin routes).
    public let projectID: ProjectID?
    /// The credential the request presented, as the project state cache resolved it (nil when it
    /// presented none, or none that is known).
    public let credential: CredentialRecord?
    /// Every credential the request presented, known or not, as `Platform.presentedCredentials`
    /// read them: route groups authenticate from these instead of parsing the request again.
    public let presentedCredentials: [PresentedCredential]
    /// The project's clock reading when the request arrived (real time when there is no project).
    public let now: Date
    /// Shared services: database, clocks, projects, outbox, logger, settings.
    public let services: EmulatorServices
    /// How an error thrown while answering becomes the owner's response (the one place that does it).
    public let errors: ErrorAnswers
    /// Where handlers note facts for the integration checks (`note(_:_:)`); nil when they are off.
    public let notes: ObservationNotes?
    /// Whether the request's `Host` chose the platform (one of the real service's hosts), as the
    /// pipeline decided once: handlers need not ask about the host again.
    public let routedByHost: Bool

    /// Creates a context (the core does this; tests of handlers may too).
    public init(
        requestID: String, platform: PlatformID?, parameters: [String: String], route: String,
        projectID: ProjectID?, credential: CredentialRecord? = nil, presentedCredentials: [PresentedCredential] = [],
        now: Date, services: EmulatorServices, errors: ErrorAnswers? = nil, notes: ObservationNotes? = nil, routedByHost: Bool = false
    ) {
        self.requestID = requestID
        self.platform = platform
        self.parameters = parameters
        self.route = route
        self.projectID = projectID
        self.credential = credential
        self.presentedCredentials = presentedCredentials
        self.now = now
        self.services = services
        self.errors = errors ?? ErrorAnswers(platform: nil, logger: services.logger)
        self.notes = notes
        self.routedByHost = routedByHost
    }

    /// Path parameter `name` ("" when absent, which cannot happen for a parameter in the pattern).
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The database.
    public var database: any Database { services.database }

    /// The value of the first presented credential of `kind` (known or not).
    public func presented(_ kind: String) -> String? { presentedCredentials.first { $0.kind == kind }?.value }
}
