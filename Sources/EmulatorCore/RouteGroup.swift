import Foundation
import HTTPServer

/// What a route group's handler gets: the core's context, and the caller the group's one
/// authentication step made from the request and its resolved credential ("passing data
/// forward": handlers read `context.caller` and never parse a credential again).
@dynamicMemberLookup
public struct RequestContext<Caller: Sendable>: Sendable {
    /// The core's context: journal id, project, clock reading, services.
    public let core: EmulatorContext
    /// Who is calling, as the group's `authenticate` step decided.
    public let caller: Caller

    /// Creates a context (the group does this; tests of handlers may too).
    public init(core: EmulatorContext, caller: Caller) {
        self.core = core
        self.caller = caller
    }

    /// The core context's members (`context.now`, `context.projectID`, `context.services`, …).
    public subscript<Value>(dynamicMember path: KeyPath<EmulatorContext, Value>) -> Value { core[keyPath: path] }

    /// Path parameter `name` ("" when absent).
    public func parameter(_ name: String) -> String { core.parameter(name) }
}

/// A platform's SDK routes that share one authentication step, one translation of foreign
/// errors into the platform's own, and one finishing step for headers every answer carries.
///
/// Per request, in order: `authenticate` (its error is answered like a handler's), `admit` (a
/// check that needs the caller but must not lose it, such as a spent rate window whose refusal
/// still carries the window's headers), the handler with `RequestContext<Caller>`, then — for a thrown error — `translate` and the owner's
/// `ErrorAnswers` (the one place errors become responses), and last `finish`, on every answer.
/// Once the answer is final (faults included, which may replace it before `authenticate` runs),
/// `observe` tells the integration checks which installation the request concerns.
/// Modelled on Hummingbird's `RouterGroup` and `RequestContext`.
public struct RouteGroup<Caller: Sendable>: Sendable {
    /// A handler of the group.
    public typealias Handler = @Sendable (Request, RequestContext<Caller>) async throws -> Response
    /// The group's authentication: the caller, or a thrown error (401, 403 …) in the platform's catalogue.
    public typealias Authenticate = @Sendable (Request, EmulatorContext) async throws -> Caller
    /// Refuses an authenticated request before its handler runs (`finish` still gets the caller).
    public typealias Admit = @Sendable (Request, RequestContext<Caller>) async throws -> Void
    /// Maps an error that is not the platform's own (a body decoding error, say) to the platform's.
    public typealias Translate = @Sendable (any Error, EmulatorContext) -> any Error
    /// Adjusts every answer of the group, error answers included; gets the caller when
    /// authentication succeeded.
    public typealias Finish = @Sendable (inout Response, Request, EmulatorContext, Caller?) -> Void
    /// What the integration checks learn from a request and its final answer: runs only while
    /// they are on, reads the facts handlers noted (`context.noted`), and must not fail.
    public typealias Observe = @Sendable (Request, EmulatorContext, Response) async -> Observation?

    /// Put in front of every route path of the group (`/api/v1`, say).
    public let prefix: String
    private let authenticate: Authenticate
    private let admit: Admit?
    private let translate: Translate?
    private let finish: Finish?
    private let observe: Observe?

    /// Creates a group whose routes authenticate with `authenticate`.
    public init(
        prefix: String = "", authenticate: @escaping Authenticate, admit: Admit? = nil,
        translate: Translate? = nil, finish: Finish? = nil, observe: Observe? = nil
    ) {
        self.prefix = prefix
        self.authenticate = authenticate
        self.admit = admit
        self.translate = translate
        self.finish = finish
        self.observe = observe
    }

    /// A route of the group: `prefix + path`, answered by `handler` after authentication.
    public func route(_ method: HTTPMethod, _ path: String, _ handler: @escaping Handler) -> Route {
        let (authenticate, admit, translate, finish) = (self.authenticate, self.admit, self.translate, self.finish)
        var route = Route(method, prefix + path) { request, context in
            var caller: Caller?
            var response: Response
            do {
                let authenticated = try await authenticate(request, context)
                caller = authenticated
                let scoped = RequestContext(core: context, caller: authenticated)
                try await admit?(request, scoped)
                response = try await handler(request, scoped)
            } catch {
                response = context.errors.response(for: translate?(error, context) ?? error, to: request, in: context)
            }
            finish?(&response, request, context, caller)
            return response
        }
        route.observe = observe
        return route
    }
}

extension RouteGroup where Caller == Void {
    /// A group of routes that need no caller (public lookups, token exchanges that check their
    /// own body), sharing the translation and finishing steps.
    public init(prefix: String = "", translate: Translate? = nil, finish: Finish? = nil, observe: Observe? = nil) {
        self.init(prefix: prefix, authenticate: { _, _ in }, translate: translate, finish: finish, observe: observe)
    }
}
