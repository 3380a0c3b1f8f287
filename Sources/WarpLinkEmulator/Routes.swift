import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The SDK-facing routes and the short-link redirect: decode, call the rules, encode WarpLink's envelope.
struct WarpLinkRoutes {
    let state: WarpLinkState
    var defaults: MatchingSettings { state.defaultSettings }

    /// Every data-plane route, relative to `/warplink`.
    func all() -> [Route] {
        var routes: [Route] = []
        for base in ["/v1", ""] {
            routes.append(Route(.get, base + "/sdk/validate") { request, context in await guarded(request, context) { try await validate(request, context) } })
            routes.append(Route(.get, base + "/links/resolve/{slug}") { request, context in await guarded(request, context) { try await resolve(request, context) } })
            routes.append(Route(.post, base + "/attribution/match") { request, context in await guarded(request, context) { try await match(request, context) } })
        }
        routes.append(Route(.get, "/r/{slug}") { request, context in await guarded(request, context) { try await redirect(request, context) } })
        return routes
    }

    // MARK: Shared steps

    /// Runs `body`, turns WarpLink errors into their envelope, and adds the rate-limit headers
    /// every WarpLink response carries ([W-E1]).
    private func guarded(_ request: Request, _ context: EmulatorContext, _ body: () async throws -> Response) async -> Response {
        let bucket = Self.bearer(request) ?? ("ip:" + ClientAddress.reduce(request.remoteAddress))
        let settings = (try? await settings(context)) ?? defaults
        let window = state.consume(bucket, now: context.now)
        var response: Response
        if settings.enforceRateLimit && !window.allowed {
            response = WarpLinkError.rateLimited(retryAfter: max(1, window.reset - Int(context.now.timeIntervalSince1970))).response
        } else {
            do {
                response = try await body()
            } catch let error as WarpLinkError {
                response = error.response
            } catch let error as ResponseError {
                response = error.response
            } catch {
                context.services.logger.error("warplink handler failed", [("route", context.route), ("error", String(describing: error))])
                response = WarpLinkError(status: 500, code: "INTERNAL_ERROR", message: "Internal error").response
            }
        }
        response.headers.set("X-RateLimit-Limit", "60")
        response.headers.set("X-RateLimit-Remaining", String(window.remaining))
        response.headers.set("X-RateLimit-Reset", String(window.reset))
        return response
    }

    private func settings(_ context: EmulatorContext) async throws -> MatchingSettings {
        guard let project = context.projectID else { return defaults }
        return try await context.database.read { try WarpLinkStore.settings(project, defaults: defaults, $0) }
    }

    /// The key of `Authorization: Bearer <key>`, or nil.
    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers["authorization"] else { return nil }
        // ASCII trimming: Foundation's CharacterSet trimming bridges through NSString, which cost
        // 7% of a resolve in profiles.
        let trimmed = header.trimmingASCIIWhitespace()
        guard trimmed.utf8.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return nil }
        return trimmed.dropFirst(7).trimmingASCIIWhitespace()
    }

    /// The active key of the request, or the 401 of [W-V2]/[W-L2]/[W-A1].
    private func authenticate(_ request: Request, _ context: EmulatorContext) async throws -> KeyRecord {
        guard request.headers["authorization"] != nil else { throw WarpLinkError.unauthorized("Missing API key") }
        guard let value = Self.bearer(request) else { throw WarpLinkError.unauthorized("Authorization must be `Bearer <key>`") }
        guard WarpLinkNames.isWellFormedKey(value) else { throw WarpLinkError.unauthorized("Invalid API key format") }
        guard let key = try await context.database.read({ try WarpLinkStore.key(value, $0) }), key.projectID == context.projectID,
              key.state == "active" else {
            throw WarpLinkError.unauthorized()
        }
        return key
    }

    private func clientIP(_ request: Request, settings: MatchingSettings) -> String {
        ClientAddress.effective(peer: request.remoteAddress, forwardedFor: request.headers["x-forwarded-for"], settings: settings)
    }

    // MARK: GET /sdk/validate

    private func validate(_ request: Request, _ context: EmulatorContext) async throws -> Response {
        let settings = try await settings(context)
        let key: KeyRecord
        do {
            key = try await authenticate(request, context)
        } catch {
            switch settings.validateRejection {
            case "403": throw WarpLinkError.forbidden("Invalid API key")
            case "valid_false": return .json(status: 200, bytes: WarpLinkWire.validate(valid: false, domains: []).encoded())
            default: throw error
            }
        }
        let project = key.projectID
        let domains = try await context.database.read { connection -> [String] in
            var all = [WarpLinkNames.sharedDomain]
            for app in try WarpLinkStore.apps(project, connection) where key.appID == nil || key.appID == app.id {
                all.append(app.handleDomain)
            }
            for domain in try WarpLinkStore.domains(project, connection) where domain.state == "verified" {
                if key.appID == nil || domain.appID == nil || domain.appID == key.appID { all.append(domain.hostname) }
            }
            return all
        }
        return .json(status: 200, bytes: WarpLinkWire.validate(valid: true, domains: domains).encoded())
    }

    // MARK: GET /links/resolve/{slug}

    private func resolve(_ request: Request, _ context: EmulatorContext) async throws -> Response {
        let key = try await authenticate(request, context)
        guard key.canReadLinks else { throw WarpLinkError.forbidden("Key lacks the links:read scope") }
        let slug = context.parameter("slug")
        let (domain, tapped) = try Self.resolveQuery(request, slug: slug)
        let tapID = request.headers["x-warplink-tap-id"].flatMap { $0.isEmpty || $0.utf8.count > 128 ? nil : $0 }
        let project = key.projectID
        let now = context.now
        let clickID = tapID ?? context.services.generateIDs(for: project) { $0.uuid() }
        let ip = clientIP(request, settings: try await settings(context))
        let userAgent = request.headers["user-agent"]
        let body = try await context.database.write { connection -> JSONValue in
            let settings = try WarpLinkStore.settings(project, defaults: defaults, connection)
            let link = try LinkLookup.find(project: project, domain: domain, slug: slug, appID: key.appID, now: now,
                                           lenient: settings.lenientLookup, connection)
            let shaped = LinkReshaper.reshape(link, tapped: tapped)
            // [W-L5]: analytics only; the tap id is the click id, so a retried tap bills once.
            try WarpLinkStore.insert(ClickRecord(
                id: clickID, linkID: link.id, appID: link.appID, source: "resolve", ip: ip, acceptLanguage: request.headers["accept-language"],
                language: nil, timezone: nil, timezoneOffset: nil, deviceID: nil, fingerprint: nil, userAgent: userAgent, tapID: tapID,
                destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL, customParams: shaped.customParams.json,
                clickedAt: now, claimedBy: nil, claimedAt: nil), project: project, connection)
            return WarpLinkWire.link(link, reshaped: shaped)
        }
        return .json(status: 200, bytes: body.encoded())
    }

    /// `domain` (lower-cased, default `aplnk.to`) and the tapped `params` of a resolve, or a 400.
    static func resolveQuery(_ request: Request, slug: String) throws(WarpLinkError) -> (String, ParameterSet) {
        var problems: [WarpLinkFieldProblem] = []
        if !WarpLinkNames.isValidSlug(slug) { problems.append(WarpLinkFieldProblem("slug", "must be 1–128 characters of A–Z, a–z, 0–9, '-', '_' and '.'")) }
        var domain = WarpLinkNames.sharedDomain
        var tapped = ParameterSet()
        for part in request.query.split(separator: "&") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = URLQuery.percentDecode(pieces[0], plusAsSpace: true) ?? ""
            let raw = pieces.count > 1 ? String(pieces[1]) : ""
            switch name {
            case "domain":
                guard let value = URLQuery.percentDecode(raw, plusAsSpace: true), !value.isEmpty, value.utf8.count <= 253,
                      value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else {
                    problems.append(WarpLinkFieldProblem("domain", "must be a host name"))
                    continue
                }
                domain = value.lowercased()
            case "params":
                do { tapped = try LinkReshaper.tappedParameters(rawParamsValue: raw) } catch { problems.append(contentsOf: error.fields) }
            default:
                continue
            }
        }
        if !problems.isEmpty { throw .validation(problems) }
        return (domain, tapped)
    }

    // MARK: POST /attribution/match

    private func match(_ request: Request, _ context: EmulatorContext) async throws -> Response {
        let key = try await authenticate(request, context)
        let settings = try await settings(context)
        guard key.kind == "sdk" else {
            let message = "API keys cannot record installs; use an SDK key"
            throw settings.apiKeyAttributionStatus == 401 ? WarpLinkError.unauthorized(message) : WarpLinkError.forbidden(message)
        }
        let body = try AttributionRequest.parse(request.body)
        let project = key.projectID
        let installID = context.services.generateIDs(for: project) { $0.uuid() }
        let matcher = AttributionMatcher(project: project, key: key, request: body, ip: clientIP(request, settings: settings), now: context.now,
                                         settings: settings, installID: installID, tapID: request.headers["x-warplink-tap-id"])
        let result = try await context.database.write { try matcher.run($0) }
        if result.outcome == "ambiguous_app" {
            context.services.logger.info("warplink attribution: ambiguous_app", [("project", project), ("install", installID)])
        }
        return .json(status: 200, bytes: WarpLinkWire.attribution(result, style: settings.noMatchStyle).encoded())
    }

    // MARK: GET /r/{slug} (and /{slug} on link hosts)

    private func redirect(_ request: Request, _ context: EmulatorContext) async throws -> Response {
        let slug = context.parameter("slug")
        guard WarpLinkNames.isValidSlug(slug) else {
            throw WarpLinkError.validation([WarpLinkFieldProblem("slug", "must be 1–128 characters of A–Z, a–z, 0–9, '-', '_' and '.'")])
        }
        let hostRouted = request.hostName.map { isLinkHost($0) } ?? false
        guard let items = LinkReshaper.parseQuery(request.query) else {
            throw WarpLinkError.validation([WarpLinkFieldProblem("query", "is not a valid percent-encoded query string")])
        }
        guard items.count <= LinkReshaper.maxParamCount, request.query.utf8.count <= LinkReshaper.maxParamsBytes else {
            throw WarpLinkError.validation([WarpLinkFieldProblem("query", "is too large")])
        }
        let domain = hostRouted ? (request.hostName ?? WarpLinkNames.sharedDomain)
            : (items.first { $0.0 == "domain" }?.1.lowercased() ?? WarpLinkNames.sharedDomain)
        let zoneText = items.first { $0.0 == "tz" }?.1
        let tapped = ParameterSet(items.filter { $0.0 != "tz" && (hostRouted || $0.0 != "domain") })
        guard let project = context.projectID else { throw WarpLinkError.notFound }
        let now = context.now
        let zone = zoneText.flatMap { TimeZones.isValid($0) ? $0 : nil }
        if let zoneText, zone == nil { context.services.logger.info("warplink redirect: ignoring invalid tz", [("tz", zoneText)]) }
        let clickID = context.services.generateIDs(for: project) { $0.uuid() }
        let settings = try await settings(context)
        let ip = clientIP(request, settings: settings)
        let acceptLanguage = request.headers["accept-language"]
        let userAgent = request.headers["user-agent"]
        let location = try await context.database.write { connection -> String in
            let settings = try WarpLinkStore.settings(project, defaults: defaults, connection)
            let link = try LinkLookup.find(project: project, domain: domain, slug: slug, appID: nil, now: now, lenient: false, connection)
            let shaped = LinkReshaper.reshape(link, tapped: tapped)
            try WarpLinkStore.insert(ClickRecord(
                id: clickID, linkID: link.id, appID: link.appID, source: "redirect", ip: ip, acceptLanguage: acceptLanguage,
                language: LanguageNormalizer.normalize(acceptLanguage, mode: settings.languageMode), timezone: zone,
                timezoneOffset: zone.flatMap { TimeZones.jsOffset($0, at: now) }, deviceID: nil, fingerprint: nil, userAgent: userAgent,
                tapID: nil, destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL,
                customParams: shaped.customParams.json, clickedAt: now, claimedBy: nil, claimedAt: nil), project: project, connection)
            return shaped.destinationURL
        }
        var response = Response(status: 302)
        response.headers.set("Location", location)
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Whether `host` serves short links at `/{slug}`: `aplnk.to`, `<handle>.aplnk.to`, or a custom domain.
    func isLinkHost(_ host: String) -> Bool {
        host == WarpLinkNames.sharedDomain || host.hasSuffix("." + WarpLinkNames.sharedDomain) || state.project(forDomain: host) != nil
    }
}

/// Finds the link a resolve or redirect names and applies the status order of [W-L2].
enum LinkLookup {
    static func find(project: ProjectID, domain: String, slug: String, appID: String?, now: Date, lenient: Bool,
                     _ connection: SQLiteConnection) throws -> LinkRecord {
        var found = try WarpLinkStore.link(project, domain: domain, slug: slug, connection)
        if found == nil, lenient {
            let candidates = try WarpLinkStore.links(project, slug: slug, connection)
            if candidates.count == 1 { found = candidates[0] }
        }
        guard let link = found, try isServed(domain: link.domain, project: project, connection), link.isActive else { throw WarpLinkError.notFound }
        if let appID, let owner = link.appID, owner != appID { throw WarpLinkError.notFound }
        if let expiry = link.expiresAt, expiry <= now { throw WarpLinkError.gone }
        if let password = link.password, !password.isEmpty { throw WarpLinkError.passwordRequired }
        return link
    }

    /// Whether links on `domain` are served: `aplnk.to`, a handle of one of the project's apps,
    /// or one of its verified (not suspended) custom domains.
    static func isServed(domain: String, project: ProjectID, _ connection: SQLiteConnection) throws -> Bool {
        if domain == WarpLinkNames.sharedDomain { return true }
        if domain.hasSuffix("." + WarpLinkNames.sharedDomain) {
            let handle = String(domain.dropLast(WarpLinkNames.sharedDomain.count + 1))
            return try WarpLinkStore.project(forHandle: handle, connection) == project
        }
        return try WarpLinkStore.domain(project, hostname: domain, connection)?.state == "verified"
    }
}
