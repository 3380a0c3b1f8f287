/// The control plane document's schemas and examples. Request schemas say what the decoder
/// enforces: closed objects, and optional members that may also be null (an explicit null reads
/// as absent).
extension CoreOpenAPI {
    private typealias S = OpenAPISchema

    private static let stringMap: JSONValue = S.map(S.string)
    private static let idPattern: JSONValue = ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"]

    /// A closed request object whose `optional` members may be absent or null.
    private static func request(_ properties: [String: JSONValue], optional: Set<String>) -> JSONValue {
        var members = properties
        for name in optional { members[name] = members[name].map(S.nullable) }
        return S.object(members, optional: optional)
    }

    static func integer(_ minimum: Int64, _ maximum: Int64? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "integer", "minimum": .int(minimum)]
        if let maximum { members["maximum"] = .int(maximum) }
        return .object(members)
    }

    /// One `action` shape per fault type: the members that type reads, and no others.
    private static var faultActions: JSONValue {
        let delay = integer(0, 600_000)
        let shapes: [(String, [String: JSONValue])] = [
            ("status", ["status": integer(200, 599), "body": S.any]),
            ("delay", ["delayMs": delay]), ("hang", ["delayMs": delay]),
            ("reset", [:]), ("closeAfterHeaders", [:]), ("malformedJSON", [:]),
            ("truncate", ["bytes": integer(0)]),
        ]
        return [
            "oneOf": .array(
                shapes.map { type, extra in
                    var members = extra
                    members["type"] = ["const": .string(type)]
                    members["retryAfter"] = S.integer
                    return request(members, optional: Set(members.keys).subtracting(["type"]))
                })
        ]
    }

    static func schemas(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let names = platforms.map { JSONValue.string($0.rawValue) }
        let match = request(
            [
                "platform": ["type": "string", "enum": .array(names)], "method": S.string,
                "path": S.described(S.string, "Glob: * within a segment, ** across segments; full path or below the platform prefix."),
                "headers": stringMap,
            ], optional: ["platform", "method", "path", "headers"])
        let ruleOptions: [String: JSONValue] = [
            "times": integer(1), "after": integer(0),
            "probability": ["type": "number", "minimum": 0, "maximum": 1], "seed": S.described(integer(0), "0 to 2^64 − 1."),
            "ttlSeconds": ["type": "number", "exclusiveMinimum": 0, "maximum": 86_400, "description": "Default 600; the rule disappears by itself."],
        ]
        return [
            "Error": S.object(["error": S.object(["code": S.string, "message": S.string, "details": S.any], optional: ["details"], open: true)], open: true),
            "Health": ["type": "object", "required": ["status"], "properties": ["status": ["const": "ok"]]],
            "Ready": [
                "type": "object", "required": ["status", "database"],
                "properties": ["status": ["const": "ready"], "database": ["type": "string"], "projects": ["type": "integer"]],
            ],
            "CreateProject": request(
                [
                    "id": S.described(idPattern, "A fixed id instead of a generated one."),
                    "name": S.string,
                    "seed": S.described(integer(0), "0 to 2^64 − 1; makes the project's id, credentials and generated ids repeatable."),
                    "credentials": S.described(
                        S.object(
                            Dictionary(uniqueKeysWithValues: platforms.map { ($0.rawValue, stringMap) }),
                            optional: Set(platforms.map(\.rawValue))),
                        "Per-platform overrides: platform name → credential name → value."),
                ], optional: ["id", "name", "seed", "credentials"]),
            "Project": [
                "type": "object", "additionalProperties": false,
                "required": ["id", "name", "createdAt", "isDemo", "clock", "credentials", "baseURLs", "httpsBaseURLs", "sdkSettings", "connections", "proxy"],
                "description": "URLs are the public URL's when the server has one, else the `Host` this request was sent to (else the listen address).",
                "properties": [
                    "id": ["type": "string"], "name": ["type": "string"], "seed": ["type": "integer"], "createdAt": ["type": "string", "format": "date-time"],
                    "isDemo": ["type": "boolean"], "clock": S.ref("Clock"),
                    "credentials": [
                        "type": "object", "additionalProperties": stringMap,
                        "description": "Platform name → the credentials that platform issued (names are the platform's own).",
                    ],
                    "baseURLs": ["type": "object", "additionalProperties": ["type": "string"], "description": "Platform name → its plain-HTTP base URL."],
                    "httpsBaseURLs": [
                        "type": "object", "additionalProperties": ["type": "string"],
                        "description": "Platform name → its base URL on the HTTPS port; empty while no TLS listener runs.",
                    ],
                    "sdkSettings": [
                        "type": "object", "additionalProperties": stringMap,
                        "description": "Platform name → the SDK's own parameters, by the SDK's names, ready to paste.",
                    ],
                    "connections": [
                        "type": "object", "additionalProperties": S.ref("SDKConnection"),
                        "description": "Platform name → how the unmodified SDK reaches Understudy.",
                    ],
                    "proxy": S.ref("ProxyEndpoint"),
                ],
            ],
            "SDKConnection": [
                "oneOf": [
                    [
                        "type": "object", "additionalProperties": false, "required": ["mode", "setting", "value"],
                        "description": "The SDK takes a base URL: set `setting` to `value` (also in `sdkSettings`).",
                        "properties": ["mode": ["const": "baseURL"], "setting": ["type": "string"], "value": ["type": ["string", "null"]]],
                    ],
                    [
                        "type": "object", "additionalProperties": false, "required": ["mode", "realHosts", "proxy", "caCertificate", "caCertificateURL"],
                        "description": "The SDK has no base-URL setting and calls its real hosts over HTTPS: set the device's proxy to `proxy` and trust the CA.",
                        "properties": [
                            "mode": ["const": "proxy"], "realHosts": ["type": "array", "items": ["type": "string"]],
                            "proxy": ["type": ["string", "null"], "description": "`host:port`; null while the proxy is off."],
                            "caCertificate": ["type": ["string", "null"], "description": "The CA certificate file on the server's machine."],
                            "caCertificateURL": ["type": ["string", "null"], "description": "Where a device downloads the CA certificate."],
                        ],
                    ],
                ]
            ],
            "ProxyEndpoint": [
                "type": "object", "additionalProperties": false, "required": ["address", "caCertificatePath", "caCertificateURL"],
                "properties": [
                    "address": ["type": ["string", "null"], "description": "The intercepting proxy as `host:port`; null while it is off."],
                    "caCertificatePath": ["type": ["string", "null"], "description": "The local CA certificate (PEM) on the server's machine; null without a CA."],
                    "caCertificateURL": ["type": ["string", "null"], "description": "`GET /__admin/ca.pem` on the advertised base URL; null without a CA."],
                ],
            ],
            "ProjectList": ["type": "object", "required": ["projects"], "properties": ["projects": ["type": "array", "items": S.ref("Project")]]],
            "Clock": [
                "type": "object", "required": ["mode", "now", "offsetSeconds"],
                "properties": [
                    "mode": ["enum": ["real", "frozen", "offset"]], "now": ["type": "string", "format": "date-time"],
                    "offsetSeconds": ["type": "number"], "frozenAt": ["type": "string", "format": "date-time"],
                ],
            ],
            "SetClock": request(
                ["mode": S.enumeration(["real", "frozen", "offset"]), "now": S.dateTime, "offsetSeconds": S.number],
                optional: ["now", "offsetSeconds"]),
            "AdvanceClock": request(["seconds": ["type": "number", "minimum": 0, "maximum": 315_360_000, "description": "At most ten years."]], optional: []),
            "NewFaultRule": request(["match": match, "action": faultActions].merging(ruleOptions) { $1 }, optional: Set(ruleOptions.keys)),
            "FaultRule": [
                "type": "object", "required": ["match", "action"],
                "properties": [
                    "id": ["type": "string"], "projectID": ["type": ["string", "null"]],
                    "match": [
                        "type": "object",
                        "properties": [
                            "platform": ["enum": .array(names)], "method": ["type": "string"], "path": ["type": "string"], "headers": stringMap,
                        ],
                    ],
                    "action": [
                        "type": "object", "required": ["type"],
                        "properties": [
                            "type": ["enum": .array(FaultAction.names.map(JSONValue.string))],
                            "status": ["type": "integer", "minimum": 200, "maximum": 599], "body": [:], "delayMs": ["type": "integer"],
                            "retryAfter": ["type": "integer"], "bytes": ["type": "integer"],
                        ],
                    ],
                    "times": ["type": "integer"], "after": ["type": "integer"], "probability": ["type": "number"], "seed": ["type": "integer"],
                    "ttlSeconds": ["type": "number"], "expiresAt": ["type": "string"], "matched": ["type": "integer"], "hits": ["type": "integer"],
                ],
            ],
            "FaultRuleList": ["type": "object", "required": ["rules"], "properties": ["rules": ["type": "array", "items": S.ref("FaultRule")]]],
            "JournalEntry": [
                "type": "object",
                "required": [
                    "id", "time", "platform", "method", "path", "query", "status", "durationMs", "requestHeaders", "requestBodySize",
                    "responseHeaders", "responseBodySize",
                ],
                "properties": [
                    "id": ["type": "integer"], "time": ["type": "string"], "projectID": ["type": "string"],
                    "platform": [
                        "enum": .array(["admin", .string(Journal.proxyPlatform)] + names),
                        "description": "`admin` for the control plane; `proxy` for what the proxy answered itself (a CONNECT, a forwarded request).",
                    ],
                    "method": ["type": "string"], "path": ["type": "string"], "route": ["type": "string"], "query": ["type": "string"],
                    "status": ["type": "integer", "description": "0 when a fault sent no response (reset, hang)."],
                    "durationMs": ["type": "number"], "requestHeaders": stringMap, "requestBody": ["type": "string"],
                    "requestBodySize": ["type": "integer"], "responseHeaders": stringMap, "responseBody": ["type": "string"],
                    "responseBodySize": ["type": "integer"], "fault": ["type": "string"],
                    "via": [
                        "enum": ["proxy"],
                        "description": "`proxy` when the request came to the proxy port (through a tunnel, in absolute form, or sent there directly); absent otherwise.",
                    ],
                    "proxyHost": [
                        "type": "string",
                        "description":
                            "The host the client asked the proxy for: the CONNECT target's host (for the CONNECT and every request inside its tunnel) or an absolute-form URL's host.",
                    ],
                    "unmatched": S.ref("UnmatchedRequest"),
                    "device": [
                        "type": "string",
                        "description": "The app installation (or user) the request concerns, as its platform names it (`GET …/devices`); absent when it names none.",
                    ],
                ],
            ],
            "UnmatchedRequest": [
                "type": "object", "required": ["reason"],
                "description": "Why a request meant for an emulated service matched no project; absent on every other entry.",
                "properties": [
                    "reason": [
                        "enum": .array(UnmatchedRequest.Reason.allCases.map { .string($0.rawValue) }),
                        "description": .string(
                            "`no_credential`: none of the platform's credentials; `unknown_credential`: one no project has; "
                                + "`no_platform`: a path no platform serves; `host_not_emulated`: a proxy request for a host no platform emulates; "
                                + "`host_not_allowed`: a Host this server does not answer to (421); `proxy_unauthorized`: a proxy request without the proxy password (407)."),
                    ],
                    "credential": ["type": "string", "description": "`unknown_credential`: the platform's name for its kind."],
                    "header": ["type": "string", "description": "`unknown_credential`: the header that carried it."],
                    "field": ["type": "string", "description": "`unknown_credential`: the body field that carried it."],
                    "value": ["type": "string", "description": "`unknown_credential`: the value, redacted to its last 4 characters."],
                    "host": ["type": "string", "description": "The host asked for (`host_not_emulated`, `host_not_allowed`, `proxy_unauthorized`)."],
                ],
            ],
            "JournalPage": [
                "type": "object", "required": ["requests", "evicted"],
                "properties": [
                    "requests": ["type": "array", "items": S.ref("JournalEntry")],
                    "evicted": ["type": "integer", "description": "Entries of this project dropped by the journal bounds so far."],
                ],
            ],
            "WaitForRequests": request(
                [
                    "platform": S.string, "method": S.string, "path": S.string, "status": S.integer, "since": S.integer,
                    "count": S.described(integer(1, 10_000), "How many matching requests (default 1)."),
                    "timeoutMs": S.described(integer(0, 120_000), "How long to wait (default 5000, at most 120000)."),
                ], optional: ["platform", "method", "path", "status", "since", "count", "timeoutMs"]),
            "CreateSnapshot": request(["name": idPattern], optional: []),
            "Snapshot": [
                "type": "object", "required": ["name", "createdAt", "rows"],
                "properties": ["name": ["type": "string"], "createdAt": ["type": "string"], "rows": ["type": "integer"]],
            ],
            "SnapshotList": ["type": "object", "required": ["snapshots"], "properties": ["snapshots": ["type": "array", "items": S.ref("Snapshot")]]],
            "OutboxMessage": [
                "type": "object", "required": ["id", "projectID", "platform", "kind", "payload", "status", "attempts", "createdAt", "updatedAt"],
                "properties": [
                    "id": ["type": "integer"], "projectID": ["type": "string"], "platform": ["type": "string"], "kind": ["type": "string"],
                    "recipient": ["type": "string"], "subject": ["type": "string"], "payload": [:], "status": ["type": "string"],
                    "attempts": ["type": "integer"], "lastError": ["type": "string"], "createdAt": ["type": "string"], "updatedAt": ["type": "string"],
                ],
            ],
            "OutboxList": ["type": "object", "required": ["messages"], "properties": ["messages": ["type": "array", "items": S.ref("OutboxMessage")]]],
        ]
    }

    // MARK: Examples

    /// A project, with `name` as its one platform.
    static func projectExample(_ name: String) -> JSONValue {
        let base = JSONValue.string("http://localhost:8080/" + name)
        return [
            "id": "prj_k2v9x0a1b2c3", "name": "checkout-tests", "createdAt": "2026-06-01T12:00:00.000Z", "isDemo": false,
            "clock": ["mode": "real", "now": "2026-06-01T12:00:00.000Z", "offsetSeconds": 0],
            "credentials": .object([name: ["apiKey": "k0123456789abcdefghijklmnopqrstu"]]),
            "baseURLs": .object([name: base]),
            "httpsBaseURLs": .object([name: .string("https://localhost:8443/" + name)]),
            "sdkSettings": .object([name: ["baseURL": base, "apiKey": "k0123456789abcdefghijklmnopqrstu"]]),
            "connections": .object([name: ["mode": "baseURL", "setting": "baseURL", "value": base]]),
            "proxy": [
                "address": "localhost:8888", "caCertificatePath": "/var/lib/understudy/ca/ca.pem",
                "caCertificateURL": "http://localhost:8080/__admin/ca.pem",
            ],
        ]
    }

    /// A stored fault rule for `name`'s routes.
    static func faultExample(_ name: String) -> JSONValue {
        [
            "id": "flt_a1b2c3d4e5f6", "projectID": "prj_k2v9x0a1b2c3", "match": ["platform": .string(name), "path": "/v1/orders"],
            "action": ["type": "status", "status": 503], "times": 4, "ttlSeconds": 600, "expiresAt": "2026-06-01T12:10:00.000Z",
            "matched": 0, "hits": 0,
        ]
    }

    /// A journal entry of a request to `name`.
    static func journalExample(_ name: String) -> JSONValue {
        [
            "id": 17, "time": "2026-06-01T12:00:00.120Z", "projectID": "prj_k2v9x0a1b2c3", "platform": .string(name), "method": "POST",
            "path": .string("/\(name)/v1/orders"), "route": "/v1/orders", "query": "", "status": 200, "durationMs": 1.8,
            "requestHeaders": ["content-type": "application/json"], "requestBodySize": 212,
            "responseHeaders": ["content-type": "application/json"], "responseBodySize": 164,
        ]
    }

    /// A mail `name` sent.
    static func outboxExample(_ name: String) -> JSONValue {
        [
            "id": 3, "projectID": "prj_k2v9x0a1b2c3", "platform": .string(name), "kind": "email", "recipient": "jane@example.com",
            "subject": "Reset your password", "payload": ["token": "…"], "status": "sent", "attempts": 1,
            "createdAt": "2026-06-01T12:00:00.000Z", "updatedAt": "2026-06-01T12:00:00.000Z",
        ]
    }
}
