import Foundation

/// A link as stored (the control plane's view: stored URLs, password flag, window).
public struct WarpLinkStoredLink: Sendable, Equatable, Decodable {
    /// The link's id (a UUID string).
    public var id: String
    /// The path segment after the domain in the short URL; case-sensitive.
    public var slug: String
    /// The short-link host the link lives on: `aplnk.to`, an app handle domain or a custom domain.
    public var domain: String
    /// `https://{domain}/{slug}`, the URL a user taps.
    public var shortURL: String
    /// The destination as stored, before the tap's parameters are merged in.
    public var destinationURL: String
    /// The URL an iOS app opens instead of the destination, if the link has one.
    public var iosURL: String?
    /// Where an iOS user without the app is sent, if the link has one.
    public var iosFallbackURL: String?
    /// The URL an Android app opens instead of the destination, if the link has one.
    public var androidURL: String?
    /// Where an Android user without the app is sent, if the link has one.
    public var androidFallbackURL: String?
    /// The link's own parameters, merged into every tap.
    public var customParams: [String: AnyJSON]
    /// The app the link belongs to; nil for an org-wide link.
    public var appID: String?
    /// Free-form labels set when the link was created.
    public var tags: [String]
    /// Whether resolving needs the password (403 `PASSWORD_REQUIRED` otherwise); the password itself is never returned.
    public var passwordProtected: Bool
    /// When the link starts answering 410 `GONE`; nil when it never expires.
    public var expiresAt: String?
    /// Whether the link resolves at all; an inactive link answers 404.
    public var isActive: Bool
    /// How old a click on this link may be and still be matched by signals (default 6, at most 24).
    public var matchWindowHours: Int?
    /// When the link was created (`…T…:….mmmZ`).
    public var createdAt: String
    /// When the link last changed (`…T…:….mmmZ`).
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, tags
        case shortURL = "short_url", destinationURL = "destination_url", iosURL = "ios_url", iosFallbackURL = "ios_fallback_url"
        case androidURL = "android_url", androidFallbackURL = "android_fallback_url", customParams = "custom_params", appID = "app_id"
        case passwordProtected = "password_protected", expiresAt = "expires_at", isActive = "is_active", matchWindowHours = "match_window_hours"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}
