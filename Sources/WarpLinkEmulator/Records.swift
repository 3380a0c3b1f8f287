import EmulatorCore
import Foundation
import Storage

/// An app of the org (project): its handle gives it `<handle>.aplnk.to`.
public struct AppRecord: Sendable, Equatable, RowDecodable {
    /// UUID.
    public var id: String
    /// Display name.
    public var name: String
    /// Handle, unique server-wide.
    public var handle: String
    /// iOS bundle identifier.
    public var iosBundleID: String?
    /// Android application id.
    public var androidPackageName: String?
    /// Creation time.
    public var createdAt: Date

    /// An app.
    public init(id: String, name: String, handle: String, iosBundleID: String?, androidPackageName: String?, createdAt: Date) {
        self.id = id
        self.name = name
        self.handle = handle
        self.iosBundleID = iosBundleID
        self.androidPackageName = androidPackageName
        self.createdAt = createdAt
    }

    /// Reads a `warplink_apps` row.
    public init(row: Row) throws {
        self.init(
            id: try row.decode("id"), name: try row.decode("name"), handle: try row.decode("handle"),
            iosBundleID: try row.decodeIfPresent("ios_bundle_id"), androidPackageName: try row.decodeIfPresent("android_package_name"),
            createdAt: try row.timestamp("created_at"))
    }

    /// `<handle>.aplnk.to`.
    public var handleDomain: String { handle + "." + WarpLinkNames.sharedDomain }
}

/// Whether a key is an SDK key (org- or app-scoped, fixed scopes) or an API key (chosen scopes).
public enum KeyKind: String, Sendable, Equatable, SQLColumnDecodable {
    /// Ships inside an app; may resolve links and record installs.
    case sdk
    /// A server-side key with explicit scopes.
    case api

}

/// Whether a key is accepted.
public enum KeyState: String, Sendable, Equatable, SQLColumnDecodable {
    /// Accepted.
    case active
    /// Refused with 401 until restored.
    case revoked

}

/// An SDK or API key.
public struct KeyRecord: Sendable, Equatable, RowDecodable {
    /// The owning project.
    public var projectID: ProjectID
    /// The key itself (`wl_live_…`, or `wl_test_…` when seeded so).
    public var value: String
    /// SDK or API key.
    public var kind: KeyKind
    /// Scopes; SDK keys always hold `links:read` and `attribution:write`.
    public var scopes: [String]
    /// The app an SDK key is bound to, if any.
    public var appID: String?
    /// Active or revoked.
    public var state: KeyState
    /// A label.
    public var name: String?
    /// Creation time.
    public var createdAt: Date
    /// When it was revoked.
    public var revokedAt: Date?

    /// The fixed scopes of an SDK key.
    public static let sdkScopes = ["links:read", "attribution:write"]
    /// Scopes an API key may hold.
    public static let apiScopes: Set<String> = [
        "links:read", "links:write", "apps:read", "apps:write", "apps:*", "analytics:read",
        "keys:read", "keys:write", "keys:*", "domains:read", "domains:write", "domains:*",
        "org:read", "attribution:write",
    ]

    /// A key.
    public init(
        projectID: ProjectID, value: String, kind: KeyKind, scopes: [String], appID: String?, state: KeyState, name: String?,
        createdAt: Date, revokedAt: Date?
    ) {
        self.projectID = projectID
        self.value = value
        self.kind = kind
        self.scopes = scopes
        self.appID = appID
        self.state = state
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// Reads a `warplink_keys` row (scopes are stored space-separated).
    public init(row: Row) throws {
        let scopes: String = try row.decode("scopes")
        self.init(
            projectID: try row.decode("project_id"), value: try row.decode("value"), kind: try row.decode("kind"),
            scopes: scopes.split(separator: " ").map(String.init), appID: try row.decodeIfPresent("app_id"), state: try row.decode("state"),
            name: try row.decodeIfPresent("name"), createdAt: try row.timestamp("created_at"),
            revokedAt: try row.timestampIfPresent("revoked_at"))
    }

    /// Whether the key may read links.
    public var canReadLinks: Bool { kind == .sdk || scopes.contains("links:read") }
}

/// Whether a custom domain serves links.
public enum DomainState: String, Sendable, Equatable, SQLColumnDecodable {
    /// Serves its links.
    case verified
    /// Its links answer 404 until it is verified again.
    case suspended

}

/// A custom link domain.
public struct DomainRecord: Sendable, Equatable, RowDecodable {
    /// Lower-case host name.
    public var hostname: String
    /// Verified or suspended.
    public var state: DomainState
    /// The app it serves, if any.
    public var appID: String?
    /// Creation time.
    public var createdAt: Date

    /// A domain.
    public init(hostname: String, state: DomainState, appID: String?, createdAt: Date) {
        self.hostname = hostname
        self.state = state
        self.appID = appID
        self.createdAt = createdAt
    }

    /// Reads a `warplink_domains` row.
    public init(row: Row) throws {
        self.init(
            hostname: try row.decode("hostname"), state: try row.decode("state"), appID: try row.decodeIfPresent("app_id"),
            createdAt: try row.timestamp("created_at"))
    }
}
