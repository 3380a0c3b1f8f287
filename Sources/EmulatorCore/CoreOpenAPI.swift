/// The control plane's OpenAPI 3.1 document, served at `/__admin/openapi.json`, written with the
/// shared builder. A test sends a request to every operation and checks each real response
/// against this document; schemathesis fuzzes it in CI.
enum CoreOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// The document, for a server reached at `servers` (its OpenAPI `servers` list) emulating `platforms`.
    static func document(servers: JSONValue, platforms: [PlatformID]) -> JSONValue {
        var document = OpenAPIDocument(
            title: "Understudy control plane",
            description: "Projects, virtual clocks, fault injection, the request journal, snapshots, the outbox and integration-check findings. All JSON is camelCase; "
                + "bodies are strict (an unknown key is a 400 `unknown_field`, even with a null value); errors are "
                + "`{\"error\": {\"code\", \"message\", \"details\"}}`. Every route answers 421 `misdirected_request` to a `Host` "
                + "the server does not answer to (see `--allowed-host`), and every POST, PUT, PATCH and DELETE answers 403 "
                + "`cross_origin_refused` when `Origin` or `Sec-Fetch-Site` says a web page of another origin sent it.",
            schemas: schemas(platforms).merging(bundleSchemas(platforms)) { first, _ in first }.merging(findingSchemas(platforms)) { first, _ in first }
                .merging(deviceSchemas(platforms)) { first, _ in first })
        // Examples name the first platform: the core knows no platform by name.
        let sample = platforms.first?.rawValue ?? "platform"
        addServerRoutes(to: &document, platforms: platforms)
        addProjectRoutes(to: &document, sample: sample)
        addFaultRoutes(to: &document, sample: sample)
        addJournalRoutes(to: &document, sample: sample)
        addSnapshotAndOutboxRoutes(to: &document, sample: sample)
        addBundleRoutes(to: &document, sample: sample)
        addFindingRoutes(to: &document, sample: sample)
        addDeviceRoutes(to: &document, sample: sample)
        guard case .object(var members) = document.json() else { return document.json() }
        members["servers"] = servers
        return .object(members)
    }

    // MARK: Building blocks

    static let error = C.json(
        "An error in the control plane's format.", S.ref("Error"),
        example: ["error": ["code": "not_found", "message": "Project `prj_nope` not found."]])
    static let projectID = P.path("id", S.string, "The project id (`demo` for the demo project).")
    private static let ruleID = P.path("rule", S.string, "The rule id (`flt_…`).")
    private static let snapshotName = P.path("name", S.string, "The snapshot's name.")

    static func body(_ name: String, example: JSONValue, required: Bool = true) -> JSONValue {
        C.jsonBody(S.ref(name), required: required, example: example)
    }

    static func operation(
        _ id: String, _ summary: String, _ description: String, body: JSONValue? = nil,
        parameters: [JSONValue] = [], responses: [String: JSONValue], tag: String
    ) -> OpenAPIOperation {
        OpenAPIOperation(
            id: id, summary: summary, description: description, parameters: parameters, requestBody: body,
            responses: responses, tags: [tag])
    }

    // MARK: Paths

    private static func addServerRoutes(to document: inout OpenAPIDocument, platforms: [PlatformID]) {
        let documentName = P.path("document", S.string, "`<platform>.json`.")
        document.add(
            "get", "/__admin/health",
            operation(
                "health", "Liveness", "Answers as long as the process serves HTTP; no database access.",
                responses: ["200": C.json("The server is up.", S.ref("Health"), example: ["status": "ok"])], tag: "server"))
        document.add(
            "get", "/__admin/ready",
            operation(
                "ready", "Readiness: database open and migrated, projects and fixtures loaded",
                "503 while the server is still starting; use it as the container's readiness probe.",
                responses: [
                    "200": C.json("Ready to serve.", S.ref("Ready"), example: ["status": "ready", "database": "ok", "projects": 1]),
                    "503": C.json("Still starting.", S.object(["status": ["const": "starting"]]), example: ["status": "starting"]),
                ], tag: "server"))
        document.add(
            "get", "/__admin/metrics",
            operation(
                "metrics", "Prometheus metrics (text exposition format 0.0.4)",
                "Request counts by platform, route template and status class; a latency histogram per platform; faults fired; "
                    + "journal, project, connection and database gauges. Not journalled. Needs the admin token when one is configured "
                    + "(`Authorization: Bearer`, which Prometheus' `authorization` scrape setting sends).",
                responses: [
                    "200": [
                        "description": "The metrics.",
                        "content": [
                            MetricsExposition.contentType: [
                                "schema": S.string, "example": "# HELP understudy_projects Projects that exist.\n# TYPE understudy_projects gauge\nunderstudy_projects 1\n",
                            ]
                        ],
                    ]
                ], tag: "server"))
        document.add(
            "get", "/__admin/openapi.json",
            operation(
                "controlPlaneDocument", "This document (public, CORS-enabled)",
                "Served without the admin token and with `Access-Control-Allow-Origin: *`, so Swagger UI or Redoc can load it.",
                responses: ["200": C.json("OpenAPI 3.1.", ["type": "object"], example: ["openapi": "3.1.0"])], tag: "server"))
        document.add(
            "options", "/__admin/openapi.json",
            operation(
                "controlPlaneDocumentPreflight", "CORS preflight", "Allows GET from any origin.",
                responses: ["204": C.empty("Allowed.")], tag: "server"))
        // .ci/openapi.sh reads the platform list from this summary's `<name>.json` items.
        document.add(
            "get", "/__admin/openapi/{document}",
            operation(
                "platformDocument", "A platform's OpenAPI document: " + platforms.map { "`\($0.rawValue).json`" }.joined(separator: ", "),
                "Public and CORS-enabled like this one; its `servers` entry is the platform's base URL on this server.",
                parameters: [documentName],
                responses: ["200": C.json("OpenAPI 3.1.", ["type": "object"], example: ["openapi": "3.1.0"]), "404": error], tag: "server"))
        document.add(
            "options", "/__admin/openapi/{document}",
            operation(
                "platformDocumentPreflight", "CORS preflight", "Allows GET from any origin.",
                parameters: [documentName], responses: ["204": C.empty("Allowed.")], tag: "server"))
        document.add(
            "get", "/__admin/ca.pem",
            operation(
                "caCertificate", "The local CA certificate (PEM; public) that devices trust for the HTTPS port and the proxy",
                "Served without the admin token, as a download (`understudy-ca.pem`).",
                responses: [
                    "200": ["description": "The certificate.", "content": ["application/x-pem-file": ["schema": S.string]]],
                    "404": C.json("This server has no local CA (no TLS listener or proxy).", S.ref("Error")),
                    "503": C.json("The certificate file cannot be read.", S.ref("Error")),
                ], tag: "server"))
    }

    private static func addProjectRoutes(to document: inout OpenAPIDocument, sample: String) {
        let project = C.json("The project.", S.ref("Project"), example: projectExample(sample))
        let clock = C.json(
            "The clock.", S.ref("Clock"),
            example: [
                "mode": "frozen", "now": "2026-06-01T12:00:00.000Z", "offsetSeconds": 0,
                "frozenAt": "2026-06-01T12:00:00.000Z",
            ])
        document.add(
            "post", "/__admin/projects",
            operation(
                "createProject", "Create a project with fresh credentials for every platform",
                "The body is optional. A `seed` makes the id, the credentials and every generated id repeatable; the same seed twice is a 409. "
                    + "Ids are unique ignoring case: `Demo` beside `demo` is a 409 naming `demo`; a credential another project uses is a 409 naming it.",
                body: body("CreateProject", example: ["name": "checkout-tests", "seed": 42], required: false),
                responses: ["201": project, "400": error, "409": error], tag: "projects"))
        document.add(
            "get", "/__admin/projects",
            operation(
                "listProjects", "List projects", "Every project, the demo project included.",
                responses: ["200": C.json("Every project.", S.ref("ProjectList"), example: ["projects": [projectExample(sample)]])], tag: "projects"))
        document.add(
            "get", "/__admin/projects/{id}",
            operation(
                "getProject", "One project", "Its credentials, base URLs and the settings to give each SDK.",
                parameters: [projectID], responses: ["200": project, "404": error], tag: "projects"))
        document.add(
            "delete", "/__admin/projects/{id}",
            operation(
                "deleteProject", "Delete a project and all its state", "Its credentials stop working at once.",
                parameters: [projectID], responses: ["204": C.empty("Deleted."), "404": error], tag: "projects"))
        document.add(
            "post", "/__admin/projects/{id}/reset",
            operation(
                "resetProject", "Clear the project's state, journal, faults and clock; keep its credentials",
                "The demo project gets its fixtures back.", parameters: [projectID], responses: ["200": project, "404": error], tag: "projects"))
        document.add(
            "get", "/__admin/projects/{id}/clock",
            operation(
                "getClock", "The project's clock", "Every platform reads the project's time from it.",
                parameters: [projectID], responses: ["200": clock, "404": error, "409": error], tag: "clock"))
        document.add(
            "put", "/__admin/projects/{id}/clock",
            operation(
                "setClock", "Set the clock: real, frozen at `now`, or offset by `offsetSeconds` (or to `now`)",
                "`now` applies to `frozen` (default: this instant) and `offset` (the offset that makes it now); `real` ignores both.",
                body: body("SetClock", example: ["mode": "offset", "offsetSeconds": -86400]),
                parameters: [projectID], responses: ["200": clock, "400": error, "404": error], tag: "clock"))
        document.add(
            "post", "/__admin/projects/{id}/clock/advance",
            operation(
                "advanceClock", "Move the clock forward", "A frozen clock moves its instant; a real or offset clock grows its offset. At most ten years.",
                body: body("AdvanceClock", example: ["seconds": 3600]),
                parameters: [projectID], responses: ["200": clock, "400": error, "404": error], tag: "clock"))
    }

    private static func addFaultRoutes(to document: inout OpenAPIDocument, sample: String) {
        for scoped in [true, false] {
            let path = scoped ? "/__admin/projects/{id}/faults" : "/__admin/faults"
            let parameters = scoped ? [projectID] : []
            let scope = scoped ? "this project" : "every project"
            let suffix = scoped ? "" : "Global"
            let rule = C.json("The stored rule with its id.", S.ref("FaultRule"), example: faultExample(sample))
            document.add(
                "post", path,
                operation(
                    "addFault" + suffix, "Add a fault rule for \(scope)",
                    "Rules apply to SDK routes only (never to the control plane), newest first; each disappears after `ttlSeconds` (default 600).",
                    body: body(
                        "NewFaultRule",
                        example: [
                            "match": ["platform": .string(sample), "path": "/v1/orders"],
                            "action": ["type": "status", "status": 503], "times": 4,
                        ]),
                    parameters: parameters, responses: ["201": rule, "400": error, "404": error], tag: "faults"))
            document.add(
                "get", path,
                operation(
                    "listFaults" + suffix, "List fault rules of \(scope) with hit counts", "`matched` counts matching requests, `hits` the faults applied.",
                    parameters: parameters,
                    responses: ["200": C.json("The rules.", S.ref("FaultRuleList"), example: ["rules": [faultExample(sample)]]), "404": error], tag: "faults"))
            document.add(
                "delete", path,
                operation(
                    "clearFaults" + suffix, "Remove every fault rule of \(scope)", "Rules of other scopes stay.",
                    parameters: parameters, responses: ["204": C.empty("Removed."), "404": error], tag: "faults"))
            document.add(
                "delete", path + "/{rule}",
                operation(
                    "removeFault" + suffix, "Remove one rule of \(scope)", "404 when no such rule exists in this scope.",
                    parameters: parameters + [ruleID], responses: ["204": C.empty("Removed."), "404": error], tag: "faults"))
        }
    }

    private static func addJournalRoutes(to document: inout OpenAPIDocument, sample: String) {
        let page = C.json("Entries and the eviction count.", S.ref("JournalPage"), example: ["requests": [journalExample(sample)], "evicted": 0])
        let integer = { (minimum: Int, maximum: Int?) -> JSONValue in
            var members: [String: JSONValue] = ["type": "integer", "minimum": .int(Int64(minimum))]
            if let maximum { members["maximum"] = .int(Int64(maximum)) }
            return .object(members)
        }
        let filters: [JSONValue] = [
            P.query("platform", S.string, "A platform name (what its SDKs sent), `admin` (control-plane calls, a platform's own control routes included) or `proxy`."),
            P.query("method", S.string, "E.g. `POST`."),
            P.query("path", S.string, "Exact path or glob (`*` within a segment, `**` across)."),
            P.query(
                "status", ["type": "string", "pattern": "^([0-9]+|[0-5][xX][xX])$"],
                "An exact status (`404`) or a class (`2xx`…`5xx`; `0xx` is no response sent)."),
            // `since` is accepted as another name for `after` (not both); documenting one keeps the pair out of generated requests.
            P.query("after", integer(0, nil), "Only entries with a larger id (the live cursor); `since` is another name for it."),
            P.query("before", integer(0, nil), "Only entries with a smaller id (the cursor for older pages)."),
            P.query("limit", integer(1, 1000), "Entries per page, 1–1000 (default 100). When more than `limit` are newer than `after`, the newest come back."),
            P.query("waitMs", integer(0, 60_000), "0–60000. With `after`: answer as soon as a matching entry newer than `after` exists, else an empty page at the deadline."),
            P.query("via", ["enum": ["proxy", "direct"]], "`proxy`: only requests that came to the proxy port; `direct`: only those that did not."),
            P.query("proxyHost", S.string, "Only requests that asked the proxy for this host."),
            P.query("device", S.string, "Only requests that concern this app installation (`JournalEntry.device`)."),
        ]
        document.add(
            "get", "/__admin/projects/{id}/requests",
            operation(
                "listRequests", "Journalled requests, newest first; with `after` and `waitMs` a long poll for new ones",
                "Any other query parameter is a 400. `waitMs` needs `after`.",
                parameters: [projectID] + filters, responses: ["200": page, "400": error, "404": error], tag: "journal"))
        let harEntry = S.object(
            [
                "startedDateTime": S.string, "time": S.number, "request": ["type": "object"], "response": ["type": "object"],
                "cache": ["type": "object"], "timings": ["type": "object"],
            ], open: true)
        let har = S.object(
            ["log": S.object(["version": ["const": "1.2"], "creator": ["type": "object"], "entries": S.array(harEntry)], open: true)])
        document.add(
            "get", "/__admin/projects/{id}/requests.har",
            operation(
                "exportRequestsHAR", "The journal as a HAR 1.2 archive, oldest first",
                "For the network panels and tools that import HAR (Chrome, Firefox, Proxyman, Charles). The listing's filters; `limit` defaults to 1000; "
                    + "`waitMs` is refused. Bodies are text, or base64 (`encoding`) where the journal kept bytes that are not UTF-8; secrets are redacted as in the journal.",
                parameters: [projectID] + filters,
                responses: [
                    "200": C.json(
                        "The archive (`Content-Disposition: attachment`).", har,
                        example: ["log": ["version": "1.2", "creator": ["name": "Understudy", "version": "0.1.0"], "entries": []]]),
                    "400": error, "404": error,
                ], tag: "journal"))
        let unmatched = P.query(
            "unmatched", ["enum": ["true", "false"]],
            "`true`: only requests meant for an emulated service that matched no project, each with `unmatched.reason`; `false`: only the others.")
        let unmatchedExample: JSONValue = [
            "id": 18, "time": "2026-06-01T12:00:01.020Z", "platform": .string(sample), "method": "GET", "path": .string("/\(sample)/v1/orders"),
            "query": "", "status": 401, "durationMs": 0.6, "requestHeaders": ["authorization": "Bearer [redacted …9f3a]"], "requestBodySize": 0,
            "responseHeaders": ["content-type": "application/json"], "responseBodySize": 58,
            "unmatched": ["reason": "unknown_credential", "credential": "key", "header": "Authorization", "value": "[redacted …9f3a]"],
        ]
        document.add(
            "get", "/__admin/requests",
            operation(
                "listAllRequests", "Every project's journalled requests and those with no project, newest first",
                "What the proxy answered itself (CONNECTs, refusals, forwarded requests) belongs to no project and is listed here, and so is every request "
                    + "meant for an emulated service that matched no project (`unmatched=true` lists only those, with the reason). "
                    + "Same parameters as a project's listing, and `unmatched`.",
                parameters: filters + [unmatched],
                responses: [
                    "200": C.json("Entries and the eviction count.", S.ref("JournalPage"), example: ["requests": [unmatchedExample], "evicted": 0]),
                    "400": error,
                ], tag: "journal"))
        document.add(
            "delete", "/__admin/projects/{id}/requests",
            operation(
                "clearRequests", "Clear the project's journal", "Ids keep counting up.",
                parameters: [projectID], responses: ["204": C.empty("Cleared."), "404": error], tag: "journal"))
        document.add(
            "post", "/__admin/projects/{id}/requests/wait",
            operation(
                "waitForRequests", "Wait until `count` matching requests exist",
                "The body is optional (`count` 1, `timeoutMs` 5000). Without `platform` it counts no control-plane call (platform `admin`); "
                    + "`platform: admin` waits for those. A 408 carries what was seen in `error.details`.",
                body: body("WaitForRequests", example: ["platform": .string(sample), "path": "/v1/orders", "count": 1, "timeoutMs": 2000], required: false),
                parameters: [projectID],
                responses: [
                    "200": C.json("Enough requests arrived.", S.ref("JournalPage"), example: ["requests": [journalExample(sample)], "evicted": 0]),
                    "408": C.json(
                        "Timed out; `error.details` holds what was seen.", S.ref("Error"),
                        example: [
                            "error": [
                                "code": "wait_timeout", "message": "Saw 0 of 1 matching requests within 2000 ms.",
                                "details": ["requests": [], "evicted": 0],
                            ]
                        ]),
                    "400": error, "404": error,
                ], tag: "journal"))
    }

    private static func addSnapshotAndOutboxRoutes(to document: inout OpenAPIDocument, sample: String) {
        let snapshot: JSONValue = ["name": "before-checkout", "createdAt": "2026-06-01T12:00:00.000Z", "rows": 42]
        document.add(
            "post", "/__admin/projects/{id}/snapshots",
            operation(
                "createSnapshot", "Save the project's state", "Every platform table of the project; a name used again replaces that snapshot.",
                body: body("CreateSnapshot", example: ["name": "before-checkout"]),
                parameters: [projectID], responses: ["201": C.json("The snapshot.", S.ref("Snapshot"), example: snapshot), "400": error, "404": error],
                tag: "snapshots"))
        document.add(
            "get", "/__admin/projects/{id}/snapshots",
            operation(
                "listSnapshots", "List snapshots", "Oldest first.",
                parameters: [projectID],
                responses: ["200": C.json("The snapshots.", S.ref("SnapshotList"), example: ["snapshots": [snapshot]]), "404": error], tag: "snapshots"))
        document.add(
            "post", "/__admin/projects/{id}/snapshots/{name}/restore",
            operation(
                "restoreSnapshot", "Restore a snapshot atomically", "The project's state becomes the snapshot's; the snapshot stays.",
                parameters: [projectID, snapshotName],
                responses: ["200": C.json("Restored.", S.object(["restored": S.string]), example: ["restored": "before-checkout"]), "404": error],
                tag: "snapshots"))
        document.add(
            "delete", "/__admin/projects/{id}/snapshots/{name}",
            operation(
                "deleteSnapshot", "Delete a snapshot", "The project's state is untouched.",
                parameters: [projectID, snapshotName], responses: ["204": C.empty("Deleted."), "404": error], tag: "snapshots"))
        document.add(
            "get", "/__admin/projects/{id}/outbox",
            operation(
                "listOutbox", "Side effects the platforms produced (mail, pushes, webhooks), oldest first",
                "An unknown platform is a 400; an empty `platform` or `kind` is no filter.",
                parameters: [projectID, P.query("platform", S.string, "A platform name."), P.query("kind", S.string, "E.g. `webhook`, `mail`.")],
                responses: ["200": C.json("The messages.", S.ref("OutboxList"), example: ["messages": [outboxExample(sample)]]), "400": error, "404": error],
                tag: "outbox"))
    }
}
