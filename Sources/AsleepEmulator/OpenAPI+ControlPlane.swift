import EmulatorCore
import Foundation

/// The control-plane half of the document: `/__admin/projects/{id}/asleep/…`, camelCase, bodies
/// strict (unknown members are a 400, so every body schema is closed).
extension AsleepOpenAPI {
    static let controlPlaneBase = "/__admin/projects/{id}/asleep"

    /// The 4xx every control-plane operation can give (unknown project, bad body, conflict).
    static let adminErrors: [String: JSONValue] = [
        "4XX": OpenAPIContent.json(
            "A control-plane error.", Schema.ref("AdminError"),
            example: ["error": ["code": "not_found", "message": "Session `20260301220000_abcde` not found."]])
    ]

    static let projectIDPath = example(OpenAPIParameter.path("id", Schema.string, "The project id."), "demo")

    /// Adds one control-plane operation at `base + path`.
    static func addAdmin(
        _ document: inout OpenAPIDocument, _ method: String, _ path: String, _ id: String, _ summary: String, _ description: String,
        parameters: [JSONValue] = [], pathParameters: [JSONValue] = [], body: JSONValue? = nil, bodyRequired: Bool = true,
        bodyExample: JSONValue? = nil, status: String, response: JSONValue?, example: JSONValue? = nil
    ) {
        let success = response.map { OpenAPIContent.json("Done.", $0, example: example) } ?? OpenAPIContent.empty("Done; no body.")
        let operation = OpenAPIOperation(
            id: id, summary: summary, description: description, parameters: parameters,
            requestBody: body.map { OpenAPIContent.jsonBody($0, required: bodyRequired, example: bodyExample) },
            responses: [status: success].merging(adminErrors) { first, _ in first }, tags: ["control plane"])
        document.addControlPlane(method, controlPlaneBase + path, operation, pathParameters: [projectIDPath] + pathParameters)
    }

    static func addControlPlaneOperations(to document: inout OpenAPIDocument) {
        func list(_ key: String, _ item: String) -> JSONValue { Schema.object([key: Schema.array(Schema.ref(item))]) }
        let key = example(OpenAPIParameter.path("key", Schema.string, "The API key."), "extra-key")
        let user = example(OpenAPIParameter.path("user", Schema.string, "The user id."), .string(exampleUserID))
        let product = example(OpenAPIParameter.path("product", Schema.string, "The product id."), "P-6b1f0c2e-1d4a-4f6b-9a51-2f3c4d5e6f70")
        let session = example(OpenAPIParameter.path("session", Schema.string, "The session id."), .string(exampleSessionID))
        let keyExample: JSONValue = [
            "apiKey": "extra-key", "customer": "key:extra-key", "state": "active", "productBilling": true,
            "createdAt": "2026-03-01T22:00:00.000Z",
        ]
        let sessionExample: JSONValue = [
            "sessionId": .string(exampleSessionID), "userId": .string(exampleUserID), "customer": "key:demo", "state": "OPEN",
            "startTime": "2026-03-01T22:00:00.000Z", "endTime": nil, "unexpectedEndTime": nil, "closedAt": nil, "completeTime": nil,
            "hold": false, "timezone": "UTC", "service": "NOSERVICE", "inferenceType": "MELSPECTROGRAM", "callbackUrl": nil, "productId": nil,
            "lastReceivedSeqNum": 19, "receivedChunks": 20, "overrides": [:],
        ]
        addAdmin(
            &document, "get", "/settings", "asleepGetSettings", "Effective settings", "Every setting with its effective value.",
            status: "200", response: Schema.ref("Settings"), example: settingsExample)
        addAdmin(
            &document, "patch", "/settings", "asleepPatchSettings", "Change settings",
            "An RFC 7396 merge patch of the project's settings; `null` restores a setting's default.",
            body: Schema.ref("SettingsPatch"), bodyExample: ["completionDelaySeconds": 5, "webhookMaxAttempts": 3],
            status: "200", response: Schema.ref("Settings"), example: settingsExample)
        addAdmin(
            &document, "get", "/keys", "asleepListKeys", "API keys", "The project's API keys with their state, plan flag and customer.",
            status: "200", response: list("keys", "Key"), example: ["keys": [keyExample]])
        addAdmin(
            &document, "post", "/keys", "asleepAddKey", "Add an API key", "A new key (generated when `apiKey` is absent); 409 if it exists.",
            body: Schema.ref("KeyBody"), bodyExample: ["apiKey": "extra-key", "state": "quota_exceeded"],
            status: "201", response: Schema.ref("Key"), example: keyExample)
        addAdmin(
            &document, "patch", "/keys/{key}", "asleepChangeKey", "Change a key", "Its state, plan flag or customer (the key itself cannot change).",
            pathParameters: [key], body: Schema.ref("KeyPatch"), bodyExample: ["state": "plan_expired"],
            status: "200", response: Schema.ref("Key"), example: keyExample)
        addAdmin(
            &document, "delete", "/keys/{key}", "asleepDeleteKey", "Delete a key", "Requests with it are then a 401.",
            pathParameters: [key], status: "204", response: nil)
        addAdmin(
            &document, "get", "/apps", "asleepListApps", "App credentials", "The project's appId/appSecret pairs.",
            status: "200", response: list("apps", "App"), example: ["apps": [appExample]])
        addAdmin(
            &document, "post", "/apps", "asleepAddApp", "Add an appId/appSecret pair", "Generated where absent; 409 if the appId exists.",
            body: Schema.ref("AppBody"), bodyExample: ["appId": "app_extra"], status: "201", response: Schema.ref("App"), example: appExample)
        addAdmin(
            &document, "post", "/tokens/expire", "asleepExpireTokens", "Expire tokens now",
            "Access, refresh or all tokens of the project expire on the spot (default all); the body is optional.",
            body: Schema.ref("ExpireBody"), bodyRequired: false, bodyExample: ["kind": "access"],
            status: "200", response: Schema.object(["expired": Schema.integer]), example: ["expired": 2])
        addAdmin(
            &document, "get", "/users", "asleepListUsers", "Users", "Every user of the project, of every customer.",
            status: "200", response: list("users", "AdminUser"), example: ["users": [userExample]])
        addAdmin(
            &document, "post", "/users", "asleepSeedUser", "Seed a user",
            "Under the customer of `apiKey` (default the project's key) or the given `customer`; `metadata` as on the wire.",
            body: Schema.ref("UserBody"), bodyExample: ["userId": "G-seeded", "metadata": ["gender": "male"]],
            status: "201", response: Schema.ref("AdminUser"), example: userExample)
        addAdmin(
            &document, "delete", "/users/{user}", "asleepDeleteUser", "Delete a user", "With every session.",
            pathParameters: [user], status: "204", response: nil)
        addAdmin(
            &document, "get", "/products", "asleepListProducts", "Registered products", "Every registered product of the project.",
            status: "200", response: list("products", "AdminProduct"), example: ["products": [productExample]])
        addAdmin(
            &document, "post", "/products", "asleepSeedProduct", "Seed a registered product",
            "As if the device had registered; 409 when the product or key exists.",
            body: Schema.ref("ProductSeedBody"), bodyExample: ["model": "bed-2", "identifierValue": "SN-SEED", "productKey": "pk_seeded"],
            status: "201", response: Schema.ref("AdminProduct"), example: productExample)
        addAdmin(
            &document, "post", "/products/{product}/revoke", "asleepRevokeProduct", "Revoke a product credential",
            "Its `x-product-key` is then a 401 until the device registers again.",
            pathParameters: [product], status: "200", response: Schema.ref("AdminProduct"), example: productExample)
        addAdmin(
            &document, "get", "/sessions", "asleepListSessions", "Sessions", "After due transitions; filter by user or state.",
            parameters: [
                OpenAPIParameter.query("userId", Schema.string, "Only this user's sessions."),
                OpenAPIParameter.query("state", Schema.enumeration(["OPEN", "CLOSED", "COMPLETE"]), "Only sessions in this state."),
            ],
            status: "200", response: list("sessions", "AdminSession"), example: ["sessions": [sessionExample]])
        addAdmin(
            &document, "post", "/sessions", "asleepSeedSession", "Seed a session in any state",
            "The user must exist (seed it first, else 404); an OPEN session has no `endTime`, and `endTime` is not before "
                + "`startTime` (400). Without `startTime`, the session starts `chunks` × 30 s before `endTime` (or before now).",
            body: Schema.ref("SessionSeedBody"), bodyExample: ["userId": "G-seeded", "state": "OPEN", "chunks": 20],
            status: "201", response: Schema.ref("AdminSession"), example: sessionExample)
        addAdmin(
            &document, "get", "/sessions/{session}", "asleepGetSession", "One session", "With received chunks and overrides.",
            pathParameters: [session], status: "200", response: Schema.ref("AdminSession"), example: sessionExample)
        addAdmin(
            &document, "patch", "/sessions/{session}", "asleepPatchSession", "Change a session",
            "`hold: true` keeps it CLOSED; stages, peculiarities and stat overrides; an empty `callbackUrl` removes it.",
            pathParameters: [session], body: Schema.ref("SessionPatch"), bodyExample: ["hold": true],
            status: "200", response: Schema.ref("AdminSession"), example: sessionExample)
        addAdmin(
            &document, "get", "/sessions/{session}/chunks", "asleepSessionChunks", "The session's received chunks",
            "By `seqNum`: each chunk's size and the SHA-256 of its bytes (a re-sent chunk keeps its first copy) and when it arrived. "
                + "Chunks seeded with the session were never sent: `size` 0, `sha256` null, `seeded` true.",
            pathParameters: [session], status: "200", response: list("chunks", "AdminChunk"), example: chunksExample)
        addAdmin(
            &document, "get", "/sessions/{session}/report", "asleepSessionReport", "The session's report as the SDK would read it now",
            "The v3 report body (stages per epoch, stats), in UTC, after due state transitions; the dashboard draws its hypnogram.",
            pathParameters: [session], status: "200", response: Schema.ref("Report"), example: reportExample)
        addAdmin(
            &document, "post", "/sessions/{session}/close", "asleepCloseSession", "Close an OPEN session server-side",
            "As another device or the 24 h limit would; 409 unless OPEN.",
            pathParameters: [session], status: "200", response: Schema.ref("AdminSession"), example: sessionExample)
        addAdmin(
            &document, "post", "/sessions/{session}/complete", "asleepCompleteSession", "Complete a session now",
            "Queues SESSION_COMPLETE; 409 when already COMPLETE.",
            pathParameters: [session], status: "200", response: Schema.ref("AdminSession"), example: sessionExample)
        addAdmin(
            &document, "post", "/sessions/{session}/webhooks", "asleepFireWebhook", "Fire a webhook now",
            "To `callbackUrl` or the session's callback URL (409 when it has none).",
            pathParameters: [session], body: Schema.ref("EventBody"), bodyExample: ["event": "INFERENCE_COMPLETE"],
            status: "202", response: Schema.object(["queued": Schema.string, "url": Schema.string]),
            example: ["queued": "INFERENCE_COMPLETE", "url": "https://example.com/hooks/asleep"])
        addAdmin(
            &document, "get", "/webhooks", "asleepListWebhooks", "Webhook deliveries", "Every delivery with its attempts and last status.",
            parameters: [OpenAPIParameter.query("sessionId", Schema.string, "Only this session's deliveries.")],
            status: "200", response: list("deliveries", "Delivery"), example: ["deliveries": []])
    }

    // Both kinds a session can hold: a chunk seeded with it, then one the SDK uploaded (the bytes of "abc").
    static let chunksExample: JSONValue = [
        "chunks": [
            ["seqNum": 0, "size": 0, "sha256": nil, "receivedAt": "2026-03-01T22:00:00.000Z", "seeded": true],
            [
                "seqNum": 1, "size": 3, "sha256": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                "receivedAt": "2026-03-01T22:00:30.000Z", "seeded": false,
            ],
        ]
    ]

    static let appExample: JSONValue = [
        "appId": "app_extra", "appSecret": "sec_Zx8q2LmN4vB7cR1tY5wK9jH3gF6dS0aP", "customer": "app:app_extra",
        "state": "active", "productBilling": true, "createdAt": "2026-03-01T22:00:00.000Z",
    ]
    static let userExample: JSONValue = [
        "userId": "G-seeded", "customer": "key:demo", "createdAt": "2026-03-01T22:00:00.000Z",
        "metadata": ["birth_year": nil, "birth_month": nil, "birth_day": nil, "gender": "male", "height": nil, "weight": nil],
    ]
    static let productExample: JSONValue = [
        "productId": "P-6b1f0c2e-1d4a-4f6b-9a51-2f3c4d5e6f70", "productKey": "pk_seeded", "customer": "key:demo",
        "model": "bed-2", "identifierType": "SERIAL", "identifierValue": "SN-SEED", "revoked": false,
        "createdAt": "2026-03-01T22:00:00.000Z",
    ]
    // Encoding a struct of optional scalars cannot fail; were it to, the example would only be empty.
    static var settingsExample: JSONValue { (try? JSONValue.from(AsleepSettings().effective)) ?? [:] }
}
