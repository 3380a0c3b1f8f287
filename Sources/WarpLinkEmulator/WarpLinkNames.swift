import EmulatorCore
import Foundation

/// Slugs and hosts as the emulator accepts them.
public enum WarpLinkNames {
    /// The shared short-link domain.
    public static let sharedDomain = "aplnk.to"
    /// The real API host.
    public static let apiHost = "api.warplink.app"

    /// Whether `slug` is 1–128 characters of `A–Z a–z 0–9 - _ .` (what short links use).
    public static func isValidSlug(_ slug: String) -> Bool {
        !slug.isEmpty && slug.utf8.count <= 128
            && slug.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95 || byte == 46
            } && slug != "." && slug != ".."
    }

    /// Whether `host` serves short links at `/{slug}`: `aplnk.to`, `<handle>.aplnk.to`, or a custom domain.
    public static func isLinkHost(_ host: String, customDomains: CustomDomainTable) -> Bool {
        host == sharedDomain || host.hasSuffix("." + sharedDomain) || customDomains.owner(of: host) != nil
    }

    /// The handle of `<handle>.aplnk.to`, or nil for any other domain.
    public static func handle(ofHandleDomain domain: String) -> String? {
        guard domain.hasSuffix("." + sharedDomain) else { return nil }
        return String(domain.dropLast(sharedDomain.count + 1))
    }

    /// Whether `key` has the SDKs' local format `wl_(live|test)_<32 alphanumerics>`.
    public static func isWellFormedKey(_ key: String) -> Bool {
        guard key.utf8.count == 40, key.hasPrefix("wl_live_") || key.hasPrefix("wl_test_") else { return false }
        return key.utf8.dropFirst(8).allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// A new key in the format every SDK version accepts: `wl_live_` + 32 alphanumerics (the 1.1
    /// SDKs refuse `wl_test_` locally; such keys are still accepted when seeded explicitly).
    public static func liveKey(using generator: inout IDGenerator) -> String {
        "wl_live_" + generator.alphanumeric(32)
    }

    /// Whether `handle` can be an app handle (`<handle>.aplnk.to`): 1–63 of `a–z 0–9 -`, not starting or ending with `-`.
    public static func isValidHandle(_ handle: String) -> Bool {
        !handle.isEmpty && handle.utf8.count <= 63 && !handle.hasPrefix("-") && !handle.hasSuffix("-")
            && handle.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 45 }
    }

    /// Whether `host` can be a custom domain: a lower-case DNS name with a dot, not an IP, not
    /// localhost and not one of WarpLink's own hosts.
    public static func isValidCustomDomain(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, host.utf8.count <= 253, host != apiHost, host != sharedDomain, !host.hasSuffix("." + sharedDomain) else { return false }
        guard
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 45 }
            })
        else { return false }
        return !labels.allSatisfy { $0.allSatisfy(\.isNumber) } && !(labels.last?.allSatisfy(\.isNumber) ?? false)
    }

    /// Whether `text` is a UUID (any version, either case).
    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != 45 { return false }
            } else if !((48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)) {
                return false
            }
        }
        return true
    }

    /// Whether `text` is 64 hex digits (a pre-computed fingerprint).
    public static func isFingerprint(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }
}
