/// The control plane's OpenAPI 3.1 document, served at `/__admin/openapi.json`. A test sends a
/// request to every operation and checks each real response against this document.
enum CoreOpenAPI {
    /// The document, for a server reached at `servers` (its OpenAPI `servers` list) emulating `platforms`.
    static func document(servers: JSONValue, platforms: [PlatformID]) -> JSONValue {
        [
            "openapi": "3.1.0",
            "info": [
                "title": "Understudy control plane",
                "version": "1.0.0",
                "description": "Projects, virtual clocks, fault injection, the request journal, snapshots and the outbox. All JSON is camelCase.",
            ],
            "servers": servers,
            "paths": .object(paths(platforms)),
            "components": ["schemas": .object(schemas(platforms))],
        ]
    }

    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    private static func json(_ schema: JSONValue, _ description: String) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    private static let error: JSONValue = json(ref("Error"), "An error in the control plane's format.")
    private static let noContent: JSONValue = ["description": "Done; no body."]
    private static let projectID: JSONValue = ["name": "id", "in": "path", "required": true, "schema": ["type": "string"]]

    private static func operation(_ summary: String, body: JSONValue? = nil, parameters: [JSONValue] = [], responses: [String: JSONValue]) -> JSONValue {
        var members: [String: JSONValue] = ["summary": .string(summary), "responses": .object(responses)]
        if !parameters.isEmpty { members["parameters"] = .array(parameters) }
        if let body { members["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]] }
        return .object(members)
    }

    private static func paths(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let faultRoutes: (Bool) -> [String: JSONValue] = { scoped in
            let parameters = scoped ? [projectID] : []
            let scope = scoped ? "this project" : "every project"
            return [
                "post": operation("Add a fault rule for \(scope)", body: ref("FaultRule"), parameters: parameters,
                                  responses: ["201": json(ref("FaultRule"), "The stored rule with its id."), "400": error, "404": error]),
                "get": operation("List fault rules of \(scope) with hit counts", parameters: parameters,
                                 responses: ["200": json(ref("FaultRuleList"), "The rules."), "404": error]),
                "delete": operation("Remove every fault rule of \(scope)", parameters: parameters, responses: ["204": noContent, "404": error]),
            ]
        }
        let ruleParameter: JSONValue = ["name": "rule", "in": "path", "required": true, "schema": ["type": "string"]]
        let snapshotParameter: JSONValue = ["name": "name", "in": "path", "required": true, "schema": ["type": "string"]]
        let query: (String, String) -> JSONValue = { name, type in ["name": .string(name), "in": "query", "schema": ["type": .string(type)]] }
        let described: (String, String, String) -> JSONValue = { name, type, text in
            ["name": .string(name), "in": "query", "description": .string(text), "schema": ["type": .string(type)]]
        }
        return [
            "/__admin/health": ["get": operation("Liveness", responses: ["200": json(ref("Health"), "The server is up.")])],
            "/__admin/ready": ["get": operation("Readiness: database open and migrated, projects and fixtures loaded", responses: [
                "200": json(ref("Ready"), "Ready to serve."),
                "503": json(["type": "object", "required": ["status"], "properties": ["status": ["const": "starting"]]], "Still starting."),
            ])],
            "/__admin/openapi.json": ["get": operation("This document (public, CORS-enabled)", responses: ["200": json(["type": "object"], "OpenAPI 3.1.")]),
                                      "options": operation("CORS preflight", responses: ["204": noContent])],
            "/__admin/openapi/{document}": ["get": operation("A platform's OpenAPI document: " + platforms.map { "`\($0.rawValue).json`" }.joined(separator: ", "),
                                                             parameters: [["name": "document", "in": "path", "required": true, "schema": ["type": "string"]]],
                                                             responses: ["200": json(["type": "object"], "OpenAPI 3.1."), "404": error]),
                                           "options": operation("CORS preflight", parameters: [["name": "document", "in": "path", "required": true, "schema": ["type": "string"]]],
                                                                responses: ["204": noContent])],
            "/__admin/ca.pem": ["get": operation("The local CA certificate (PEM; public) that devices trust for the HTTPS port and the proxy", responses: [
                "200": ["description": "The certificate.", "content": ["application/x-pem-file": ["schema": ["type": "string"]]]],
                "404": json(ref("Error"), "This server has no local CA (no TLS listener or proxy)."),
                "503": json(ref("Error"), "The certificate file cannot be read."),
            ])],
            "/__admin/projects": [
                "post": operation("Create a project with fresh credentials for every platform", body: ref("CreateProject"),
                                  responses: ["201": json(ref("Project"), "The project."), "400": error, "409": error]),
                "get": operation("List projects", responses: ["200": json(ref("ProjectList"), "Every project.")]),
            ],
            "/__admin/projects/{id}": [
                "get": operation("One project", parameters: [projectID], responses: ["200": json(ref("Project"), "The project."), "404": error]),
                "delete": operation("Delete a project and all its state", parameters: [projectID], responses: ["204": noContent, "404": error]),
            ],
            "/__admin/projects/{id}/reset": [
                "post": operation("Clear the project's state, journal, faults and clock; keep its credentials", parameters: [projectID],
                                  responses: ["200": json(ref("Project"), "The project."), "404": error]),
            ],
            "/__admin/projects/{id}/clock": [
                "get": operation("The project's clock", parameters: [projectID], responses: ["200": json(ref("Clock"), "The clock."), "404": error]),
                "put": operation("Set the clock: real, frozen at `now`, or offset by `offsetSeconds` (or to `now`)", body: ref("SetClock"),
                                 parameters: [projectID], responses: ["200": json(ref("Clock"), "The clock."), "400": error, "404": error]),
            ],
            "/__admin/projects/{id}/clock/advance": [
                "post": operation("Move the clock forward", body: ref("AdvanceClock"), parameters: [projectID],
                                  responses: ["200": json(ref("Clock"), "The clock."), "400": error, "404": error]),
            ],
            "/__admin/projects/{id}/faults": .object(faultRoutes(true)),
            "/__admin/projects/{id}/faults/{rule}": [
                "delete": operation("Remove one rule", parameters: [projectID, ruleParameter], responses: ["204": noContent, "404": error]),
            ],
            "/__admin/faults": .object(faultRoutes(false)),
            "/__admin/faults/{rule}": ["delete": operation("Remove one global rule", parameters: [ruleParameter], responses: ["204": noContent, "404": error])],
            "/__admin/projects/{id}/requests": [
                "get": operation("Journalled requests, newest first; with `after` and `waitMs` a long poll for new ones", parameters: [
                    projectID, query("platform", "string"), query("method", "string"),
                    described("path", "string", "Exact path or glob (`*` within a segment, `**` across)."),
                    described("status", "string", "An exact status (`404`) or a class (`2xx`…`5xx`; `0xx` is no response sent)."),
                    described("after", "integer", "Only entries with a larger id (the live cursor). `since` is the same parameter."),
                    query("since", "integer"),
                    described("before", "integer", "Only entries with a smaller id (the cursor for older pages)."),
                    described("limit", "integer", "Entries per page, 1–1000 (default 100). When more than `limit` are newer than `after`, the newest come back."),
                    described("waitMs", "integer", "0–60000. With `after`: answer as soon as a matching entry newer than `after` exists, else an empty page at the deadline."),
                ], responses: ["200": json(ref("JournalPage"), "Entries and the eviction count."), "400": error, "404": error]),
                "delete": operation("Clear the project's journal", parameters: [projectID], responses: ["204": noContent, "404": error]),
            ],
            "/__admin/projects/{id}/requests/wait": [
                "post": operation("Wait until `count` matching requests exist", body: ref("WaitForRequests"), parameters: [projectID], responses: [
                    "200": json(ref("JournalPage"), "Enough requests arrived."), "408": json(ref("Error"), "Timed out; `error.details` holds what was seen."),
                    "400": error, "404": error,
                ]),
            ],
            "/__admin/projects/{id}/snapshots": [
                "post": operation("Save the project's state", body: ref("CreateSnapshot"), parameters: [projectID],
                                  responses: ["201": json(ref("Snapshot"), "The snapshot."), "400": error, "404": error]),
                "get": operation("List snapshots", parameters: [projectID], responses: ["200": json(ref("SnapshotList"), "The snapshots."), "404": error]),
            ],
            "/__admin/projects/{id}/snapshots/{name}/restore": [
                "post": operation("Restore a snapshot atomically", parameters: [projectID, snapshotParameter],
                                  responses: ["200": json(["type": "object", "required": ["restored"], "properties": ["restored": ["type": "string"]]], "Restored."), "404": error]),
            ],
            "/__admin/projects/{id}/snapshots/{name}": [
                "delete": operation("Delete a snapshot", parameters: [projectID, snapshotParameter], responses: ["204": noContent, "404": error]),
            ],
            "/__admin/projects/{id}/outbox": [
                "get": operation("Side effects the platforms produced (mail, pushes, webhooks), oldest first",
                                 parameters: [projectID, query("platform", "string"), query("kind", "string")],
                                 responses: ["200": json(ref("OutboxList"), "The messages."), "400": error, "404": error]),
            ],
        ]
    }

    private static let stringMap: JSONValue = ["type": "object", "additionalProperties": ["type": "string"]]

    private static func schemas(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let names = platforms.map { JSONValue.string($0.rawValue) }
        return [
            "Error": [
                "type": "object", "required": ["error"],
                "properties": ["error": [
                    "type": "object", "required": ["code", "message"],
                    "properties": ["code": ["type": "string"], "message": ["type": "string"], "details": [:]],
                ]],
            ],
            "Health": ["type": "object", "required": ["status"], "properties": ["status": ["const": "ok"]]],
            "Ready": ["type": "object", "required": ["status", "database"],
                      "properties": ["status": ["const": "ready"], "database": ["type": "string"], "projects": ["type": "integer"]]],
            "CreateProject": ["type": "object", "additionalProperties": false, "properties": [
                "id": ["type": "string", "description": "Optional fixed id (1–64 of a–z, A–Z, 0–9, _ and -)."],
                "name": ["type": "string"],
                "seed": ["type": "integer", "description": "Makes the project's id, credentials and generated ids repeatable."],
                "credentials": ["type": "object", "description": "Per-platform overrides: platform name → credential name → value.",
                                "additionalProperties": stringMap],
            ]],
            "Project": ["type": "object", "additionalProperties": false,
                        "required": ["id", "name", "createdAt", "isDemo", "clock", "credentials", "baseURLs", "httpsBaseURLs", "sdkSettings", "connections", "proxy"],
                        "description": "URLs are the public URL's when the server has one, else the `Host` this request was sent to (else the listen address).",
                        "properties": [
                "id": ["type": "string"], "name": ["type": "string"], "seed": ["type": "integer"], "createdAt": ["type": "string", "format": "date-time"],
                "isDemo": ["type": "boolean"], "clock": ref("Clock"),
                "credentials": ["type": "object", "additionalProperties": stringMap,
                                "description": "Platform name → the credentials that platform issued (names are the platform's own)."],
                "baseURLs": ["type": "object", "additionalProperties": ["type": "string"], "description": "Platform name → its plain-HTTP base URL."],
                "httpsBaseURLs": ["type": "object", "additionalProperties": ["type": "string"],
                                  "description": "Platform name → its base URL on the HTTPS port; empty while no TLS listener runs."],
                "sdkSettings": ["type": "object", "additionalProperties": stringMap,
                                "description": "Platform name → the SDK's own parameters, by the SDK's names, ready to paste."],
                "connections": ["type": "object", "additionalProperties": ref("SDKConnection"),
                                "description": "Platform name → how the unmodified SDK reaches Understudy."],
                "proxy": ref("ProxyEndpoint"),
            ]],
            "SDKConnection": ["oneOf": [
                ["type": "object", "additionalProperties": false, "required": ["mode", "setting", "value"],
                 "description": "The SDK takes a base URL: set `setting` to `value` (also in `sdkSettings`).",
                 "properties": ["mode": ["const": "baseURL"], "setting": ["type": "string"], "value": ["type": ["string", "null"]]]],
                ["type": "object", "additionalProperties": false, "required": ["mode", "realHosts", "proxy", "caCertificate", "caCertificateURL"],
                 "description": "The SDK has no base-URL setting and calls its real hosts over HTTPS: set the device's proxy to `proxy` and trust the CA.",
                 "properties": [
                     "mode": ["const": "proxy"], "realHosts": ["type": "array", "items": ["type": "string"]],
                     "proxy": ["type": ["string", "null"], "description": "`host:port`; null while the proxy is off."],
                     "caCertificate": ["type": ["string", "null"], "description": "The CA certificate file on the server's machine."],
                     "caCertificateURL": ["type": ["string", "null"], "description": "Where a device downloads the CA certificate."],
                 ]],
            ]],
            "ProxyEndpoint": ["type": "object", "additionalProperties": false, "required": ["address", "caCertificatePath", "caCertificateURL"], "properties": [
                "address": ["type": ["string", "null"], "description": "The intercepting proxy as `host:port`; null while it is off."],
                "caCertificatePath": ["type": ["string", "null"], "description": "The local CA certificate (PEM) on the server's machine; null without a CA."],
                "caCertificateURL": ["type": ["string", "null"], "description": "`GET /__admin/ca.pem` on the advertised base URL; null without a CA."],
            ]],
            "ProjectList": ["type": "object", "required": ["projects"], "properties": ["projects": ["type": "array", "items": ref("Project")]]],
            "Clock": ["type": "object", "required": ["mode", "now", "offsetSeconds"], "properties": [
                "mode": ["enum": ["real", "frozen", "offset"]], "now": ["type": "string", "format": "date-time"],
                "offsetSeconds": ["type": "number"], "frozenAt": ["type": "string", "format": "date-time"],
            ]],
            "SetClock": ["type": "object", "required": ["mode"], "additionalProperties": false, "properties": [
                "mode": ["enum": ["real", "frozen", "offset"]], "now": ["type": "string", "format": "date-time"], "offsetSeconds": ["type": "number"],
            ]],
            "AdvanceClock": ["type": "object", "required": ["seconds"], "additionalProperties": false,
                             "properties": ["seconds": ["type": "number", "minimum": 0]]],
            "FaultRule": ["type": "object", "required": ["match", "action"], "properties": [
                "id": ["type": "string", "readOnly": true], "projectID": ["type": ["string", "null"], "readOnly": true],
                "match": ["type": "object", "properties": [
                    "platform": ["enum": .array(names)], "method": ["type": "string"],
                    "path": ["type": "string", "description": "Glob: * within a segment, ** across segments; full path or below the platform prefix."],
                    "headers": stringMap,
                ]],
                "action": ["type": "object", "required": ["type"], "properties": [
                    "type": ["enum": ["status", "delay", "hang", "reset", "closeAfterHeaders", "truncate", "malformedJSON"]],
                    "status": ["type": "integer", "minimum": 100, "maximum": 599], "body": [:], "delayMs": ["type": "integer"],
                    "retryAfter": ["type": "integer"], "bytes": ["type": "integer"],
                ]],
                "times": ["type": "integer", "minimum": 1], "after": ["type": "integer", "minimum": 0],
                "probability": ["type": "number", "minimum": 0, "maximum": 1], "seed": ["type": "integer"],
                "ttlSeconds": ["type": "number", "description": "Default 600; the rule disappears by itself."],
                "expiresAt": ["type": "string", "readOnly": true], "matched": ["type": "integer", "readOnly": true], "hits": ["type": "integer", "readOnly": true],
            ]],
            "FaultRuleList": ["type": "object", "required": ["rules"], "properties": ["rules": ["type": "array", "items": ref("FaultRule")]]],
            "JournalEntry": ["type": "object", "required": [
                "id", "time", "platform", "method", "path", "query", "status", "durationMs", "requestHeaders", "requestBodySize",
                "responseHeaders", "responseBodySize",
            ], "properties": [
                "id": ["type": "integer"], "time": ["type": "string"], "projectID": ["type": "string"],
                "platform": ["enum": .array(["admin"] + names)],
                "method": ["type": "string"], "path": ["type": "string"], "route": ["type": "string"], "query": ["type": "string"],
                "status": ["type": "integer", "description": "0 when a fault sent no response (reset, hang)."],
                "durationMs": ["type": "number"], "requestHeaders": stringMap, "requestBody": ["type": "string"],
                "requestBodySize": ["type": "integer"], "responseHeaders": stringMap, "responseBody": ["type": "string"],
                "responseBodySize": ["type": "integer"], "fault": ["type": "string"],
            ]],
            "JournalPage": ["type": "object", "required": ["requests", "evicted"], "properties": [
                "requests": ["type": "array", "items": ref("JournalEntry")],
                "evicted": ["type": "integer", "description": "Entries of this project dropped by the journal bounds so far."],
            ]],
            "WaitForRequests": ["type": "object", "additionalProperties": false, "properties": [
                "platform": ["type": "string"], "method": ["type": "string"], "path": ["type": "string"], "status": ["type": "integer"],
                "since": ["type": "integer"], "count": ["type": "integer", "minimum": 1, "maximum": 10_000], "timeoutMs": ["type": "integer", "minimum": 0, "maximum": 120_000, "description": "How long to wait (default 5000, at most 120000)."],
            ]],
            "CreateSnapshot": ["type": "object", "required": ["name"], "additionalProperties": false, "properties": ["name": ["type": "string"]]],
            "Snapshot": ["type": "object", "required": ["name", "createdAt", "rows"],
                         "properties": ["name": ["type": "string"], "createdAt": ["type": "string"], "rows": ["type": "integer"]]],
            "SnapshotList": ["type": "object", "required": ["snapshots"], "properties": ["snapshots": ["type": "array", "items": ref("Snapshot")]]],
            "OutboxMessage": ["type": "object", "required": ["id", "projectID", "platform", "kind", "payload", "status", "attempts", "createdAt", "updatedAt"],
                              "properties": [
                                  "id": ["type": "integer"], "projectID": ["type": "string"], "platform": ["type": "string"], "kind": ["type": "string"],
                                  "recipient": ["type": "string"], "subject": ["type": "string"], "payload": [:], "status": ["type": "string"],
                                  "attempts": ["type": "integer"], "lastError": ["type": "string"], "createdAt": ["type": "string"], "updatedAt": ["type": "string"],
                              ]],
            "OutboxList": ["type": "object", "required": ["messages"], "properties": ["messages": ["type": "array", "items": ref("OutboxMessage")]]],
        ]
    }
}
