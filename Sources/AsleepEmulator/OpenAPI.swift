import EmulatorCore

/// The OpenAPI 3.1 document of the Asleep SDK routes (paths relative to `/asleep`) and of this
/// platform's control-plane routes (full `/__admin/projects/{id}/asleep/…` paths).
enum AsleepOpenAPI {
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static func nullable(_ type: String) -> JSONValue { ["type": [.string(type), "null"]] }
    static func nullableRef(_ name: String) -> JSONValue { ["oneOf": [ref(name), ["type": "null"]]] }
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static let number: JSONValue = ["type": "number"]
    static let boolean: JSONValue = ["type": "boolean"]
    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    /// A closed object whose members are all required unless listed in `optional`.
    static func object(_ properties: [String: JSONValue], optional: Set<String> = [], open: Bool = false) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties),
                                           "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map(JSONValue.string))]
        if !open { schema["additionalProperties"] = false }
        return .object(schema)
    }

    static func envelope(_ result: JSONValue) -> JSONValue { object(["detail": string, "result": result]) }

    static func json(_ description: String, _ schema: JSONValue) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    static let errors: [String: JSONValue] = [
        "4XX": json("Asleep error (`{\"detail\": …}`)", ref("Error")),
        "5XX": json("Server error or injected fault", ref("Error")),
    ]
    static let adminErrors: [String: JSONValue] = ["4XX": json("Control-plane error", ref("AdminError"))]

    static func header(_ name: String, required: Bool = false, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "header", "required": .bool(required), "schema": string, "description": .string(description)]
    }
    static func path(_ name: String) -> JSONValue { ["name": .string(name), "in": "path", "required": true, "schema": string] }
    static func query(_ name: String, _ schema: JSONValue, required: Bool = false) -> JSONValue {
        ["name": .string(name), "in": "query", "required": .bool(required), "schema": schema]
    }
    static let apiKey = header("x-api-key", "API key (or `Authorization: Bearer <access token>`)")
    static let userID = header("x-user-id", "The user (required on session routes)")
    static let timezone = header("timezone", "IANA zone for response timestamps (default UTC)")
    static let productKey = header("x-product-key", "Credential from product registration")

    static func operation(_ summary: String, _ responses: [String: JSONValue], parameters: [JSONValue] = [], body: JSONValue? = nil,
                          admin: Bool = false) -> JSONValue {
        var op: [String: JSONValue] = ["summary": .string(summary), "parameters": .array(parameters),
                                       "responses": .object(responses.merging(admin ? adminErrors : errors) { first, _ in first })]
        if let body { op["requestBody"] = ["required": false, "content": body] }
        op["tags"] = [admin ? "control plane" : "sdk"]
        return .object(op)
    }

    static func jsonBody(_ schema: JSONValue) -> JSONValue { ["application/json": ["schema": schema]] }

    static var schemas: [String: JSONValue] {
        let metadata = object(["birth_year": nullable("integer"), "birth_month": nullable("integer"), "birth_day": nullable("integer"),
                               "gender": nullable("string"), "height": nullable("number"), "weight": nullable("number")], optional: [
                                "birth_year", "birth_month", "birth_day", "gender", "height", "weight"])
        let statInts = ["sleep_index", "sleep_latency", "wakeup_latency", "light_latency", "deep_latency", "rem_latency", "time_in_bed",
                        "time_in_sleep_period", "time_in_sleep", "time_in_wake", "time_in_light", "time_in_deep", "time_in_rem",
                        "time_in_stable_breath", "time_in_unstable_breath", "time_in_snoring", "time_in_no_snoring", "waso_count",
                        "longest_waso", "sleep_cycle_count", "sleep_cycle", "snoring_count", "unstable_breath_count"]
        let statNumbers = ["sleep_efficiency", "sleep_ratio", "wake_ratio", "light_ratio", "deep_ratio", "rem_ratio", "stable_breath_ratio",
                           "unstable_breath_ratio", "snoring_ratio", "no_snoring_ratio", "breathing_index"]
        var stat: [String: JSONValue] = ["sleep_time": nullable("string"), "wake_time": nullable("string"), "breathing_pattern": nullable("string"),
                                         "sleep_cycle_time": array(["type": ["integer", "string"]])]
        for name in statInts { stat[name] = nullable("integer") }
        for name in statNumbers { stat[name] = nullable("number") }
        let stages: JSONValue = ["type": ["array", "null"], "items": integer]
        let peculiarity: JSONValue = ["type": "string", "enum": ["IN_PROGRESS", "NEVER_SLEPT", "TOO_SHORT_FOR_ANALYSIS", "TOO_LONG_FOR_ANALYSIS",
                                                             "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_BREATHING_STABILITY", "NO_REALTIME_POLLING"]]
        let state: JSONValue = ["type": "string", "enum": ["OPEN", "CLOSED", "COMPLETE"]]
        let time = nullable("string")
        return [
            "Error": object(["detail": ["type": ["string", "array"]]]),
            "AdminError": object(["error": object(["code": string, "message": string, "details": ["type": "object"]], optional: ["details"])]),
            "Metadata": metadata,
            "UserCreated": object(["user_id": string]),
            "LastSessionInfo": object(["session_id": string, "inference_type": string, "service": string, "start_time": string,
                                       "end_time": time, "state": state, "complete_time": time]),
            "User": object(["user_id": string, "to_be_deleted": boolean, "last_session_info": nullableRef("LastSessionInfo"),
                            "metadata": nullableRef("Metadata")]),
            "UserUpdated": object(["user_id": string, "metadata": nullableRef("Metadata")]),
            "Product": object(["product_id": string, "product_key": string, "created": boolean]),
            "SessionCreated": object(["session_id": string]),
            "UploadResult": object(["session_id": string, "seq_num": integer, "snoring_detected": boolean, "breath_detected": boolean]),
            "CloseResult": object(["session_id": string, "state": ["const": "CLOSED"]]),
            "Stat": object(stat),
            "ReportSession": object(["id": string, "state": state, "start_time": string, "end_time": time, "unexpected_end_time": time,
                                     "created_timezone": string, "sleep_stages": stages, "snoring_stages": stages, "breath_stages": stages]),
            "Report": object(["timezone": string, "peculiarities": array(peculiarity), "missing_data_ratio": number,
                              "session": ref("ReportSession"), "stat": nullableRef("Stat")]),
            "SleepSession": object(["session_id": string, "state": state, "session_start_time": string, "session_end_time": time,
                                    "created_timezone": string, "unexpected_end_time": time, "last_received_seq_num": nullable("integer"),
                                    "time_in_bed": integer]),
            "SessionList": object(["timezone": string, "sleep_session_list": array(ref("SleepSession"))]),
            "AverageReport": object(["period": object(["timezone": string, "start_date": string, "end_date": string]),
                                     "peculiarities": array(peculiarity), "average_stats": ["type": ["object", "null"]],
                                     "never_slept_sessions": array(object(["id": string, "start_time": string, "end_time": time, "completed_time": time])),
                                     "slept_sessions": array(["type": "object", "required": ["id", "start_time", "sleep_time", "wake_time"]])]),
            "Tokens": object(["access_token": string, "refresh_token": string, "expires_in": integer]),
            // Control plane (camelCase).
            "Settings": ["type": "object", "required": ["completionDelaySeconds", "maxSessionSeconds", "conflictMode"]],
            "Key": object(["apiKey": string, "customer": string, "state": string, "productBilling": boolean, "createdAt": string]),
            "App": object(["appId": string, "appSecret": string, "customer": string, "state": string, "productBilling": boolean, "createdAt": string]),
            "AdminUser": object(["userId": string, "customer": string, "metadata": ["type": ["object", "null"]], "createdAt": string]),
            "AdminProduct": object(["productId": string, "productKey": string, "customer": string, "model": string, "identifierType": string,
                                    "identifierValue": string, "revoked": boolean, "createdAt": string]),
            "AdminSession": object(["sessionId": string, "userId": string, "customer": string, "state": state, "startTime": string,
                                    "endTime": time, "unexpectedEndTime": time, "closedAt": time, "completeTime": time, "hold": boolean,
                                    "timezone": string, "service": string, "inferenceType": string, "callbackUrl": time,
                                    "productId": time, "lastReceivedSeqNum": nullable("integer"), "receivedChunks": integer,
                                    "overrides": ["type": "object"]]),
            "Delivery": object(["id": string, "outboxId": integer, "sessionId": string, "event": string, "url": string, "userId": string,
                                "status": ["type": "string", "enum": ["pending", "delivered", "failed"]], "attempts": integer,
                                "maxAttempts": integer, "lastStatus": nullable("integer"), "lastError": time, "body": ["type": "object"],
                                "createdAt": string]),
        ]
    }

    static var sdkPaths: [String: JSONValue] {
        let sessionID = path("session_id"), userIDPath = path("user_id")
        return [
            "/ai/v1/users": ["post": operation("Create a user (initAsleepConfig without userId)",
                                               ["201": json("Created", envelope(ref("UserCreated")))], parameters: [apiKey],
                                               body: jsonBody(object(["metadata": nullableRef("Metadata")], optional: ["metadata"], open: true)))],
            "/ai/v1/users/{user_id}": [
                "get": operation("Get a user (initAsleepConfig with userId)", ["200": json("The user", envelope(ref("User")))], parameters: [userIDPath, apiKey]),
                "put": operation("Replace a user's metadata", ["200": json("Updated", envelope(ref("UserUpdated")))], parameters: [userIDPath, apiKey],
                                 body: jsonBody(object(["metadata": ref("Metadata")], open: true))),
                "delete": operation("Delete a user and all their sessions (deleteUser)", ["204": ["description": "Deleted"]], parameters: [userIDPath, apiKey]),
            ],
            "/ai/v1/products": ["post": operation("Register the device (setup with ProductInfo); 200 when already registered",
                                                  ["201": json("Registered", envelope(ref("Product"))), "200": json("Already registered", envelope(ref("Product")))],
                                                  parameters: [apiKey],
                                                  body: jsonBody(object(["model": string, "identifier_type": ["type": "string", "enum": ["SERIAL", "MAC_ADDRESS"]],
                                                                         "identifier_value": string], open: true)))],
            "/ai/v1/sessions": [
                "post": operation("Start tracking: create an OPEN session (the user's previous OPEN session is closed)",
                                  ["201": json("Created", envelope(ref("SessionCreated")))], parameters: [apiKey, userID, timezone, productKey],
                                  body: jsonBody(object(["session_start_time": string, "inference_type": ["type": "string", "enum": ["MELSPECTROGRAM", "AUDIO"]],
                                                         "service": string, "callback_url": string, "timezone": string],
                                                        optional: ["session_start_time", "inference_type", "service", "callback_url", "timezone"], open: true))),
                "delete": operation("Delete all sessions of the user", ["204": ["description": "Deleted"]], parameters: [apiKey, userID]),
            ],
            "/ai/v1/sessions/{session_id}": ["delete": operation("Delete one session (deleteReport)", ["204": ["description": "Deleted"]],
                                                                 parameters: [sessionID, apiKey, userID])],
            "/ai/v1/sessions/{session_id}/upload": ["post": operation(
                "Upload one 30-s chunk (multipart: seq_num, file, optional callback_url)",
                ["200": json("Stored (duplicates are idempotent)", envelope(ref("UploadResult")))], parameters: [sessionID, apiKey, userID, productKey],
                body: ["multipart/form-data": ["schema": object(["seq_num": integer, "file": ["type": "string", "contentEncoding": "binary"],
                                                                 "callback_url": string], optional: ["seq_num", "callback_url"], open: true)]])],
            "/ai/v1/sessions/{session_id}/close": ["post": operation(
                "Stop tracking: close the session (COMPLETE follows after the completion delay)",
                ["200": json("Closed", envelope(ref("CloseResult")))], parameters: [sessionID, apiKey, userID],
                body: jsonBody(object(["session_end_time": string, "unexpected": integer, "callback_url": string],
                                      optional: ["session_end_time", "unexpected", "callback_url"], open: true)))],
            "/data/v3/sessions/{session_id}": ["get": operation("A session report (also real-time analysis and completion polling)",
                                                                ["200": json("The report", envelope(ref("Report")))],
                                                                parameters: [sessionID, apiKey, userID, timezone])],
            "/data/v1/sessions": ["get": operation("List sessions", ["200": json("Sessions", envelope(ref("SessionList")))], parameters: [
                apiKey, userID, timezone, query("date_gte", string), query("date_lte", string),
                query("order_by", ["type": "string", "enum": ["ASC", "DESC"]]), query("offset", integer), query("limit", integer),
            ])],
            "/data/v1/users/{user_id}/average-stats": ["get": operation("Average statistics over at most 100 days",
                                                                        ["200": json("Averages", envelope(ref("AverageReport")))], parameters: [
                userIDPath, apiKey, timezone, query("start_date", string, required: true), query("end_date", string, required: true),
                query("timezone", string),
            ])],
            "/customer/v1/app/token": ["post": operation("Issue tokens for appId/appSecret", ["200": json("Tokens", envelope(ref("Tokens")))],
                                                         body: jsonBody(object(["app_id": string, "app_secret": string], open: true)))],
            "/customer/v1/app/refresh": ["post": operation("Refresh tokens", ["200": json("Tokens", envelope(ref("Tokens")))],
                                                           body: jsonBody(object(["refresh_token": string], open: true)))],
        ]
    }

    static var adminPaths: [String: JSONValue] {
        let base = "/__admin/projects/{id}/asleep"
        let id = path("id")
        func list(_ key: String, _ item: String) -> JSONValue { object([key: array(ref(item))]) }
        func op(_ summary: String, _ status: String, _ schema: JSONValue?, parameters: [JSONValue] = [], body: JSONValue? = nil) -> JSONValue {
            operation(summary, [status: schema.map { json("OK", $0) } ?? ["description": "No content"]], parameters: [id] + parameters,
                      body: body.map(jsonBody), admin: true)
        }
        let session = path("session")
        return [
            base + "/settings": ["get": op("Effective settings", "200", ref("Settings")),
                                 "patch": op("Change settings", "200", ref("Settings"), body: ["type": "object"])],
            base + "/keys": ["get": op("API keys", "200", list("keys", "Key")),
                             "post": op("Add an API key", "201", ref("Key"), body: ["type": "object"])],
            base + "/keys/{key}": ["patch": op("Change a key's state, plan or customer", "200", ref("Key"), parameters: [path("key")], body: ["type": "object"]),
                                   "delete": op("Delete a key", "204", nil, parameters: [path("key")])],
            base + "/apps": ["get": op("App credentials", "200", list("apps", "App")),
                             "post": op("Add an appId/appSecret pair", "201", ref("App"), body: ["type": "object"])],
            base + "/tokens/expire": ["post": op("Expire tokens now", "200", object(["expired": integer]), body: ["type": "object"])],
            base + "/users": ["get": op("Users", "200", list("users", "AdminUser")),
                              "post": op("Seed a user", "201", ref("AdminUser"), body: ["type": "object"])],
            base + "/users/{user}": ["delete": op("Delete a user", "204", nil, parameters: [path("user")])],
            base + "/products": ["get": op("Registered products", "200", list("products", "AdminProduct")),
                                 "post": op("Seed a registered product", "201", ref("AdminProduct"), body: ["type": "object"])],
            base + "/products/{product}/revoke": ["post": op("Revoke a product credential", "200", ref("AdminProduct"), parameters: [path("product")])],
            base + "/sessions": ["get": op("Sessions", "200", list("sessions", "AdminSession"), parameters: [query("userId", string), query("state", string)]),
                                 "post": op("Seed a session in any state", "201", ref("AdminSession"), body: ["type": "object"])],
            base + "/sessions/{session}": ["get": op("One session", "200", ref("AdminSession"), parameters: [session]),
                                           "patch": op("Change a session", "200", ref("AdminSession"), parameters: [session], body: ["type": "object"])],
            base + "/sessions/{session}/report": ["get": op("The session's report as the SDK would read it now, in UTC", "200", ref("Report"), parameters: [session])],
            base + "/sessions/{session}/close": ["post": op("Close an OPEN session server-side", "200", ref("AdminSession"), parameters: [session])],
            base + "/sessions/{session}/complete": ["post": op("Complete a session now", "200", ref("AdminSession"), parameters: [session])],
            base + "/sessions/{session}/webhooks": ["post": op("Fire a webhook now", "202", object(["queued": string, "url": string]),
                                                               parameters: [session], body: ["type": "object"])],
            base + "/webhooks": ["get": op("Webhook deliveries", "200", list("deliveries", "Delivery"), parameters: [query("sessionId", string)])],
        ]
    }

    static func document() -> JSONValue {
        [
            "openapi": "3.1.0",
            "info": ["title": "Asleep (Understudy)", "version": "1.0.0",
                     "description": "Asleep SDK 3.3 backend as emulated by Understudy. SDK paths are relative to the server URL (…/asleep); control-plane paths are absolute."],
            "paths": .object(sdkPaths.merging(adminPaths) { first, _ in first }),
            "components": ["schemas": .object(schemas)],
        ]
    }
}
