import EmulatorCore
import Foundation

/// WarpLink's rules for one project at one instant: which key a request acts with, which link a
/// tap names and whether it is served, what a click records. Pure over records and the injected
/// `now`; where a flow needs a read in the middle it asks the store's typed methods (no SQL here).
/// The attribution cascade is `AttributionMatcher`; control-plane validation is in `Service+Admin.swift`.
struct WarpLinkService {
    /// The transaction's store.
    let store: WarpLinkStore
    /// The project the request acts in.
    let project: ProjectID
    /// The project clock's reading for this request.
    let now: Date

    // MARK: Keys

    /// The active key a request presents, or the 401 of [W-V2]/[W-L2]/[W-A1], most specific first:
    /// no `Authorization`, not `Bearer`, malformed key, then unknown or revoked.
    /// - Parameters:
    ///   - authorization: the raw header; `bearer`: its token; `credential`: the core's resolved record.
    static func activeKey(authorization: String?, bearer: String?, credential: CredentialRecord?) throws(WarpLinkError) -> KeyRecord {
        guard authorization != nil else { throw .missingKey }
        guard let bearer else { throw .notBearer }
        guard WarpLinkNames.isWellFormedKey(bearer) else { throw .malformedKey }
        guard let key = credential?.details(as: KeyRecord.self), key.value == bearer, key.state == .active else { throw .unauthorized() }
        return key
    }

    // MARK: Domains and links

    /// The link domains `key` may see (`/sdk/validate`): `aplnk.to`, the handle domains of its
    /// apps, and the verified custom domains of its apps (or of the org).
    func linkDomains(for key: KeyRecord) throws -> [String] {
        var all = [WarpLinkNames.sharedDomain]
        for app in try store.apps(project) where key.appID == nil || key.appID == app.id {
            all.append(app.handleDomain)
        }
        for domain in try store.domains(project) where domain.state == .verified {
            if key.appID == nil || domain.appID == nil || domain.appID == key.appID { all.append(domain.hostname) }
        }
        return all
    }

    /// The link a resolve or redirect names, after the status order of [W-L2]: missing (a slug
    /// outside the slug alphabet or over 128 characters is missing too), inactive, unserved domain
    /// or another app's → 404; expired → 410; password-protected → 403.
    /// `lenient` finds a link by slug alone when the domain does not match and the slug is unique.
    /// `lookups` keeps the exact lookup and the domain's verdict between requests (see `LinkLookups`).
    func servedLink(domain: String, slug: String, appID: String?, lenient: Bool, expiredStatus: Int = 410, lookups: LinkLookups) throws -> LinkRecord {
        // No link can have such a slug; the SDKs read 404 as `linkNotFound` but a 400 as a server error.
        guard WarpLinkNames.isValidSlug(slug) else { throw WarpLinkError.notFound }
        var found = try lookups.link(domain: domain, slug: slug) { try store.link(project, domain: domain, slug: slug) }
        if found == nil, lenient {
            let candidates = try store.links(project, slug: slug)
            if candidates.count == 1 { found = candidates[0] }
        }
        guard let link = found else { throw WarpLinkError.notFound }
        guard try lookups.isServed(domain: link.domain, load: { try isServed(domain: link.domain) }), link.isActive else {
            throw WarpLinkError.notFound
        }
        if let appID, let owner = link.appID, owner != appID { throw WarpLinkError.notFound }
        if let expiry = link.expiresAt, expiry <= now { throw expiredStatus == 404 ? WarpLinkError.notFound : WarpLinkError.gone }
        if let password = link.password, !password.isEmpty { throw WarpLinkError.passwordRequired }
        return link
    }

    /// Whether links on `domain` are served: `aplnk.to`, a handle of one of the project's apps,
    /// or one of its verified (not suspended) custom domains.
    func isServed(domain: String) throws -> Bool {
        if domain == WarpLinkNames.sharedDomain { return true }
        if let handle = WarpLinkNames.handle(ofHandleDomain: domain) { return try store.project(forHandle: handle) == project }
        return try store.domain(project, hostname: domain)?.state == .verified
    }

    // MARK: Clicks

    /// The analytics click a resolve records ([W-L5]): the tap id is the click id, so a retried
    /// tap bills once; resolve clicks never enter the match buckets.
    func resolveClick(
        id: String, link: LinkRecord, shaped: ReshapedLink, ip: String, acceptLanguage: String?, userAgent: String?,
        tapID: String?
    ) -> ClickRecord {
        ClickRecord(
            id: id, linkID: link.id, appID: link.appID, source: .resolve, ip: ip, acceptLanguage: acceptLanguage, language: nil,
            timezone: nil, timezoneOffset: nil, deviceID: nil, fingerprint: nil, userAgent: userAgent, tapID: tapID,
            destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL,
            customParams: shaped.customParams.json, clickedAt: now, claimedBy: nil, claimedAt: nil)
    }

    /// The click a browser redirect records, with the signals the deferred match reads later
    /// (normalised language, the browser's zone and its offset now).
    func redirectClick(
        id: String, link: LinkRecord, shaped: ReshapedLink, ip: String, acceptLanguage: String?, zone: String?,
        userAgent: String?, settings: MatchingSettings
    ) -> ClickRecord {
        ClickRecord(
            id: id, linkID: link.id, appID: link.appID, source: .redirect, ip: ip, acceptLanguage: acceptLanguage,
            language: LanguageNormalizer.normalize(acceptLanguage, mode: settings.languageMode), timezone: zone,
            timezoneOffset: zone.flatMap { TimeZones.jsOffset($0, at: now) }, deviceID: nil, fingerprint: nil, userAgent: userAgent,
            tapID: nil, destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL,
            customParams: shaped.customParams.json, clickedAt: now, claimedBy: nil, claimedAt: nil)
    }
}
