import EmulatorCore
import Foundation

/// The deferred-match cascade of [W-M4]: Play referrer → `device_id` → fingerprint → raw signals,
/// inside the request's write transaction (its store) so a click is claimed at most once.
public struct AttributionMatcher: Sendable {
    /// The project.
    public var project: ProjectID
    /// The (active SDK) key making the request.
    public var key: KeyRecord
    /// The validated body.
    public var request: AttributionRequest
    /// The request's effective client IP.
    public var ip: String
    /// The project clock.
    public var now: Date
    /// Matching settings.
    public var settings: MatchingSettings
    /// Id for the install record this call creates.
    public var installID: String
    /// `X-WarpLink-Tap-Id` of the call (kept on the install record, log only).
    public var tapID: String?

    /// Which links an install may claim ([W-A3]).
    public enum AppScope: Sendable, Equatable {
        /// One app (plus app-less links).
        case app(String)
        /// An org without apps: app-less links only.
        case noApps
        /// Several apps and nothing saying which: `ambiguous_app`.
        case ambiguous
    }

    /// Creates a matcher.
    public init(project: ProjectID, key: KeyRecord, request: AttributionRequest, ip: String, now: Date, settings: MatchingSettings, installID: String, tapID: String? = nil) {
        self.tapID = tapID
        self.project = project
        self.key = key
        self.request = request
        self.ip = ip
        self.now = now
        self.settings = settings
        self.installID = installID
    }

    /// The app the request acts as: an app-bound key's app; else by package name or bundle id;
    /// else the org's only app.
    public static func scope(key: KeyRecord, request: AttributionRequest, apps: [AppRecord]) -> AppScope {
        if let bound = key.appID { return .app(bound) }
        if apps.isEmpty { return .noApps }
        let identifiers = [request.appPackageName, request.appBundleID].compactMap { $0 }
        if !identifiers.isEmpty {
            let hits = apps.filter { app in identifiers.contains { $0 == app.androidPackageName || $0 == app.iosBundleID } }
            if hits.count == 1 { return .app(hits[0].id) }
        }
        return apps.count == 1 ? .app(apps[0].id) : .ambiguous
    }

    /// Whether an install in `scope` may claim `link` now.
    public static func isClaimable(_ link: LinkRecord?, scope: AppScope) -> Bool {
        guard let link, link.isActive else { return false }
        switch scope {
        case .app(let id): return link.appID == nil || link.appID == id
        case .noApps: return link.appID == nil
        case .ambiguous: return false
        }
    }

    /// Runs the cascade, claims what it matched and stores the install record.
    public func run(_ store: WarpLinkStore) throws -> AttributionResult {
        let scope = Self.scope(key: key, request: request, apps: try store.apps(project))
        let appID: String? = if case .app(let id) = scope { id } else { nil }
        var result: AttributionResult
        if scope == .ambiguous {
            result = .noMatch("ambiguous_app", installID: installID, appID: nil)
        } else {
            result =
                try referrerMatch(scope, appID, store)
                ?? deviceMatch(scope, appID, store)
                ?? fingerprintMatch(scope, appID, store)
                ?? signalsMatch(scope, appID, store)
                ?? .noMatch("no_match", installID: installID, appID: appID)
        }
        if let click = result.claimedClickID {
            try store.claim(project, clickID: click, install: installID, at: now)
        }
        try store.insert(
            InstallRecord(
                id: installID, appID: result.installAppID, platform: request.platform, sdkVersion: request.sdkVersion, deviceID: request.deviceID,
                isReinstall: request.isReinstall, outcome: result.outcome, matched: result.matched, matchType: result.matchType,
                matchConfidence: result.confidence, linkID: result.installLinkID, clickID: result.claimedClickID, tapID: tapID, ip: ip,
                source: "sdk", createdAt: now), project: project)
        return result
    }

    private func deterministic(
        _ outcome: String, link: LinkRecord, urls: (destination: String?, ios: String?, android: String?),
        params: JSONValue, appID: String?, click: String?
    ) -> AttributionResult {
        AttributionResult(
            matched: true, outcome: outcome, matchType: "deterministic", confidence: 1.0, guaranteed: true, linkID: link.id,
            deepLinkURL: request.platform == "ios" ? urls.ios : urls.android, destinationURL: urls.destination,
            customParams: params, installID: installID, appID: link.appID ?? appID, installAppID: appID,
            installLinkID: link.id, claimedClickID: click)
    }

    private func fromLink(_ outcome: String, _ link: LinkRecord, appID: String?) -> AttributionResult {
        let shaped = LinkReshaper.reshape(link, tapped: ParameterSet())
        return deterministic(
            outcome, link: link, urls: (shaped.destinationURL, shaped.iosURL, shaped.androidURL),
            params: shaped.customParams.json, appID: appID, click: nil)
    }

    private func referrerMatch(_ scope: AppScope, _ appID: String?, _ store: WarpLinkStore) throws -> AttributionResult? {
        guard let referrer = request.referrer, let link = try store.link(project, id: referrer),
            Self.isClaimable(link, scope: scope), link.expiresAt.map({ $0 > now }) ?? true
        else { return nil }
        return fromLink("referrer", link, appID: appID)
    }

    private func deviceMatch(_ scope: AppScope, _ appID: String?, _ store: WarpLinkStore) throws -> AttributionResult? {
        guard let device = request.deviceID else { return nil }
        for click in try store.clicks(project, deviceID: device) {
            guard let link = try store.link(project, id: click.linkID), Self.isClaimable(link, scope: scope) else { continue }
            return deterministic(
                "device_id", link: link, urls: (click.destinationURL, click.iosURL, click.androidURL),
                params: click.customParams, appID: appID, click: click.id)
        }
        guard let earlier = try store.latestAttributedInstall(project, appID: appID, deviceID: device),
            let linkID = earlier.linkID
        else { return nil }
        if let link = try store.link(project, id: linkID) {
            return Self.isClaimable(link, scope: scope) ? fromLink("device_id", link, appID: appID) : nil
        }
        // [W-A6]: the attributed link is gone, so the answer routes nowhere and the SDK keeps asking.
        return AttributionResult(
            matched: true, outcome: "device_id", matchType: earlier.matchType ?? "deterministic",
            confidence: earlier.matchConfidence ?? 1.0, guaranteed: false, linkID: nil, deepLinkURL: nil,
            destinationURL: nil, customParams: [:], installID: installID, appID: nil, installAppID: appID,
            installLinkID: linkID, claimedClickID: nil)
    }

    private func fingerprintMatch(_ scope: AppScope, _ appID: String?, _ store: WarpLinkStore) throws -> AttributionResult? {
        guard let fingerprint = request.fingerprint else { return nil }
        return try probabilistic(
            try store.clicks(project, fingerprint: fingerprint), variant: .enrichedTZ,
            outcome: "fingerprint", scope: scope, appID: appID, store)
    }

    private func signalsMatch(_ scope: AppScope, _ appID: String?, _ store: WarpLinkStore) throws -> AttributionResult? {
        let language = LanguageNormalizer.normalize(request.acceptLanguage, mode: settings.languageMode)
        var tiers: [(String, ConfidenceScale.Variant)] = []
        if let zone = request.timezone { tiers.append((BucketKey.zone(ip: ip, language: language, zone: zone), .enrichedTZ)) }
        if let offset = request.timezoneOffset ?? request.timezone.flatMap({ TimeZones.jsOffset($0, at: now) }) {
            tiers.append((BucketKey.offset(ip: ip, language: language, minutes: offset), .enriched))
        }
        tiers.append((BucketKey.basic(ip: ip, language: language), .basic))
        for (bucket, variant) in tiers {
            if let result = try probabilistic(
                try store.bucket(project, bucket), variant: variant, outcome: "signals",
                scope: scope, appID: appID, store)
            {
                return result
            }
        }
        return nil
    }

    /// The newest claimable click within its link's window, scored per [W-M4]/[W-M5].
    private func probabilistic(
        _ clicks: [ClickRecord], variant: ConfidenceScale.Variant, outcome: String, scope: AppScope, appID: String?,
        _ store: WarpLinkStore
    ) throws -> AttributionResult? {
        // Deferred payloads live no longer than the scale's horizon (24 h, 72 h legacy), so older
        // clicks neither match nor count as competing candidates.
        let horizon: TimeInterval = (settings.isLegacy ? 72 : 24) * 3600
        var claimable: [(ClickRecord, LinkRecord)] = []
        for click in clicks where now.timeIntervalSince(click.clickedAt) < horizon {
            if let link = try store.link(project, id: click.linkID), Self.isClaimable(link, scope: scope) {
                claimable.append((click, link))
            }
        }
        let legacy = settings.isLegacy
        for (click, link) in claimable {
            let age = now.timeIntervalSince(click.clickedAt)
            guard age < ConfidenceScale.window(hours: link.matchWindowHours, legacy: legacy),
                let ceiling = ConfidenceScale.ceiling(variant, age: age, legacy: legacy)
            else { continue }
            let ipFactor = settings.ipMultipliers ? ClientAddress.factorTenths(click.ip ?? "") : 10
            let confidence = ConfidenceScale.confidence(ceiling: ceiling, claimableInBucket: claimable.count, ipFactorTenths: ipFactor, legacy: legacy)
            return AttributionResult(
                matched: true, outcome: outcome, matchType: "probabilistic", confidence: confidence, guaranteed: false,
                linkID: link.id, deepLinkURL: request.platform == "ios" ? click.iosURL : click.androidURL,
                destinationURL: click.destinationURL ?? link.destinationURL, customParams: click.customParams,
                installID: installID, appID: link.appID ?? appID, installAppID: appID, installLinkID: link.id,
                claimedClickID: click.id)
        }
        return nil
    }
}
