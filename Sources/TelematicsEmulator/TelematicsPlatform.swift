import EmulatorCore
import Foundation
import HTTPServer
import Storage

extension PlatformID {
    /// Sentilant Telematics: driving data.
    public static let telematics = PlatformID("telematics")
}

/// The Sentilant Telematics backend: routing, credentials, error format and fixtures.
///
/// Tokens embed the project's `tenantKey` credential (`tma_<tenant>_<secret>`), so the project
/// of a request is found from its bearer token (or, on refresh, its refresh token) without a lookup.
public struct TelematicsPlatform: Platform {
    /// Configuration from the `telematics` section of the configuration file (`hosts`: real host
    /// names served unprefixed; `apiRoot`: default `/api/v1`; `settings`: project settings
    /// defaults, under what each project's control plane changes).
    public let configuration: JSONValue
    private let hosts: Set<String>
    private let apiRoot: String
    private let configuredSettings: JSONValue

    /// Creates the platform; throws when the section has an unknown key or a value of the wrong
    /// type or range, so the server refuses to start rather than failing every request.
    public init(configuration: JSONValue = .null) throws(TelematicsConfigurationError) {
        let checked = try TelematicsConfiguration(configuration)
        self.configuration = configuration
        self.hosts = checked.hosts
        self.apiRoot = checked.apiRoot
        self.configuredSettings = checked.settings
    }

    /// `telematics`.
    public var id: PlatformID { .telematics }

    /// Configured real hosts (`telematics.hosts`) are served without the `/telematics` prefix [D-TM-01].
    public func pathPrefix(forHost host: String) -> String? {
        hosts.contains(host) ? id.pathPrefix : nil
    }

    /// SDK routes.
    public func routes() -> [Route] { TelematicsRoutes(apiRoot: apiRoot, configuredSettings: configuredSettings).routes() }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] { TelematicsAdmin(configuredSettings: configuredSettings).routes() }

    /// The platform's own error body [D-TM-03].
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        TelematicsError(failure).response(traceID: requestID)
    }

    /// The bearer access token, or — on the refresh route, or without a bearer token — the
    /// refresh token in the body; the project comes from the tenant key inside either.
    /// One credential at most, of kind `accessToken` or `refreshToken` by where it came from,
    /// kept as sent (`sent`) even when it carries no tenant: the route group reads the tokens
    /// from here, so a malformed one still gets its own 401 message.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        let bearer = request.bearerToken
        var token = bearer.map { (kind: "accessToken", value: $0, carrier: PresentedCredential.Carrier.header("Authorization")) }
        if bearer == nil || request.path.hasSuffix("/auth/refresh"), let refresh = TelematicsRoutes.refreshToken(in: request) {
            token = (kind: "refreshToken", value: refresh, carrier: .bodyField("refreshToken"))
        }
        guard let token else { return [] }
        return [PresentedCredential(kind: token.kind, value: Self.tenant(of: token.value) ?? "", sent: token.value, carrier: token.carrier)]
    }

    /// The project whose tenant key a token carries.
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        guard !credential.value.isEmpty else { return nil } // a token without a tenant names no project
        guard let project = try await services.project(forIssuedCredential: credential.value, platform: .telematics) else { return nil }
        return CredentialRecord(project: project, kind: credential.kind, value: credential.value)
    }

    /// The tenant key inside `tma_<tenant>_<secret>` / `tmr_<tenant>_<secret>`.
    /// Parts are the non-empty runs between underscores, as `split(separator: "_")` makes them;
    /// an ASCII token (every minted one) is scanned byte by byte, since the split cost ~2 µs of
    /// every Telematics request.
    static func tenant(of token: String) -> String? {
        let utf8 = token.utf8
        guard !utf8.contains(where: { $0 >= 0x80 }) else {
            let parts = token.split(separator: "_")
            guard parts.count == 3, parts[0] == "tma" || parts[0] == "tmr", !parts[1].isEmpty else { return nil }
            return String(parts[1])
        }
        var parts: (kind: Range<String.Index>?, tenant: Range<String.Index>?, count: Int) = (nil, nil, 0)
        var index = utf8.startIndex, partStart: String.Index?
        while true {
            let atEnd = index == utf8.endIndex
            if atEnd || utf8[index] == UInt8(ascii: "_") {
                if let start = partStart {
                    parts.count += 1
                    if parts.count == 1 { parts.kind = start..<index } else if parts.count == 2 { parts.tenant = start..<index }
                    partStart = nil
                }
                if atEnd { break }
            } else if partStart == nil {
                partStart = index
            }
            index = utf8.index(after: index)
        }
        guard parts.count == 3, let kind = parts.kind, let tenant = parts.tenant,
            utf8[kind].elementsEqual("tma".utf8) || utf8[kind].elementsEqual("tmr".utf8)
        else { return nil }
        return String(token[tenant])
    }

    /// Fresh credentials: the tenant key tokens carry, and a service code for `setServiceCode`.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["serviceCode": generator.alphanumeric(8).uppercased(), "tenantKey": generator.lowerAlphanumeric(10)]
    }

    /// Nothing to store: settings default until changed, users and tokens come from the control plane.
    public func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {}

    /// SDK settings to paste, under `TelematicsTokenInitOptions`' names (and `setServiceCode`'s):
    /// `baseURL`, and `token` / `refreshToken` when the project has a session pair recorded as
    /// credentials (the demo project's fixtures do); other projects mint pairs with
    /// `POST /__admin/projects/{id}/telematics/tokens`. The tenant key is not an SDK setting.
    public func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] {
        var settings = ["baseURL": endpoints.baseURL + "/telematics", "serviceCode": credentials["serviceCode"] ?? ""]
        for name in TelematicsFixtures.sessionCredentialNames { settings[name] = credentials[name] }
        return settings
    }

    /// `TelematicsTokenInitOptions.baseURL` takes a full URL (a bare host would mean HTTPS to it).
    public var sdkConnection: SDKConnection { .baseURL(setting: "baseURL") }

    /// Per-project tables, parents first.
    public var projectTables: [String] { TelematicsStore.tables }

    /// Demo fixtures: settings, users with token pairs, vehicles with kilometers, a few days of trips.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {
        try TelematicsFixtures(store: TelematicsStore(connection: connection), configuredSettings: configuredSettings).load(fixtures, project: project, now: now)
    }

    /// The rules of the Telematics usage guide the integration checks hold requests to.
    public var checkRules: [any CheckRule] { TelematicsRules.all }

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue { TelematicsOpenAPI.document(apiRoot: apiRoot) }
}

extension TelematicsPlatform {
    /// Forgets a user's installation (the user id, bare or as `user:<id>`): every token pair the
    /// user holds goes, so the app's stored tokens are unknown and it must sign in again.
    public func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int {
        let digits = device.hasPrefix("user:") ? String(device.dropFirst("user:".count)) : device
        guard let user = Int(digits) else {
            throw AdminError(status: 409, code: "no_device_state", message: "`\(device)` is not a Telematics user id; nothing is kept for it.")
        }
        return try await services.database.write { try TelematicsStore(connection: $0).forgetTokenPairs(project, userID: user) }
    }
}
