import Foundation

/// A `/attribution/match` body as an SDK sends it; nil members are omitted.
public struct WarpLinkAttributionRequest: Sendable, Equatable, Encodable {
    /// `ios` or `android`.
    public var platform: String
    /// The SDK's version, e.g. `1.1.0`.
    public var sdkVersion: String
    /// Which signals the SDK collected (`enriched_tz`, `enriched` or `basic`); it caps the confidence.
    public var fingerprintVersion: String
    /// Whether the SDK believes the app was installed before on this device; stored on the install record.
    public var isReinstall: Bool?
    /// The Android package name; picks the app when the key is org-wide.
    public var appPackageName: String?
    /// The iOS bundle id; picks the app when the key is org-wide.
    public var appBundleID: String?
    /// The iOS IDFV (a UUID), matched against seeded clicks and earlier installs.
    public var deviceID: String?
    /// The Play install referrer (a link id), the deterministic Android tier; ignored unless a UUID.
    public var referrer: String?
    /// The device languages as an `Accept-Language` value; part of every signals bucket.
    public var acceptLanguage: String?
    /// The device's UTC offset in minutes with JavaScript's sign (UTC+2 is -120).
    public var timezoneOffset: Int?
    /// The device's IANA zone, e.g. `Europe/Paris`; the most specific signals bucket.
    public var timezone: String?
    /// A hex fingerprint the SDK computed, matched exactly against clicks that carry one.
    public var fingerprint: String?

    enum CodingKeys: String, CodingKey {
        case platform, referrer, timezone, fingerprint
        case sdkVersion = "sdk_version", fingerprintVersion = "fingerprint_version", isReinstall = "is_reinstall"
        case appPackageName = "app_package_name", appBundleID = "app_bundle_id", deviceID = "device_id"
        case acceptLanguage = "accept_language", timezoneOffset = "timezone_offset"
    }

    /// A body; defaults are what Android 1.1.0 sends on a first install.
    public init(
        platform: String = "android", sdkVersion: String = "1.1.0", fingerprintVersion: String = "enriched_tz", isReinstall: Bool? = false,
        appPackageName: String? = nil, appBundleID: String? = nil, deviceID: String? = nil, referrer: String? = nil,
        acceptLanguage: String? = "en-US", timezoneOffset: Int? = nil, timezone: String? = nil, fingerprint: String? = nil
    ) {
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.fingerprintVersion = fingerprintVersion
        self.isReinstall = isReinstall
        self.appPackageName = appPackageName
        self.appBundleID = appBundleID
        self.deviceID = deviceID
        self.referrer = referrer
        self.acceptLanguage = acceptLanguage
        self.timezoneOffset = timezoneOffset
        self.timezone = timezone
        self.fingerprint = fingerprint
    }
}
