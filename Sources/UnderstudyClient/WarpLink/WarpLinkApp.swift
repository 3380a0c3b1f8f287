import Foundation

/// An app of the project: its handle domain and the identifiers attribution picks it by.
public struct WarpLinkApp: Sendable, Equatable, Codable {
    /// The app's id (a UUID string).
    public var id: String
    /// Display name.
    public var name: String
    /// The subdomain label of the app's own short-link host, `<handle>.aplnk.to`.
    public var handle: String
    /// The app's handle domain, `<handle>.aplnk.to`.
    public var domain: String
    /// The iOS bundle id an org-wide key uses to pick this app in attribution.
    public var iosBundleID: String?
    /// The Android package name an org-wide key uses to pick this app in attribution.
    public var androidPackageName: String?
    /// When the app was created (`…T…:….mmmZ`).
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, handle, domain
        case iosBundleID = "ios_bundle_id", androidPackageName = "android_package_name", createdAt = "created_at"
    }
}
