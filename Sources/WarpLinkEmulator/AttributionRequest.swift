import EmulatorCore
import Foundation

/// A validated `POST /attribution/match` body ([W-A2]). Unknown and legacy fields are ignored;
/// explicit `null` counts as absent.
public struct AttributionRequest: Sendable, Equatable {
    /// `ios` or `android`.
    public var platform: String
    /// The SDK's version.
    public var sdkVersion: String
    /// `basic`, `enriched` or `enriched_tz`.
    public var fingerprintVersion: String
    /// True/false, or nil when absent (stored as unknown).
    public var isReinstall: Bool?
    /// Android application id.
    public var appPackageName: String?
    /// iOS bundle id.
    public var appBundleID: String?
    /// IDFV.
    public var deviceID: String?
    /// Play referrer link id, only when it is a UUID (anything else is ignored).
    public var referrer: String?
    /// Raw `accept_language`.
    public var acceptLanguage: String?
    /// JS-sign offset in minutes.
    public var timezoneOffset: Int?
    /// IANA zone.
    public var timezone: String?
    /// Pre-computed fingerprint.
    public var fingerprint: String?

    /// Allowed `fingerprint_version` values.
    public static let fingerprintVersions: Set<String> = ["basic", "enriched", "enriched_tz"]

    /// Parses and validates `body`, collecting every field problem.
    public static func parse(_ body: Data) throws(WarpLinkError) -> AttributionRequest {
        // Why the body is not JSON does not matter: the SDKs get one fixed message for any unreadable body.
        guard !body.isEmpty, let value = try? JSONValue.parse(body) else {
            throw .bodyNotJSON
        }
        guard case .object(let members) = value else {
            throw .bodyNotObject
        }
        var problems: [WarpLinkFieldProblem] = []
        func string(_ key: String, required: Bool = false) -> String? {
            switch members[key] {
            case nil, .null?:
                if required { problems.append(WarpLinkFieldProblem(key, "is required")) }
                return nil
            case .string(let text)?:
                return text
            default:
                problems.append(WarpLinkFieldProblem(key, "must be a string"))
                return nil
            }
        }
        var request = AttributionRequest(platform: "", sdkVersion: "", fingerprintVersion: "")
        if let platform = string("platform", required: true) {
            if ["ios", "android"].contains(platform) { request.platform = platform } else { problems.append(WarpLinkFieldProblem("platform", "must be one of: ios, android")) }
        }
        if let version = string("sdk_version", required: true) {
            if version.isEmpty || version.utf8.count > 64 { problems.append(WarpLinkFieldProblem("sdk_version", "must be 1–64 characters")) } else { request.sdkVersion = version }
        }
        if let version = string("fingerprint_version", required: true) {
            if fingerprintVersions.contains(version) {
                request.fingerprintVersion = version
            } else {
                problems.append(WarpLinkFieldProblem("fingerprint_version", "must be one of: basic, enriched, enriched_tz"))
            }
        }
        switch members["is_reinstall"] {
        case nil, .null?: break
        case .bool(let flag)?: request.isReinstall = flag
        default: problems.append(WarpLinkFieldProblem("is_reinstall", "must be a boolean"))
        }
        for (key, path) in [("app_package_name", \AttributionRequest.appPackageName), ("app_bundle_id", \AttributionRequest.appBundleID)] {
            if let name = string(key) {
                if name.isEmpty || name.utf8.count > 255 { problems.append(WarpLinkFieldProblem(key, "must be 1–255 characters")) } else { request[keyPath: path] = name }
            }
        }
        if let device = string("device_id") {
            if WarpLinkNames.isUUID(device) { request.deviceID = device } else { problems.append(WarpLinkFieldProblem("device_id", "must be a UUID")) }
        }
        if let referrer = string("referrer"), WarpLinkNames.isUUID(referrer) { request.referrer = referrer.lowercased() }
        if let language = string("accept_language") {
            if language.utf8.count > 512 { problems.append(WarpLinkFieldProblem("accept_language", "must be at most 512 characters")) } else { request.acceptLanguage = language }
        }
        switch members["timezone_offset"] {
        case nil, .null?: break
        case let number? where number.intValue != nil:
            let minutes = number.intValue ?? 0
            if (-900...900).contains(minutes) {
                request.timezoneOffset = minutes
            } else {
                problems.append(WarpLinkFieldProblem("timezone_offset", "must be between -900 and 900 minutes"))
            }
        default: problems.append(WarpLinkFieldProblem("timezone_offset", "must be an integer"))
        }
        if let zone = string("timezone") {
            if TimeZones.isValid(zone) { request.timezone = zone } else { problems.append(WarpLinkFieldProblem("timezone", "must be an IANA time zone name")) }
        }
        if let fingerprint = string("fingerprint") {
            if WarpLinkNames.isFingerprint(fingerprint) {
                request.fingerprint = fingerprint.lowercased()
            } else {
                problems.append(WarpLinkFieldProblem("fingerprint", "must be 64 hexadecimal characters"))
            }
        }
        if !problems.isEmpty { throw .validation(problems) }
        return request
    }
}
