import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document of Asleep: the SDK routes (paths relative to the server URL the core
/// adds, `…/asleep`) and this platform's control-plane routes (absolute `/__admin/…` paths whose
/// path items carry their own server-root `servers` entry).
enum AsleepOpenAPI {
    /// The document, without a top-level server (the core adds it when serving).
    static func document() -> JSONValue {
        var document = OpenAPIDocument(
            title: "Asleep (Understudy)",
            description: "The Asleep SDK 3.3 backend and REST API as emulated by Understudy. SDK paths are relative to the server URL "
                + "(…/asleep); control-plane paths are absolute, with their own server entry.",
            schemas: schemas,
            securitySchemes: [
                "apiKey": ["type": "apiKey", "in": "header", "name": "x-api-key", "description": "The project's Asleep API key."],
                "accessToken": ["type": "http", "scheme": "bearer", "description": "An access token from `POST /customer/v1/app/token`."],
            ])
        addUserOperations(to: &document)
        addSessionOperations(to: &document)
        addDataOperations(to: &document)
        addControlPlaneOperations(to: &document)
        return document.json()
    }

    // MARK: Shared pieces

    /// The 4xx/5xx answers every SDK operation can give.
    static let errors: [String: JSONValue] = [
        "4XX": OpenAPIContent.json(
            "An Asleep error, `{\"detail\": \"…\"}` (or FastAPI's list form with `validationErrorStyle: list`).",
            Schema.ref("Error"), examples: [("unauthorized", body(.unauthorized)), ("invalid_parameter", body(.invalidParameter))]),
        "5XX": OpenAPIContent.withHeaders(
            OpenAPIContent.json(
                "An injected fault or a server error; 503 when the store is unavailable.", Schema.ref("Error"),
                examples: [("internal_error", body(AsleepError(.injected(status: 500)))), ("service_unavailable", body(AsleepError(.storageUnavailable)))]),
            ["Retry-After": OpenAPIHeader.retryAfterWhenUnavailable]),
    ]

    /// The body the server sends for `error`.
    static func body(_ error: AsleepError) -> JSONValue { (try? JSONValue.parse(error.response.body)) ?? .null }

    /// `{"detail": detail, "result": result}`.
    static func envelope(_ result: JSONValue, detail: String = "success") -> JSONValue {
        Schema.object(["detail": Schema.enumeration([detail]), "result": result])
    }

    /// `{"detail": detail, "result": result}` as an example.
    static func envelopeExample(_ result: JSONValue, detail: String = "success") -> JSONValue { ["detail": .string(detail), "result": result] }

    /// `response` with OpenAPI links: where its ids lead (tools chain calls along them).
    static func linked(_ response: JSONValue, _ links: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = response else { return response }
        members["links"] = .object(links)
        return .object(members)
    }

    /// `parameter` with an example value.
    static func example(_ parameter: JSONValue, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = parameter else { return parameter }
        members["example"] = value
        return .object(members)
    }

    static let userIDHeader = example(
        OpenAPIParameter.header(
            "x-user-id", ["type": "string", "minLength": 1, "pattern": "\\S"],
            "The user the request is for.", required: true), .string(exampleUserID))
    static let timezoneHeader = OpenAPIParameter.header(
        "timezone", Schema.ref("TimeZoneName"),
        "IANA zone for response timestamps (and the session's `created_timezone`); default UTC.")
    static let productKeyHeader = OpenAPIParameter.header(
        "x-product-key", Schema.string,
        "The `product_key` from product registration; links new sessions to the device.")
    static let sessionIDPath = example(OpenAPIParameter.path("session_id", Schema.string, "The session id."), .string(exampleSessionID))
    static let userIDPath = example(OpenAPIParameter.path("user_id", Schema.string, "The user id."), .string(exampleUserID))

    static let exampleUserID = "G-20260301220000-AbCdEfGhIjKlMnOpQrSt"
    static let exampleSessionID = "20260301220000_abcde"

    /// An SDK operation: credentials, the common errors and the `sdk` tag added.
    static func sdk(
        _ id: String, _ summary: String, _ description: String, parameters: [JSONValue] = [], body: JSONValue? = nil,
        responses: [String: JSONValue], credentials: Bool = true
    ) -> OpenAPIOperation {
        OpenAPIOperation(
            id: id, summary: summary, description: description, parameters: parameters, requestBody: body,
            responses: responses.merging(errors) { first, _ in first },
            security: credentials ? [["apiKey": []], ["accessToken": []]] : nil, tags: ["sdk"])
    }

    // MARK: Users and products

    static func addUserOperations(to document: inout OpenAPIDocument) {
        let metadata: JSONValue = ["birth_year": 1990, "birth_month": 4, "birth_day": 12, "gender": "female", "height": 165.5, "weight": nil]
        document.add(
            "post", "/ai/v1/users",
            sdk(
                "createUser", "Create a user", "What `initAsleepConfig` calls without a user id. The body is optional; `metadata` is validated.",
                body: OpenAPIContent.jsonBody(Schema.ref("CreateUserBody"), required: false, example: ["metadata": ["birth_year": 1990, "gender": "female"]]),
                responses: [
                    "201": linked(
                        OpenAPIContent.json(
                            "Created.", envelope(Schema.ref("UserCreated")),
                            example: envelopeExample(["user_id": .string(exampleUserID)])),
                        [
                            "getUser": ["operationId": "getUser", "parameters": ["path.user_id": "$response.body#/result/user_id"]],
                            "createSession": ["operationId": "createSession", "parameters": ["header.x-user-id": "$response.body#/result/user_id"]],
                            "getAverageStats": ["operationId": "getAverageStats", "parameters": ["path.user_id": "$response.body#/result/user_id"]],
                        ])
                ]))
        document.add(
            "get", "/ai/v1/users/{user_id}",
            sdk(
                "getUser", "Get a user", "What `initAsleepConfig` calls with a user id; 404 `user does not exist` under another customer.",
                parameters: [userIDPath],
                responses: [
                    "200": OpenAPIContent.json(
                        "The user.", envelope(Schema.ref("User")),
                        example: envelopeExample([
                            "user_id": .string(exampleUserID), "to_be_deleted": false, "last_session_info": nil, "metadata": metadata,
                        ]))
                ]))
        document.add(
            "put", "/ai/v1/users/{user_id}",
            sdk(
                "updateUser", "Replace a user's metadata", "`metadata` is required and replaces the stored one.",
                parameters: [userIDPath],
                body: OpenAPIContent.jsonBody(Schema.ref("UpdateUserBody"), example: ["metadata": ["height": 180.5, "weight": 72]]),
                responses: [
                    "200": OpenAPIContent.json(
                        "Updated.", envelope(Schema.ref("UserUpdated")),
                        example: envelopeExample(["user_id": .string(exampleUserID), "metadata": metadata]))
                ]))
        document.add(
            "delete", "/ai/v1/users/{user_id}",
            sdk(
                "deleteUser", "Delete a user", "`Asleep.deleteUser`: removes the user and every session at once.",
                parameters: [userIDPath], responses: ["204": OpenAPIContent.empty("Deleted.")]))
        document.add(
            "post", "/ai/v1/products",
            sdk(
                "registerProduct", "Register the device",
                "`Asleep.setup(apiKey:productInfo:delegate:)`: 201 for a new product, 200 with the same `product_key` when the customer "
                    + "registered it before. Invalid fields → 422 (or 400 by setting); a plan without product billing → 403.",
                body: OpenAPIContent.jsonBody(Schema.ref("ProductBody"), example: ["model": "bed-2", "identifier_type": "SERIAL", "identifier_value": "SN-0001"]),
                responses: [
                    "201": OpenAPIContent.json(
                        "Registered.", envelope(Schema.ref("Product")),
                        example: envelopeExample([
                            "product_id": "P-6b1f0c2e-1d4a-4f6b-9a51-2f3c4d5e6f70", "product_key": "pk_Zx8q2LmN4vB7cR1tY5wK9jH3gF6dS0aP2oI8uE4r", "created": true,
                        ])),
                    "200": OpenAPIContent.json(
                        "Already registered by this customer.", envelope(Schema.ref("Product")),
                        example: envelopeExample([
                            "product_id": "P-6b1f0c2e-1d4a-4f6b-9a51-2f3c4d5e6f70", "product_key": "pk_Zx8q2LmN4vB7cR1tY5wK9jH3gF6dS0aP2oI8uE4r", "created": false,
                        ])),
                ]))
        document.add(
            "post", "/customer/v1/app/token",
            sdk(
                "issueToken", "Issue tokens for an appId/appSecret pair",
                "3.3 `initAsleepConfig(appId:appSecret:)`. A wrong or unreadable pair is a 401.",
                body: OpenAPIContent.jsonBody(Schema.ref("TokenBody"), example: ["app_id": "app_demo000000000000", "app_secret": "sec_demo0000000000000000000000000000"]),
                responses: ["200": OpenAPIContent.json("Tokens.", envelope(Schema.ref("Tokens")), example: tokensExample)], credentials: false))
        document.add(
            "post", "/customer/v1/app/refresh",
            sdk(
                "refreshToken", "Refresh tokens", "The refresh token is single-use: a second use is a 401.",
                body: OpenAPIContent.jsonBody(Schema.ref("RefreshBody"), example: ["refresh_token": "rt_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0"]),
                responses: ["200": OpenAPIContent.json("New tokens.", envelope(Schema.ref("Tokens")), example: tokensExample)], credentials: false))
    }

    static let tokensExample = envelopeExample([
        "access_token": "at_M9n8B7v6C5x4Z3l2K1j0H9g8F7d6S5a4P3o2I1u0",
        "refresh_token": "rt_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0", "expires_in": 36_000,
    ])

    // MARK: Sessions

    static func addSessionOperations(to document: inout OpenAPIDocument) {
        document.add(
            "post", "/ai/v1/sessions",
            sdk(
                "createSession", "Start tracking",
                "`startTracking`: creates an OPEN session; the user's previous OPEN session is closed (or 409 with `conflictMode: reject`). "
                    + "The body is optional.",
                parameters: [userIDHeader, timezoneHeader, productKeyHeader],
                body: OpenAPIContent.jsonBody(
                    Schema.ref("CreateSessionBody"), required: false,
                    example: ["service": "app", "callback_url": "https://example.com/hooks/asleep"]),
                responses: [
                    "201": linked(
                        OpenAPIContent.json(
                            "Created.", envelope(Schema.ref("SessionCreated")),
                            example: envelopeExample(["session_id": .string(exampleSessionID)])),
                        Dictionary(
                            uniqueKeysWithValues: ["uploadChunk", "closeSession", "getReport", "deleteSession"].map { operation in
                                (
                                    operation,
                                    [
                                        "operationId": .string(operation),
                                        "parameters": [
                                            "path.session_id": "$response.body#/result/session_id", "header.x-user-id": "$request.header.x-user-id",
                                        ],
                                    ] as JSONValue
                                )
                            }))
                ]))
        document.add(
            "delete", "/ai/v1/sessions",
            sdk(
                "deleteAllSessions", "Delete every session of the user", "Removes all sessions of the `x-user-id` user.",
                parameters: [userIDHeader], responses: ["204": OpenAPIContent.empty("Deleted.")]))
        document.add(
            "delete", "/ai/v1/sessions/{session_id}",
            sdk(
                "deleteSession", "Delete one session", "`Reports.deleteReport`.",
                parameters: [sessionIDPath, userIDHeader], responses: ["204": OpenAPIContent.empty("Deleted.")]))
        document.add(
            "post", "/ai/v1/sessions/{session_id}/upload",
            sdk(
                "uploadChunk", "Upload one 30-s chunk",
                "Multipart `seq_num` + `file` (+ optional `callback_url`). Re-sending a `seq_num` is idempotent; only OPEN sessions "
                    + "accept chunks (403 otherwise). Also accepted: any other body as the chunk with `seq_num` in the query or an "
                    + "`x-seq-num` header. Over 16 MiB → 413.",
                parameters: [sessionIDPath, userIDHeader, productKeyHeader],
                body: [
                    "required": true,
                    "content": [
                        "multipart/form-data": [
                            "schema": Schema.ref("UploadForm"),
                            "example": ["seq_num": 0, "file": "(the chunk's bytes)"],
                        ]
                    ],
                ],
                responses: [
                    "200": OpenAPIContent.json(
                        "Stored.", envelope(Schema.ref("UploadResult")),
                        example: envelopeExample([
                            "session_id": .string(exampleSessionID), "seq_num": 0, "snoring_detected": false, "breath_detected": false,
                        ]))
                ]))
        document.add(
            "post", "/ai/v1/sessions/{session_id}/close",
            sdk(
                "closeSession", "Stop tracking",
                "`stopTracking`: the session becomes CLOSED, and COMPLETE after the completion delay on the project clock. "
                    + "The end time must not be before the start. The body is optional.",
                parameters: [sessionIDPath, userIDHeader],
                body: OpenAPIContent.jsonBody(
                    Schema.ref("CloseSessionBody"), required: false,
                    example: ["unexpected": 0]),
                responses: [
                    "200": OpenAPIContent.json(
                        "Closed.", envelope(Schema.ref("CloseResult")),
                        example: envelopeExample(["session_id": .string(exampleSessionID), "state": "CLOSED"]))
                ]))
    }

    // MARK: Data API

    /// A report as the SDK reads it (also the control plane's session report example).
    static let reportExample: JSONValue = [
        "timezone": "Asia/Seoul", "peculiarities": ["IN_PROGRESS"], "missing_data_ratio": 0.025, "stat": nil,
        "session": [
            "id": .string(exampleSessionID), "state": "OPEN", "start_time": "2026-03-02T07:00:00+09:00", "end_time": nil,
            "unexpected_end_time": nil, "created_timezone": "Asia/Seoul", "sleep_stages": [0, 0, 1, 1, 1, 2, 2, 2, 1, 3],
            "snoring_stages": [0, 0, 0, 0, 1, 1, 0, 0, 0, 0], "breath_stages": nil,
        ],
    ]

    static func addDataOperations(to document: inout OpenAPIDocument) {
        let date: JSONValue = ["type": "string", "format": "date"]
        let report = reportExample
        document.add(
            "get", "/data/v3/sessions/{session_id}",
            sdk(
                "getReport", "A session report",
                "`Reports.report`, real-time analysis and completion polling: `IN_PROGRESS` with `stat: null` until COMPLETE.",
                parameters: [sessionIDPath, userIDHeader, timezoneHeader],
                responses: [
                    "200": OpenAPIContent.json(
                        "The report.", envelope(Schema.ref("Report"), detail: "OK"),
                        example: envelopeExample(report, detail: "OK"))
                ]))
        document.add(
            "get", "/data/v1/sessions",
            sdk(
                "listSessions", "List the user's sessions", "`Reports.reports(…)`: dates are inclusive days in the response zone.",
                parameters: [
                    userIDHeader, timezoneHeader,
                    OpenAPIParameter.query("date_gte", date, "First day (inclusive)."),
                    OpenAPIParameter.query("date_lte", date, "Last day (inclusive)."),
                    OpenAPIParameter.query("order_by", Schema.enumeration(["ASC", "DESC", "asc", "desc"]), "By start time; default DESC."),
                    OpenAPIParameter.query("offset", ["type": "integer", "minimum": 0, "maximum": .int(Int64(Int32.max))], "Sessions to skip."),
                    OpenAPIParameter.query("limit", ["type": "integer", "minimum": 0, "maximum": 100], "Page size (default 20)."),
                ],
                responses: [
                    "200": OpenAPIContent.json(
                        "Sessions.", envelope(Schema.ref("SessionList"), detail: "OK"),
                        example: envelopeExample(
                            [
                                "timezone": "UTC",
                                "sleep_session_list": [
                                    [
                                        "session_id": .string(exampleSessionID), "state": "COMPLETE", "session_start_time": "2026-03-01T22:00:00+00:00",
                                        "session_end_time": "2026-03-02T06:00:00+00:00", "created_timezone": "UTC", "unexpected_end_time": nil,
                                        "last_received_seq_num": 959, "time_in_bed": 28_800,
                                    ]
                                ],
                            ], detail: "OK"))
                ]))
        document.add(
            "get", "/data/v1/users/{user_id}/average-stats",
            sdk(
                "getAverageStats", "Average statistics over a period",
                "`Reports.getAverageReport(fromDate:toDate:)`: COMPLETE sessions starting in the period. The period may span at most "
                    + "100 days (`end_date` − `start_date` ≤ 100 days, else 400) and must not end before it starts (400 `Invalid period`). "
                    + "The `timezone` header wins over the query parameter.",
                parameters: [
                    userIDPath, timezoneHeader,
                    example(OpenAPIParameter.query("start_date", date, "First day.", required: true), "2026-03-01"),
                    example(OpenAPIParameter.query("end_date", date, "Last day.", required: true), "2026-03-31"),
                    OpenAPIParameter.query("timezone", Schema.ref("TimeZoneName"), "The zone when no `timezone` header is sent."),
                ],
                responses: [
                    "200": OpenAPIContent.json(
                        "Averages.", envelope(Schema.ref("AverageReport"), detail: "OK"),
                        example: envelopeExample(
                            [
                                "period": ["timezone": "UTC", "start_date": "2026-03-01", "end_date": "2026-03-31"],
                                "peculiarities": ["NO_BREATHING_STABILITY"], "average_stats": nil, "never_slept_sessions": [], "slept_sessions": [],
                            ], detail: "OK"))
                ]))
    }
}
