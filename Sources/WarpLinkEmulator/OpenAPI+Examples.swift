import EmulatorCore
import Foundation

/// Examples for the WarpLink document, taken from the demo project's real answers, by schema
/// name: every operation's request body and JSON success carry one.
extension WarpLinkOpenAPI {
    private static let appID: JSONValue = "6f1c2a54-3b8e-4d7a-9c21-5e0f7a8b9c10"
    private static let linkID: JSONValue = "1b0e8c1e-4a6f-4f0d-8a61-2d7c9e3f5a01"
    private static let time: JSONValue = "2026-06-01T12:00:00.000Z"

    private static let link: [String: JSONValue] = [
        "id": linkID, "slug": "welcome", "domain": "aplnk.to", "short_url": "https://aplnk.to/welcome",
        "destination_url": "https://demo-shop.example/welcome", "ios_url": "demoshop://welcome", "ios_fallback_url": nil,
        "android_url": "demoshop://welcome", "android_fallback_url": nil, "custom_params": ["campaign": "spring"], "app_id": appID,
        "expires_at": nil, "is_active": true, "tags": ["onboarding"], "created_at": time, "updated_at": time,
    ]

    /// Example values by schema name.
    static let examples: [String: JSONValue] = [
        "Validation": ["valid": true, "domains": ["aplnk.to", "demo-shop.aplnk.to", "go.demo-shop.example"]],
        "Link": .object(link),
        "StoredLink": .object(link.merging(["password_protected": false, "match_window_hours": nil, "custom_params": ["campaign": "spring"]]) { $1 }),
        "AttributionRequest": [
            "platform": "ios", "sdk_version": "1.1.0", "fingerprint_version": "enriched_tz", "app_bundle_id": "com.example.demoshop",
            "device_id": "9d2b6c1e-0c4f-4a39-8d7e-3f1a2b4c5d6e", "accept_language": "en-US", "timezone_offset": -60, "timezone": "Europe/Berlin",
        ],
        "AttributionMatch": [
            "matched": true, "match_type": "probabilistic", "match_confidence": 0.48, "match_guaranteed": false, "link_id": linkID,
            "deep_link_url": "demoshop://welcome", "destination_url": "https://demo-shop.example/welcome", "custom_params": ["campaign": "spring"],
            "install_id": "019ad3e2-7a18-7d05-8b3c-6e1f9a2d4c58", "app_id": appID,
        ],
        "Settings": [
            "validate_rejection": "401", "api_key_attribution_status": 403, "no_match_style": "explicit_nulls", "language_mode": "full",
            "scoring": "current", "ip_multipliers": true, "client_ip": nil, "trust_forwarded_for": false, "lenient_lookup": false, "enforce_rate_limit": false,
            "expired_link_status": 410,
        ],
        "SettingsInput": ["enforce_rate_limit": true, "client_ip": nil],
        "App": [
            "id": appID, "name": "Demo Shop", "handle": "demo-shop", "domain": "demo-shop.aplnk.to", "ios_bundle_id": "com.example.demoshop",
            "android_package_name": "com.example.demoshop", "created_at": time,
        ],
        "AppInput": ["name": "Demo Shop", "handle": "demo-shop", "ios_bundle_id": "com.example.demoshop", "android_package_name": "com.example.demoshop"],
        "Key": [
            "value": "wl_live_demo0000000000000000000000000000", "kind": "sdk", "scopes": ["links:read", "attribution:write"], "app_id": nil,
            "state": "active", "name": "Project SDK key", "created_at": time, "revoked_at": nil,
        ],
        "KeyInput": ["kind": "sdk", "name": "CI key", "scopes": ["links:read", "attribution:write"]],
        "Domain": ["hostname": "go.demo-shop.example", "state": "verified", "app_id": appID, "created_at": time],
        "DomainInput": ["hostname": "go.demo-shop.example", "app_id": appID],
        "LinkInput": [
            "slug": "spring-sale", "destination_url": "https://demo-shop.example/sale", "ios_url": "demoshop://sale",
            "custom_params": ["campaign": "spring"], "app_id": appID, "tags": ["sale"],
        ],
        "LinkPatch": ["is_active": false, "expires_at": nil],
        "Click": [
            "id": "019ad3e2-6f40-7c21-9a5e-4b8d2f1c3e07", "link_id": linkID, "app_id": appID, "source": "resolve", "ip": "127.0.0.1",
            "accept_language": nil, "language": nil, "timezone": nil, "timezone_offset": nil, "device_id": nil, "fingerprint": nil,
            "user_agent": "curl/7.88.1", "tap_id": nil, "destination_url": "https://demo-shop.example/welcome", "ios_url": "demoshop://welcome",
            "android_url": "demoshop://welcome", "custom_params": [:], "clicked_at": time, "claimed": false, "claimed_by": nil, "claimed_at": nil,
        ],
        "ClickInput": ["slug": "welcome", "ip": "203.0.113.7", "accept_language": "en-US", "timezone": "Europe/Berlin", "age_seconds": 600],
        "Install": [
            "install_id": "019ad3e2-7a18-7d05-8b3c-6e1f9a2d4c58", "app_id": appID, "platform": "ios", "sdk_version": "1.1.0",
            "device_id": "9d2b6c1e-0c4f-4a39-8d7e-3f1a2b4c5d6e", "is_reinstall": nil, "outcome": "no_match", "matched": false, "match_type": nil,
            "match_confidence": nil, "link_id": nil, "click_id": nil, "tap_id": nil, "ip": "127.0.0.1", "source": "sdk", "created_at": time,
        ],
        "InstallInput": [
            "device_id": "9d2b6c1e-0c4f-4a39-8d7e-3f1a2b4c5d6e", "slug": "welcome", "platform": "ios", "match_type": "deterministic",
            "match_confidence": 1.0,
        ],
    ]
}
