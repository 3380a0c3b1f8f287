import Foundation

/// A click as recorded (redirect, resolve or seed), with its claim state.
public struct WarpLinkClick: Sendable, Equatable, Decodable {
    /// The click's id; for a resolve it is the `X-WarpLink-Tap-Id` answered.
    public var id: String
    /// The clicked link.
    public var linkID: String
    /// The link's app when it was clicked.
    public var appID: String?
    /// `redirect` (a browser tap), `resolve` (an in-app resolve) or `seed` (the control plane).
    public var source: String
    /// The client IP the click was recorded with.
    public var ip: String?
    /// The raw `Accept-Language` of the click.
    public var acceptLanguage: String?
    /// The normalised language the click is bucketed under, e.g. `en-us`.
    public var language: String?
    /// The IANA zone of the click, if it carried one.
    public var timezone: String?
    /// The UTC offset in minutes (JavaScript sign) of the click, if known.
    public var timezoneOffset: Int?
    /// The IDFV a seeded click carries.
    public var deviceID: String?
    /// The fingerprint a seeded click carries.
    public var fingerprint: String?
    /// The User-Agent of the click (recorded only).
    public var userAgent: String?
    /// The `X-WarpLink-Tap-Id` of a resolve click.
    public var tapID: String?
    /// The destination as reshaped for this click.
    public var destinationURL: String?
    /// The iOS URL as reshaped for this click.
    public var iosURL: String?
    /// The Android URL as reshaped for this click.
    public var androidURL: String?
    /// The parameters merged for this click, as an attribution would return them.
    public var customParams: [String: AnyJSON]
    /// When the click happened (`…T…:….mmmZ`).
    public var clickedAt: String
    /// Whether an install has claimed the click; a claimed click matches no other install.
    public var claimed: Bool
    /// The install that claimed the click.
    public var claimedBy: String?
    /// When the click was claimed.
    public var claimedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, source, ip, language, timezone, fingerprint, claimed
        case linkID = "link_id", appID = "app_id", acceptLanguage = "accept_language", timezoneOffset = "timezone_offset"
        case deviceID = "device_id", userAgent = "user_agent", tapID = "tap_id", destinationURL = "destination_url", iosURL = "ios_url"
        case androidURL = "android_url", customParams = "custom_params", clickedAt = "clicked_at", claimedBy = "claimed_by", claimedAt = "claimed_at"
    }
}
