import EmulatorCore
import Foundation

/// The WarpLink document's reusable schemas.
extension WarpLinkOpenAPI {
    private typealias S = OpenAPISchema

    /// A control-plane input: every member optional except `required`.
    private static func inputObject(_ properties: [String: JSONValue], required: Set<String> = []) -> JSONValue {
        S.object(properties, optional: Set(properties.keys).subtracting(required))
    }

    /// Reusable schemas: the SDK bodies exactly as on the wire, then the control plane's.
    static func schemas() -> [String: JSONValue] {
        let scalars = S.map(["type": ["string", "number", "integer", "boolean"]])
        let field = S.object(["field": S.string, "message": S.string])
        let timestamp: JSONValue = ["type": "string", "format": "date-time"]
        let nullableTimestamp: JSONValue = ["type": ["string", "null"], "format": "date-time"]
        let uuid: JSONValue = ["type": "string", "format": "uuid"]
        let nullableUUID: JSONValue = ["type": ["string", "null"], "format": "uuid"]
        let matchType: JSONValue = ["type": ["string", "null"], "enum": ["deterministic", "probabilistic", nil]]
        return [
            "Error": S.object([
                "error": S.object(
                    [
                        "code": [
                            "type": "string",
                            "enum": [
                                "VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "PASSWORD_REQUIRED", "NOT_FOUND",
                                "GONE", "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR", "METHOD_NOT_ALLOWED",
                            ],
                        ],
                        "message": S.string, "details": S.object(["fields": S.array(field)]),
                    ],
                    optional: ["details"])
            ]),
            "AdminError": S.object(["error": S.object(["code": S.string, "message": S.string, "details": ["type": "object"]], optional: ["details"])]),
            "Validation": S.object(["valid": S.boolean, "domains": S.array(S.string)]),
            "Link": S.object([
                "id": uuid, "slug": S.string, "domain": S.string, "short_url": S.string, "destination_url": S.string, "ios_url": S.nullable(S.string),
                "ios_fallback_url": S.nullable(S.string), "android_url": S.nullable(S.string), "android_fallback_url": S.nullable(S.string), "custom_params": S.map(S.string),
                "app_id": nullableUUID, "expires_at": nullableTimestamp, "is_active": S.boolean, "tags": S.array(S.string), "created_at": timestamp,
                "updated_at": timestamp,
            ]),
            "AttributionRequest": S.object(
                [
                    "platform": ["type": "string", "enum": ["ios", "android"]], "sdk_version": S.string,
                    "fingerprint_version": ["type": "string", "enum": ["basic", "enriched", "enriched_tz"]], "is_reinstall": S.boolean,
                    "app_package_name": ["type": "string", "minLength": 1], "app_bundle_id": ["type": "string", "minLength": 1], "device_id": uuid,
                    "referrer": S.string, "accept_language": S.string, "timezone_offset": S.integer, "timezone": S.string,
                    "fingerprint": ["type": "string", "pattern": "^[0-9a-fA-F]{64}$"],
                ], optional: ["is_reinstall", "app_package_name", "app_bundle_id", "device_id", "referrer", "accept_language", "timezone_offset", "timezone", "fingerprint"],
                open: true),
            "AttributionMatch": [
                "oneOf": [
                    S.object([
                        "matched": ["const": true], "match_type": matchType, "match_confidence": ["type": "number"], "match_guaranteed": S.boolean,
                        "link_id": nullableUUID, "deep_link_url": S.nullable(S.string), "destination_url": S.nullable(S.string), "custom_params": scalars,
                        "install_id": uuid, "app_id": nullableUUID,
                    ]),
                    S.object([
                        "matched": ["const": false], "match_type": ["type": "null"], "match_confidence": ["type": "null"], "match_guaranteed": ["type": "null"],
                        "link_id": ["type": "null"], "deep_link_url": ["type": "null"], "destination_url": ["type": "null"],
                        "custom_params": ["type": "null"], "install_id": ["type": "null"], "app_id": ["type": "null"],
                    ]),
                    S.object(["matched": ["const": false]]),
                ]
            ],
            "Settings": S.object([
                "validate_rejection": ["type": "string", "enum": ["401", "403", "valid_false"]], "api_key_attribution_status": ["type": "integer", "enum": [401, 403]],
                "no_match_style": ["type": "string", "enum": ["explicit_nulls", "minimal"]], "language_mode": ["type": "string", "enum": ["full", "primary"]],
                "scoring": ["type": "string", "enum": ["current", "legacy"]], "ip_multipliers": S.boolean, "client_ip": S.nullable(S.string),
                "trust_forwarded_for": S.boolean, "lenient_lookup": S.boolean, "enforce_rate_limit": S.boolean,
                "expired_link_status": ["type": "integer", "enum": [404, 410]],
            ]),
            "App": S.object([
                "id": uuid, "name": S.string, "handle": S.string, "domain": S.string, "ios_bundle_id": S.nullable(S.string),
                "android_package_name": S.nullable(S.string), "created_at": timestamp,
            ]),
            "AppInput": S.object(
                ["id": uuid, "name": S.string, "handle": S.string, "ios_bundle_id": S.string, "android_package_name": S.string],
                optional: ["id", "handle", "ios_bundle_id", "android_package_name"]),
            "Key": S.object([
                "value": S.string, "kind": ["type": "string", "enum": ["sdk", "api"]], "scopes": S.array(S.string), "app_id": nullableUUID,
                "state": ["type": "string", "enum": ["active", "revoked"]], "name": S.nullable(S.string), "created_at": timestamp,
                "revoked_at": nullableTimestamp,
            ]),
            "KeyInput": inputObject([
                "value": ["type": "string", "pattern": "^wl_(live|test)_[a-zA-Z0-9]{32}$"], "kind": ["type": "string", "enum": ["sdk", "api"]],
                "scopes": S.array(S.string), "app_id": uuid, "name": S.string, "state": ["type": "string", "enum": ["active", "revoked"]],
            ]),
            "Domain": S.object(["hostname": S.string, "state": ["type": "string", "enum": ["verified", "suspended"]], "app_id": nullableUUID, "created_at": timestamp]),
            "DomainInput": S.object(["hostname": S.string, "state": ["type": "string", "enum": ["verified", "suspended"]], "app_id": uuid], optional: ["state", "app_id"]),
            "StoredLink": S.object([
                "id": uuid, "slug": S.string, "domain": S.string, "short_url": S.string, "destination_url": S.string, "ios_url": S.nullable(S.string),
                "ios_fallback_url": S.nullable(S.string), "android_url": S.nullable(S.string), "android_fallback_url": S.nullable(S.string), "custom_params": scalars,
                "app_id": nullableUUID, "tags": S.array(S.string), "password_protected": S.boolean, "expires_at": nullableTimestamp, "is_active": S.boolean,
                "match_window_hours": ["type": ["integer", "null"]], "created_at": timestamp, "updated_at": timestamp,
            ]),
            "LinkInput": inputObject(
                [
                    "id": uuid, "slug": S.string, "domain": S.string, "destination_url": S.string, "ios_url": S.string, "ios_fallback_url": S.string,
                    "android_url": S.string, "android_fallback_url": S.string, "custom_params": scalars, "app_id": uuid, "tags": S.array(S.string),
                    "password": S.string, "expires_at": timestamp, "is_active": S.boolean, "match_window_hours": ["type": "integer", "minimum": 1, "maximum": 72],
                    "created_at": timestamp,
                ], required: ["destination_url"]),
            "Click": S.object([
                "id": S.string, "link_id": uuid, "app_id": nullableUUID, "source": ["type": "string", "enum": ["redirect", "resolve", "seed"]],
                "ip": S.nullable(S.string), "accept_language": S.nullable(S.string), "language": S.nullable(S.string), "timezone": S.nullable(S.string),
                "timezone_offset": ["type": ["integer", "null"]], "device_id": S.nullable(S.string), "fingerprint": S.nullable(S.string), "user_agent": S.nullable(S.string),
                "tap_id": S.nullable(S.string), "destination_url": S.nullable(S.string), "ios_url": S.nullable(S.string), "android_url": S.nullable(S.string),
                "custom_params": S.map(S.string), "clicked_at": timestamp, "claimed": S.boolean, "claimed_by": S.nullable(S.string), "claimed_at": nullableTimestamp,
            ]),
            "ClickInput": inputObject([
                "slug": S.string, "domain": S.string, "link_id": uuid, "ip": S.string, "accept_language": S.string, "timezone": S.string, "timezone_offset": S.integer,
                "device_id": uuid, "fingerprint": S.string, "user_agent": S.string, "params": S.map(S.string), "clicked_at": timestamp, "age_seconds": ["type": "number"],
            ]),
            "Install": S.object([
                "install_id": uuid, "app_id": nullableUUID, "platform": S.nullable(S.string), "sdk_version": S.nullable(S.string), "device_id": S.nullable(S.string),
                "is_reinstall": ["type": ["boolean", "null"]],
                "outcome": ["type": "string", "enum": ["referrer", "device_id", "fingerprint", "signals", "no_match", "ambiguous_app"]],
                "matched": S.boolean, "match_type": matchType, "match_confidence": ["type": ["number", "null"]], "link_id": nullableUUID,
                "click_id": S.nullable(S.string), "tap_id": S.nullable(S.string), "ip": S.nullable(S.string), "source": ["type": "string", "enum": ["sdk", "seed"]],
                "created_at": timestamp,
            ]),
            "InstallInput": inputObject([
                "id": uuid, "device_id": uuid, "link_id": uuid, "slug": S.string, "domain": S.string, "app_id": uuid, "platform": ["type": "string", "enum": ["ios", "android"]],
                "sdk_version": S.string, "match_type": ["type": "string", "enum": ["deterministic", "probabilistic"]], "match_confidence": ["type": "number"],
                "is_reinstall": S.boolean, "created_at": timestamp,
            ]),
        ]
    }
}
