import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// Control-plane session routes: seed, inspect (chunks included), change, force transitions, fire webhooks.
extension AsleepAdmin {
    func listSessions(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let user = request.queryValue("userId"), state = request.queryValue("state")
        if let state, SessionState(rawValue: state) == nil { throw AdminError.badRequest("`state` must be OPEN, CLOSED or COMPLETE.") }
        let now = context.now
        let sessions = try await context.database.write { connection -> [JSONValue] in
            let service = self.service(connection, context)
            try service.advance(project: project, settings: try service.settings(project: project))
            return try service.store.sessions(project: project, user: user, state: state).map { session in
                Self.render(session, received: try service.store.receivedChunks(session: session.id), now: now)
            }
        }
        return .json(JSONValue.object(["sessions": .array(sessions)]))
    }

    func addSession(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(SessionBody.self, from: request)
        let project = context.projectID
        let now = context.now
        let session = try await context.database.write { connection -> JSONValue in
            try self.seedSession(body, project: project, service: self.service(connection, context), now: now)
        }
        return .json(status: 201, bytes: session.encoded())
    }

    func getSession(_ request: Request, _ context: AdminContext) async throws -> Response {
        let now = context.now
        return .json(
            try await withSession(context) { service, session in
                Self.render(session, received: try service.store.receivedChunks(session: session.id), now: now)
            })
    }

    func sessionChunks(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        return .json(
            try await withSession(context) { service, session in
                ["chunks": .array(try service.store.chunks(project: project, session: session.id).map(Self.render))]
            })
    }

    func patchSession(_ request: Request, _ context: AdminContext) async throws -> Response {
        let patch = try AdminBody.decode(SessionPatch.self, from: request)
        if let url = patch.callbackUrl, !url.isEmpty, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
        let now = context.now
        return .json(
            try await withSession(context) { service, session in
                var session = session
                if let url = patch.callbackUrl { session.callbackURL = url.isEmpty ? nil : url }
                if let hold = patch.hold { session.hold = hold }
                Self.applyOverrides(
                    &session, sleep: patch.sleepStages, snoring: patch.snoringStages, breath: patch.breathStages,
                    peculiarities: patch.peculiarities, stat: patch.stat, snoringDetected: patch.snoringDetected,
                    breathDetected: patch.breathDetected)
                try service.store.updateSession(session)
                return Self.render(session, received: try service.store.receivedChunks(session: session.id), now: now)
            })
    }

    func closeSession(_ request: Request, _ context: AdminContext) async throws -> Response {
        let now = context.now
        return .json(
            try await withSession(context) { service, session in
                var session = session
                guard session.state == .open else { throw AdminError(status: 409, code: "conflict", message: "Session is \(session.state.rawValue), not OPEN.") }
                try service.close(&session, end: now, unexpected: false)
                return Self.render(session, received: try service.store.receivedChunks(session: session.id), now: now)
            })
    }

    func completeSession(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, now = context.now
        return .json(
            try await withSession(context) { service, session in
                var session = session
                guard session.state != .complete else { throw AdminError(status: 409, code: "conflict", message: "Session is already COMPLETE.") }
                try service.complete(&session, at: now, settings: try service.settings(project: project))
                return Self.render(session, received: try service.store.receivedChunks(session: session.id), now: now)
            })
    }

    func fireWebhook(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(EventBody.self, from: request)
        guard ["INFERENCE_COMPLETE", "SESSION_COMPLETE"].contains(body.event) else {
            throw AdminError.badRequest("`event` must be INFERENCE_COMPLETE or SESSION_COMPLETE.")
        }
        if let url = body.callbackUrl, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
        let project = context.projectID
        return .json(
            status: 202,
            bytes: try await withSession(context) { service, session in
                guard let url = body.callbackUrl ?? session.callbackURL else {
                    // The request is well-formed; the session's state is what stands in the way.
                    throw AdminError(status: 409, code: "conflict", message: "The session has no callback URL; pass `callbackUrl`.")
                }
                let settings = try service.settings(project: project)
                let data =
                    body.event == "SESSION_COMPLETE"
                    ? try service.sessionCompleteData(session, settings: settings)
                    : try service.inferenceCompleteData(session, seq: session.lastSeqNum ?? 0, settings: settings)
                try service.enqueueWebhook(session: session, event: body.event, url: url, data: data, settings: settings)
                return ["queued": .string(body.event), "url": .string(url)]
            }.encoded())
    }

    func listWebhooks(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let session = request.queryValue("sessionId")
        let deliveries = try await context.database.read { try AsleepStore(connection: $0).webhooks(project: project, session: session) }
        return .json(JSONValue.object(["deliveries": .array(deliveries.map(Self.render))]))
    }

    /// Runs `body` on the path's session (after due transitions) in one write transaction; 404 when
    /// the project has no such session.
    func withSession(_ context: AdminContext, _ body: @escaping @Sendable (AsleepService, SessionRecord) throws -> JSONValue) async throws -> JSONValue {
        let project = context.projectID, id = context.parameter("session")
        return try await context.database.write { connection in
            let service = self.service(connection, context)
            try service.advance(project: project, settings: try service.settings(project: project))
            guard let session = try service.store.session(project: project, id: id) else { throw AdminError.notFound("Session `\(id)`") }
            return try body(service, session)
        }
    }
}
