import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document of WarpLink: the three SDK routes (with and without `/v1`), the
/// short-link redirect, and the control plane under `/__admin/projects/{id}/warplink`.
enum WarpLinkOpenAPI {
    // MARK: Schema helpers

    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static let string: JSONValue = ["type": "string"]
    static let nullableString: JSONValue = ["type": ["string", "null"]]
    static let boolean: JSONValue = ["type": "boolean"]
    static let integer: JSONValue = ["type": "integer"]
    static let stringMap: JSONValue = ["type": "object", "additionalProperties": ["type": "string"]]
    static let scalarMap: JSONValue = ["type": "object", "additionalProperties": ["type": ["string", "number", "integer", "boolean"]]]

    static func object(_ properties: [String: JSONValue], required: [String]? = nil, closed: Bool = true) -> JSONValue {
        var members: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        members["required"] = .array((required ?? properties.keys.sorted()).map(JSONValue.string))
        if closed { members["additionalProperties"] = false }
        return .object(members)
    }

    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    static func json(_ description: String, _ schema: JSONValue) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    static func error(_ description: String) -> JSONValue { json(description, ref("Error")) }
    static func adminError(_ description: String) -> JSONValue { json(description, ref("AdminError")) }

    static let rateLimitHeaders: JSONValue = [
        "X-RateLimit-Limit": ["description": "Always 60.", "schema": ["type": "string"]],
        "X-RateLimit-Remaining": ["description": "Requests left in the sliding minute.", "schema": ["type": "string"]],
        "X-RateLimit-Reset": ["description": "Epoch seconds when the window frees a slot.", "schema": ["type": "string"]],
    ]

    static let bearer: JSONValue = [["bearerKey": []]]

    static func parameter(_ name: String, in location: String, required: Bool = false, description: String, schema: JSONValue = string) -> JSONValue {
        ["name": .string(name), "in": .string(location), "required": .bool(required), "description": .string(description), "schema": schema]
    }

    static let tapIDHeader = parameter("X-WarpLink-Tap-Id", in: "header", description: "Lower-case UUID, one per tap or check, repeated on retries (A1.1). On resolve it is the click id.")
    static let projectParameter = parameter("id", in: "path", required: true, description: "Project id.")

    // MARK: Document

    static func document() -> JSONValue {
        var paths: [String: JSONValue] = [:]
        let sdkErrors: [String: JSONValue] = [
            "401": error("Missing, malformed, unknown or revoked key (`UNAUTHORIZED`)."),
            "403": error("`FORBIDDEN`: the key lacks the scope (or validate's 403 rejection style)."),
            "429": error("`RATE_LIMIT_EXCEEDED` when enforcement is on (with `Retry-After`)."),
            "500": error("`INTERNAL_ERROR` (only by fault injection)."),
            "5XX": error("Injected 5xx faults, in WarpLink's envelope."),
        ]
        for base in ["/v1", ""] {
            var validateResponses = sdkErrors
            validateResponses["200"] = ["description": "The key is accepted (or rejected with `valid:false` by setting).", "headers": rateLimitHeaders,
                                        "content": ["application/json": ["schema": ref("Validation")]]]
            paths[base + "/sdk/validate"] = ["get": [
                "operationId": .string("validate" + (base.isEmpty ? "" : "V1")), "summary": "Validate the key; list the org's link domains.",
                "security": bearer, "responses": .object(validateResponses),
            ]]
            var resolveResponses = sdkErrors
            resolveResponses["200"] = ["description": "The Link object, reshaped by `params`; a click is recorded.", "headers": rateLimitHeaders,
                                       "content": ["application/json": ["schema": ref("Link")]]]
            resolveResponses["400"] = error("`VALIDATION_ERROR`: bad slug characters, domain or params.")
            resolveResponses["403"] = json("`PASSWORD_REQUIRED` for a protected link, or `FORBIDDEN` for a key without `links:read`.", ref("Error"))
            resolveResponses["404"] = error("`NOT_FOUND`: missing, inactive, deleted, other app's or suspended-domain link.")
            resolveResponses["410"] = error("`GONE`: the link has expired.")
            paths[base + "/links/resolve/{slug}"] = ["get": [
                "operationId": .string("resolveLink" + (base.isEmpty ? "" : "V1")), "summary": "Resolve a tapped link.", "security": bearer,
                "parameters": [
                    parameter("slug", in: "path", required: true, description: "The single path segment of the tapped URL."),
                    parameter("domain", in: "query", description: "Tapped host, lower-cased; default aplnk.to."),
                    parameter("params", in: "query", description: "The tapped URL's raw query, URL-encoded once more."),
                    tapIDHeader,
                ],
                "responses": .object(resolveResponses),
            ]]
            var matchResponses = sdkErrors
            matchResponses["200"] = ["description": "A match, a routeless match, or a no-match.", "headers": rateLimitHeaders,
                                     "content": ["application/json": ["schema": ref("AttributionMatch")]]]
            matchResponses["400"] = error("`VALIDATION_ERROR` with `details.fields`.")
            matchResponses["403"] = error("`FORBIDDEN`: API keys cannot record installs.")
            paths[base + "/attribution/match"] = ["post": [
                "operationId": .string("matchAttribution" + (base.isEmpty ? "" : "V1")), "summary": "Deferred deep link / install attribution.",
                "security": bearer, "parameters": [tapIDHeader],
                "requestBody": ["required": true, "content": ["application/json": ["schema": ref("AttributionRequest")]]],
                "responses": .object(matchResponses),
            ]]
        }
        paths["/r/{slug}"] = ["get": [
            "operationId": "shortLinkRedirect",
            "summary": "A browser opening a short link (also `GET /{slug}` on Host aplnk.to, <handle>.aplnk.to or a custom domain). Records a click.",
            "parameters": [
                parameter("slug", in: "path", required: true, description: "Slug."),
                parameter("domain", in: "query", description: "Link domain (default aplnk.to); ignored when the Host is a link host."),
                parameter("tz", in: "query", description: "IANA zone of the browser; invalid values are ignored."),
            ],
            "responses": [
                "302": ["description": "Redirect to the reshaped destination (`Location`, `Cache-Control: no-store`)."],
                "400": error("`VALIDATION_ERROR`: bad slug or query."),
                "403": error("`PASSWORD_REQUIRED`."),
                "404": error("`NOT_FOUND`."),
                "410": error("`GONE`."),
                "429": error("`RATE_LIMIT_EXCEEDED`."),
                "5XX": error("Injected faults."),
            ],
        ]]
        for (path, item) in adminPaths() { paths[path] = item }
        return [
            "openapi": "3.1.0",
            "info": ["title": "WarpLink (Understudy)", "version": "1.0.0",
                     "description": "The WarpLink SDK endpoints as Understudy emulates them (see docs/warplink.md), and WarpLink's control plane. Control-plane paths start with /__admin and are relative to the server root, not to the /warplink server URL."],
            "paths": .object(paths),
            "components": ["schemas": .object(schemas()), "securitySchemes": ["bearerKey": ["type": "http", "scheme": "bearer", "description": "wl_live_… or wl_test_… key."]]],
        ]
    }

    // MARK: Control plane

    static func adminPaths() -> [String: JSONValue] {
        let base = "/__admin/projects/{id}/warplink"
        let root: JSONValue = [["url": "/", "description": "Control plane, relative to the server root."]]
        func op(_ id: String, _ summary: String, _ responses: [String: JSONValue], body: JSONValue? = nil, parameters: [JSONValue] = []) -> JSONValue {
            var members: [String: JSONValue] = ["operationId": .string(id), "summary": .string(summary), "responses": .object(responses)]
            if let body { members["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]] }
            if !parameters.isEmpty { members["parameters"] = .array(parameters) }
            return .object(members)
        }
        func item(_ operations: [String: JSONValue], parameters: [JSONValue] = []) -> JSONValue {
            var members = operations
            members["servers"] = root
            members["parameters"] = .array([projectParameter] + parameters)
            return .object(members)
        }
        let bad = adminError("Invalid body or value (`invalid_json`, `unknown_field`, `invalid_value`, …).")
        let missing = adminError("Project or item not found.")
        let conflict = adminError("Already exists (`conflict`).")
        func list(_ key: String, _ schema: String) -> JSONValue { object([key: array(ref(schema))]) }
        let appID = parameter("appId", in: "path", required: true, description: "App id.")
        let keyValue = parameter("value", in: "path", required: true, description: "Key value.")
        let hostname = parameter("hostname", in: "path", required: true, description: "Custom domain.")
        let linkID = parameter("linkId", in: "path", required: true, description: "Link id.")
        let empty: JSONValue = ["description": "Done."]
        return [
            base + "/settings": item([
                "get": op("getSettings", "Matching settings.", ["200": json("Settings.", ref("Settings")), "404": missing]),
                "put": op("updateSettings", "Change some settings.", ["200": json("Settings.", ref("Settings")), "400": bad, "404": missing], body: ["type": "object"]),
            ]),
            base + "/apps": item([
                "post": op("createApp", "Create an app.", ["201": json("App.", ref("App")), "400": bad, "404": missing, "409": conflict], body: ref("AppInput")),
                "get": op("listApps", "Apps.", ["200": json("Apps.", list("apps", "App")), "404": missing]),
            ]),
            base + "/apps/{appId}": item(["delete": op("deleteApp", "Delete an app without keys, domains or links.", ["204": empty, "404": missing, "409": conflict])], parameters: [appID]),
            base + "/keys": item([
                "post": op("createKey", "Create an SDK or API key.", ["201": json("Key.", ref("Key")), "400": bad, "404": missing, "409": conflict], body: ref("KeyInput")),
                "get": op("listKeys", "Keys.", ["200": json("Keys.", list("keys", "Key")), "404": missing]),
            ]),
            base + "/keys/{value}": item(["delete": op("deleteKey", "Delete a key.", ["204": empty, "404": missing])], parameters: [keyValue]),
            base + "/keys/{value}/revoke": item(["post": op("revokeKey", "Revoke a key.", ["200": json("Key.", ref("Key")), "404": missing])], parameters: [keyValue]),
            base + "/keys/{value}/restore": item(["post": op("restoreKey", "Re-activate a key.", ["200": json("Key.", ref("Key")), "404": missing])], parameters: [keyValue]),
            base + "/domains": item([
                "post": op("addDomain", "Add a custom domain.", ["201": json("Domain.", ref("Domain")), "400": bad, "404": missing, "409": conflict], body: ref("DomainInput")),
                "get": op("listDomains", "Custom domains.", ["200": json("Domains.", list("domains", "Domain")), "404": missing]),
            ]),
            base + "/domains/{hostname}": item(["delete": op("deleteDomain", "Remove a domain.", ["204": empty, "404": missing])], parameters: [hostname]),
            base + "/domains/{hostname}/verify": item(["post": op("verifyDomain", "Verify (un-suspend).", ["200": json("Domain.", ref("Domain")), "404": missing])], parameters: [hostname]),
            base + "/domains/{hostname}/suspend": item(["post": op("suspendDomain", "Suspend.", ["200": json("Domain.", ref("Domain")), "404": missing])], parameters: [hostname]),
            base + "/links": item([
                "post": op("createLink", "Create a link.", ["201": json("Link.", ref("StoredLink")), "400": bad, "404": missing, "409": conflict], body: ref("LinkInput")),
                "get": op("listLinks", "Links, oldest first; every link unless `limit` or `offset` is given.",
                          ["200": json("Links and how many the project has.", object(["links": array(ref("StoredLink")), "total": integer], required: ["links", "total"])),
                           "400": bad, "404": missing],
                          parameters: [parameter("limit", in: "query", description: "1–10000 (500 when only `offset` is given).", schema: integer),
                                       parameter("offset", in: "query", description: "Links to skip.", schema: integer)]),
            ]),
            base + "/links/{linkId}": item([
                "get": op("getLink", "One link.", ["200": json("Link.", ref("StoredLink")), "404": missing]),
                "patch": op("updateLink", "Change fields; null clears.", ["200": json("Link.", ref("StoredLink")), "400": bad, "404": missing, "409": conflict], body: ["type": "object"]),
                "delete": op("deleteLink", "Delete (installs attributed to it then match routeless).", ["204": empty, "404": missing]),
            ], parameters: [linkID]),
            base + "/links/{linkId}/expire": item(["post": op("expireLink", "Expire now (project clock).", ["200": json("Link.", ref("StoredLink")), "404": missing])], parameters: [linkID]),
            base + "/clicks": item([
                "post": op("seedClick", "Seed a click (deferred-match input).", ["201": json("Click.", ref("Click")), "400": bad, "404": missing], body: ref("ClickInput")),
                "get": op("listClicks", "Clicks, newest first, with claim state.", ["200": json("Clicks.", list("clicks", "Click")), "400": bad, "404": missing],
                          parameters: [parameter("link_id", in: "query", description: "Only this link."),
                                       parameter("source", in: "query", description: "redirect, resolve or seed."),
                                       parameter("limit", in: "query", description: "1–10000 (500).", schema: integer)]),
            ]),
            base + "/installs": item([
                "post": op("seedInstall", "Seed an earlier install.", ["201": json("Install.", ref("Install")), "400": bad, "404": missing], body: ref("InstallInput")),
                "get": op("listInstalls", "Install records, newest first.", ["200": json("Installs.", list("installs", "Install")), "400": bad, "404": missing],
                          parameters: [parameter("limit", in: "query", description: "1–10000 (500).", schema: integer)]),
            ]),
        ]
    }

    // MARK: Schemas

    static func schemas() -> [String: JSONValue] {
        let field = object(["field": string, "message": string])
        let timestamp: JSONValue = ["type": "string", "format": "date-time"]
        let nullableTimestamp: JSONValue = ["type": ["string", "null"], "format": "date-time"]
        let uuid: JSONValue = ["type": "string", "format": "uuid"]
        let nullableUUID: JSONValue = ["type": ["string", "null"], "format": "uuid"]
        let matchType: JSONValue = ["type": ["string", "null"], "enum": ["deterministic", "probabilistic", nil]]
        return [
            "Error": object(["error": object(["code": ["type": "string", "enum": ["VALIDATION_ERROR", "UNAUTHORIZED", "FORBIDDEN", "PASSWORD_REQUIRED", "NOT_FOUND",
                                                                                 "GONE", "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR", "METHOD_NOT_ALLOWED"]],
                                                     "message": string, "details": object(["fields": array(field)])],
                                                    required: ["code", "message"])]),
            "AdminError": object(["error": object(["code": string, "message": string, "details": ["type": "object"]], required: ["code", "message"])]),
            "Validation": object(["valid": boolean, "domains": array(string)]),
            "Link": object([
                "id": uuid, "slug": string, "domain": string, "short_url": string, "destination_url": string, "ios_url": nullableString,
                "ios_fallback_url": nullableString, "android_url": nullableString, "android_fallback_url": nullableString, "custom_params": stringMap,
                "app_id": nullableUUID, "expires_at": nullableTimestamp, "is_active": boolean, "tags": array(string), "created_at": timestamp,
                "updated_at": timestamp,
            ]),
            "AttributionRequest": object([
                "platform": ["type": "string", "enum": ["ios", "android"]], "sdk_version": string,
                "fingerprint_version": ["type": "string", "enum": ["basic", "enriched", "enriched_tz"]], "is_reinstall": boolean,
                "app_package_name": ["type": "string", "minLength": 1], "app_bundle_id": ["type": "string", "minLength": 1], "device_id": uuid,
                "referrer": string, "accept_language": string, "timezone_offset": integer, "timezone": string,
                "fingerprint": ["type": "string", "pattern": "^[0-9a-fA-F]{64}$"],
            ], required: ["platform", "sdk_version", "fingerprint_version"], closed: false),
            "AttributionMatch": ["oneOf": [
                object(["matched": ["const": true], "match_type": matchType, "match_confidence": ["type": "number"], "match_guaranteed": boolean,
                        "link_id": nullableUUID, "deep_link_url": nullableString, "destination_url": nullableString, "custom_params": scalarMap,
                        "install_id": uuid, "app_id": nullableUUID]),
                object(["matched": ["const": false], "match_type": ["type": "null"], "match_confidence": ["type": "null"], "match_guaranteed": ["type": "null"],
                        "link_id": ["type": "null"], "deep_link_url": ["type": "null"], "destination_url": ["type": "null"],
                        "custom_params": ["type": "null"], "install_id": ["type": "null"], "app_id": ["type": "null"]]),
                object(["matched": ["const": false]]),
            ]],
            "Settings": object([
                "validate_rejection": ["type": "string", "enum": ["401", "403", "valid_false"]], "api_key_attribution_status": ["type": "integer", "enum": [401, 403]],
                "no_match_style": ["type": "string", "enum": ["explicit_nulls", "minimal"]], "language_mode": ["type": "string", "enum": ["full", "primary"]],
                "scoring": ["type": "string", "enum": ["current", "legacy"]], "ip_multipliers": boolean, "client_ip": nullableString,
                "trust_forwarded_for": boolean, "lenient_lookup": boolean, "enforce_rate_limit": boolean,
            ]),
            "App": object(["id": uuid, "name": string, "handle": string, "domain": string, "ios_bundle_id": nullableString,
                           "android_package_name": nullableString, "created_at": timestamp]),
            "AppInput": object(["id": uuid, "name": string, "handle": string, "ios_bundle_id": string, "android_package_name": string], required: ["name"]),
            "Key": object(["value": string, "kind": ["type": "string", "enum": ["sdk", "api"]], "scopes": array(string), "app_id": nullableUUID,
                           "state": ["type": "string", "enum": ["active", "revoked"]], "name": nullableString, "created_at": timestamp,
                           "revoked_at": nullableTimestamp]),
            "KeyInput": object(["value": ["type": "string", "pattern": "^wl_(live|test)_[a-zA-Z0-9]{32}$"], "kind": ["type": "string", "enum": ["sdk", "api"]],
                                "scopes": array(string), "app_id": uuid, "name": string, "state": ["type": "string", "enum": ["active", "revoked"]]], required: []),
            "Domain": object(["hostname": string, "state": ["type": "string", "enum": ["verified", "suspended"]], "app_id": nullableUUID, "created_at": timestamp]),
            "DomainInput": object(["hostname": string, "state": ["type": "string", "enum": ["verified", "suspended"]], "app_id": uuid], required: ["hostname"]),
            "StoredLink": object([
                "id": uuid, "slug": string, "domain": string, "short_url": string, "destination_url": string, "ios_url": nullableString,
                "ios_fallback_url": nullableString, "android_url": nullableString, "android_fallback_url": nullableString, "custom_params": scalarMap,
                "app_id": nullableUUID, "tags": array(string), "password_protected": boolean, "expires_at": nullableTimestamp, "is_active": boolean,
                "match_window_hours": ["type": ["integer", "null"]], "created_at": timestamp, "updated_at": timestamp,
            ]),
            "LinkInput": object([
                "id": uuid, "slug": string, "domain": string, "destination_url": string, "ios_url": string, "ios_fallback_url": string,
                "android_url": string, "android_fallback_url": string, "custom_params": scalarMap, "app_id": uuid, "tags": array(string),
                "password": string, "expires_at": timestamp, "is_active": boolean, "match_window_hours": ["type": "integer", "minimum": 1, "maximum": 72],
                "created_at": timestamp,
            ], required: ["destination_url"]),
            "Click": object([
                "id": string, "link_id": uuid, "app_id": nullableUUID, "source": ["type": "string", "enum": ["redirect", "resolve", "seed"]],
                "ip": nullableString, "accept_language": nullableString, "language": nullableString, "timezone": nullableString,
                "timezone_offset": ["type": ["integer", "null"]], "device_id": nullableString, "fingerprint": nullableString, "user_agent": nullableString,
                "tap_id": nullableString, "destination_url": nullableString, "ios_url": nullableString, "android_url": nullableString,
                "custom_params": stringMap, "clicked_at": timestamp, "claimed": boolean, "claimed_by": nullableString, "claimed_at": nullableTimestamp,
            ]),
            "ClickInput": object([
                "slug": string, "domain": string, "link_id": uuid, "ip": string, "accept_language": string, "timezone": string, "timezone_offset": integer,
                "device_id": uuid, "fingerprint": string, "user_agent": string, "params": stringMap, "clicked_at": timestamp, "age_seconds": ["type": "number"],
            ], required: []),
            "Install": object([
                "install_id": uuid, "app_id": nullableUUID, "platform": nullableString, "sdk_version": nullableString, "device_id": nullableString,
                "is_reinstall": ["type": ["boolean", "null"]],
                "outcome": ["type": "string", "enum": ["referrer", "device_id", "fingerprint", "signals", "no_match", "ambiguous_app"]],
                "matched": boolean, "match_type": matchType, "match_confidence": ["type": ["number", "null"]], "link_id": nullableUUID,
                "click_id": nullableString, "tap_id": nullableString, "ip": nullableString, "source": ["type": "string", "enum": ["sdk", "seed"]],
                "created_at": timestamp,
            ]),
            "InstallInput": object([
                "id": uuid, "device_id": uuid, "link_id": uuid, "slug": string, "domain": string, "app_id": uuid, "platform": ["type": "string", "enum": ["ios", "android"]],
                "sdk_version": string, "match_type": ["type": "string", "enum": ["deterministic", "probabilistic"]], "match_confidence": ["type": "number"],
                "is_reinstall": boolean, "created_at": timestamp,
            ], required: []),
        ]
    }
}
