import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// The SDK routes and the short-link redirect: decode the request, call the rules, encode
/// WarpLink's envelope. Every answer carries the rate-limit headers of [W-E1].
struct WarpLinkRoutes {
    /// The configuration file's settings layer.
    let serverSettings: JSONValue
    /// Host routing's custom-domain table.
    let domains: CustomDomainTable
    /// The per-key request windows.
    let rateWindows: RateLimitWindows

    /// Every data-plane route, relative to `/warplink`; the SDK routes also answer without `/v1`.
    func routes() -> [Route] {
        // The redirect is a browser's, not the SDK's: the integration checks look only at the SDK group.
        let group = RouteGroup<WarpLinkCaller>(
            authenticate: { try await caller($0, $1) }, admit: { try Self.admit($1) },
            finish: { response, _, _, caller in Self.addRateHeaders(&response, caller) })
        let sdk = RouteGroup<WarpLinkCaller>(
            authenticate: { try await caller($0, $1) }, admit: { try Self.admit($1) },
            finish: { response, _, _, caller in Self.addRateHeaders(&response, caller) }, observe: WarpLinkChecks.observe)
        return [
            sdk.route(.get, "/v1/sdk/validate", validate),
            sdk.route(.get, "/v1/links/resolve/{slug}", resolve),
            sdk.route(.post, "/v1/attribution/match", match),
            sdk.route(.get, "/sdk/validate", validate),
            sdk.route(.get, "/links/resolve/{slug}", resolve),
            sdk.route(.post, "/attribution/match", match),
            group.route(.get, "/r/{slug}", redirect),
        ]
    }

    /// The group's one authentication step: the project's settings, the request counted in its
    /// rate window (by key, or by address without one) and the presented key, checked but kept
    /// as a result because `validate` may answer a bad key with `valid: false`.
    private func caller(_ request: Request, _ context: EmulatorContext) async throws -> WarpLinkCaller {
        let settings = try await settings(context)
        let bearer = context.presented("key")
        let window = rateWindows.consume(bearer ?? ("ip:" + ClientAddress.reduce(request.remoteAddress)), now: context.now)
        let key = Result { () throws(WarpLinkError) in
            try WarpLinkService.activeKey(authorization: request.headers["authorization"], bearer: bearer, credential: context.credential)
        }
        if case .success(let record) = key, record.kind == .api { context.note(WarpLinkChecks.apiKeyFact, "1") }
        return WarpLinkCaller(settings: settings, window: window, key: key)
    }

    /// A spent window is refused (429 with `Retry-After`) when the project enforces the limit.
    private static func admit(_ context: RequestContext<WarpLinkCaller>) throws(WarpLinkError) {
        let window = context.caller.window
        guard context.caller.settings.enforceRateLimit, !window.allowed else { return }
        let nowSeconds = Int(context.now.timeIntervalSince1970) // checked: the clock is inside Timestamp.range
        throw WarpLinkError.rateLimited(retryAfter: max(1, window.reset - nowSeconds))
    }

    /// The rate-limit headers every WarpLink answer carries ([W-E1]). No answer sets these
    /// itself, so they are added rather than set (which looks for others first).
    private static func addRateHeaders(_ response: inout Response, _ caller: WarpLinkCaller?) {
        guard let window = caller?.window else { return }
        response.headers.add("X-RateLimit-Limit", "60")
        response.headers.add("X-RateLimit-Remaining", String(window.remaining))
        response.headers.add("X-RateLimit-Reset", String(window.reset))
    }

    // MARK: GET /sdk/validate

    private func validate(_ request: Request, _ context: RequestContext<WarpLinkCaller>) async throws -> Response {
        let settings = context.caller.settings
        let key: KeyRecord
        do {
            key = try context.caller.key.get()
        } catch {
            switch settings.validateRejection {
            case "403": throw WarpLinkError.forbidden("Invalid API key")
            case "valid_false": return .json(status: 200, bytes: WarpLinkWire.validate(valid: false, domains: []).encoded())
            default: throw error
            }
        }
        // The key's checks and the rate limit run every time; the domains it may serve (two
        // reads) are reused while the database has not changed (see `DerivedAnswers`).
        let asOf = context.database.localChangeCount // before the read
        let answerKey = "warplink.validate\u{1F}\(key.projectID)\u{1F}\(key.appID ?? "")"
        return .json(
            status: 200,
            bytes: try await context.services.derivedAnswers.answer(for: answerKey, asOf: asOf) {
                WarpLinkWire.validate(valid: true, domains: try await context.read { try $0.linkDomains(for: key) }).encoded()
            })
    }

    // MARK: GET /links/resolve/{slug}

    private func resolve(_ request: Request, _ context: RequestContext<WarpLinkCaller>) async throws -> Response {
        let settings = context.caller.settings
        let key = try context.caller.key.get()
        guard key.canReadLinks else { throw WarpLinkError.linksReadMissing }
        let slug = context.parameter("slug")
        let (domain, tapped) = try WarpLinkWire.resolveQuery(request.query)
        let tapID = request.headers["x-warplink-tap-id"].flatMap { $0.isEmpty || $0.utf8.count > 128 ? nil : $0 }
        let project = key.projectID
        let clickID = tapID ?? context.services.generateIDs(for: project) { $0.recordUUID() }
        let ip = clientIP(request, settings)
        let (acceptLanguage, userAgent) = (request.headers["accept-language"], request.headers["user-agent"])
        let lookups = LinkLookups.cached(for: project, in: context.services.projectCache) // before the write reads
        let body = try await context.write { service in
            let link = try service.servedLink(
                domain: domain, slug: slug, appID: key.appID, lenient: settings.lenientLookup, expiredStatus: settings.expiredLinkStatus, lookups: lookups)
            func answer() -> LinkLookups.UntappedAnswer {
                let shaped = LinkReshaper.reshape(link, tapped: tapped)
                return LinkLookups.UntappedAnswer(shaped: shaped, body: WarpLinkWire.link(link, reshaped: shaped).encoded())
            }
            let made = tapped.pairs.isEmpty ? lookups.untappedAnswer(for: link, make: answer) : answer()
            try service.store.insert(
                service.resolveClick(
                    id: clickID, link: link, shaped: made.shaped, ip: ip, acceptLanguage: acceptLanguage,
                    userAgent: userAgent, tapID: tapID), project: project)
            return made.body
        }
        return .json(status: 200, bytes: body)
    }

    // MARK: POST /attribution/match

    private func match(_ request: Request, _ context: RequestContext<WarpLinkCaller>) async throws -> Response {
        let settings = context.caller.settings
        let key = try context.caller.key.get()
        guard key.kind == .sdk else {
            throw WarpLinkError.apiKeyOnAttribution(status: settings.apiKeyAttributionStatus)
        }
        let body = try AttributionRequest.parse(request.body)
        WarpLinkChecks.note(body, context.core)
        let project = key.projectID
        let installID = context.services.generateIDs(for: project) { $0.recordUUID() }
        let matcher = AttributionMatcher(
            project: project, key: key, request: body, ip: clientIP(request, settings), now: context.now,
            settings: settings, installID: installID, tapID: request.headers["x-warplink-tap-id"])
        let result = try await context.write { try matcher.run($0.store) }
        // Definitive for the SDK: a no-match, or a match it can route (a routeless one keeps its gate open).
        if !result.matched || (result.linkID != nil && result.destinationURL != nil) { context.core.note(WarpLinkChecks.definitiveFact, "1") }
        if result.outcome == "ambiguous_app" {
            context.services.logger.info("warplink attribution: ambiguous_app", [("project", project), ("install", installID)])
        }
        return .json(status: 200, bytes: WarpLinkWire.attribution(result, style: settings.noMatchStyle).encoded())
    }

    // MARK: GET /r/{slug} (and /{slug} on link hosts)

    private func redirect(_ request: Request, _ context: RequestContext<WarpLinkCaller>) async throws -> Response {
        let settings = context.caller.settings
        let slug = context.parameter("slug")
        // A link host chose WarpLink (the resolver asked once); the API host serves `/r/{slug}` too.
        let hostRouted = context.routedByHost && request.hostName != WarpLinkNames.apiHost
        let tap = try WarpLinkWire.redirectQuery(request.query, host: hostRouted ? request.hostName : nil)
        guard let project = context.projectID else { throw WarpLinkError.notFound }
        let zone = tap.zone.flatMap { TimeZones.isValid($0) ? $0 : nil }
        if let given = tap.zone, zone == nil { context.services.logger.info("warplink redirect: ignoring invalid tz", [("tz", given)]) }
        let clickID = context.services.generateIDs(for: project) { $0.recordUUID() }
        let ip = clientIP(request, settings)
        let (acceptLanguage, userAgent) = (request.headers["accept-language"], request.headers["user-agent"])
        let lookups = LinkLookups.cached(for: project, in: context.services.projectCache) // before the write reads
        let location = try await context.write { service in
            let link = try service.servedLink(
                domain: tap.domain, slug: slug, appID: nil, lenient: false, expiredStatus: settings.expiredLinkStatus, lookups: lookups)
            let shaped = LinkReshaper.reshape(link, tapped: tap.parameters)
            try service.store.insert(
                service.redirectClick(
                    id: clickID, link: link, shaped: shaped, ip: ip, acceptLanguage: acceptLanguage,
                    zone: zone, userAgent: userAgent, settings: settings), project: project)
            return shaped.destinationURL
        }
        var response = Response(status: 302)
        response.headers.set("Location", location)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    // MARK: Shared steps

    /// The project's effective settings (the server's when the request has no project).
    private func settings(_ context: EmulatorContext) async throws -> MatchingSettings {
        guard let project = context.projectID else { return try MatchingSettings.resolve(server: serverSettings, stored: nil) }
        return try await context.services.projectCache.derived("warplink.settings", project: project) {
            let stored = try await context.database.read { try WarpLinkStore(connection: $0).settingsDocument(project) }
            return try MatchingSettings.resolve(server: serverSettings, stored: stored)
        }
    }

    private func clientIP(_ request: Request, _ settings: MatchingSettings) -> String {
        ClientAddress.effective(peer: request.remoteAddress, forwardedFor: request.headers["x-forwarded-for"], settings: settings)
    }
}
