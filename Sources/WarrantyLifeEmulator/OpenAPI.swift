import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document of WarrantyLife, written with the shared builder: the SDK routes,
/// relative to the `<server>/warrantylife` server the core adds (`/mapi/wi/100/…`, as on Host
/// `www.warrantylife.com`), and the control plane under `/__admin/projects/{id}/warrantylife`
/// (path items with their own server-root `servers` entry), as the other platforms' documents.
enum WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// The SDK paths' base, relative to the document's server (`<server>/warrantylife`).
    static let sdkBase = "/mapi/wi/100"

    /// The document; the optional Smart Saver routes are in it only when `smartSaverRoutes` serves them.
    static func document(smartSaverRoutes: Bool = false) -> JSONValue {
        var document = OpenAPIDocument(
            title: "WarrantyLife (Understudy)",
            description: "The WarrantyLife mobile API as the WLSDKIOS SDK uses it, and Understudy's control plane for it. Success bodies are "
                + "{data: …} (raw HTML for the offers pages); errors are {error, errorMessage, errorCode}, with the request's journal id in "
                + "X-Understudy-Trace. SDK paths are relative to the server URL (…/warrantylife; on Host www.warrantylife.com the same paths "
                + "are at the root); control-plane paths are absolute, with their own server entry. Every SDK path checks X-WL-Developer-Key "
                + "first (401 1001/1002), then answers 404 route_not_found (1404) or 405 for paths and methods that do not exist.",
            schemas: schemas(),
            securitySchemes: [
                "developerKey": ["type": "apiKey", "in": "header", "name": "X-WL-Developer-Key", "description": "The project's WarrantyLife developer key."],
                "userBasic": ["type": "http", "scheme": "basic", "description": "base64(identity:token) from login."],
                "userBearer": ["type": "http", "scheme": "bearer", "description": "The token from login."],
            ])
        addAccountRoutes(to: &document)
        addItemRoutes(to: &document, smartSaverRoutes: smartSaverRoutes)
        addUploadRoutes(to: &document)
        addWarrantyRoutes(to: &document)
        addContentRoutes(to: &document)
        addControlPlane(to: &document)
        return document.json()
    }

    // MARK: Building blocks

    /// A success response in the `{data: …}` envelope.
    static func ok(_ description: String, _ schema: JSONValue, example: JSONValue) -> JSONValue {
        C.json(description, S.object(["data": schema]), example: ["data": example])
    }

    /// A JSON request body.
    static func body(_ schema: String, example: JSONValue) -> JSONValue { C.jsonBody(S.ref(schema), example: example) }

    /// A path parameter: any non-empty segment.
    static func segment(_ name: String, _ description: String, example: String, schema: JSONValue = ["type": "string", "minLength": 1]) -> JSONValue {
        withExample(P.path(name, schema, description), .string(example))
    }

    /// A query parameter with an example.
    static func query(_ name: String, _ schema: JSONValue, _ description: String, required: Bool = false, example: String) -> JSONValue {
        withExample(P.query(name, schema, description, required: required), .string(example))
    }

    /// `schema` with `key` set to `value`.
    static func with(_ schema: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members[key] = value
        return .object(members)
    }

    private static func withExample(_ parameter: JSONValue, _ example: JSONValue) -> JSONValue {
        guard case .object(var members) = parameter else { return parameter }
        members["example"] = example
        return .object(members)
    }

    /// Adds an SDK operation with the answers every SDK route can give (`commonErrors`); an
    /// operation's own 401 keeps its examples and gains the common ones.
    static func sdk(
        _ document: inout OpenAPIDocument, _ method: String, _ path: String, _ id: String, _ summary: String, _ description: String,
        access: Access, pathParameters: [JSONValue] = [], query: [JSONValue] = [], body: JSONValue? = nil, _ responses: [String: JSONValue]
    ) {
        var all = responses
        for (status, response) in commonErrors(access) { all[status] = all[status].map { C.mergingExamples($0, response) } ?? response }
        let key: JSONValue = ["developerKey": []]
        let security: JSONValue
        switch access {
        case .key: security = [key]
        case .user: security = [["developerKey": [], "userBasic": []], ["developerKey": [], "userBearer": []]]
        case .optionalUser: security = [["developerKey": [], "userBasic": []], ["developerKey": [], "userBearer": []], key]
        }
        document.add(
            method, sdkBase + path,
            OpenAPIOperation(
                id: id, summary: summary, description: description, parameters: query, requestBody: body,
                responses: all, security: security, tags: ["SDK"]),
            pathParameters: pathParameters)
    }

    // MARK: Examples shared by several operations

    static let login: JSONValue = ["token": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b", "identity": "jane@example.com", "userId": "100234", "email": "jane@example.com"]
    static let item: JSONValue = [
        "id": "100345", "deviceId": "6F1C2A9E-0B2D-4C5E-9F00-1234567890AB", "categoryId": "95", "manufacturerName": "Apple",
        "model": "iPhone 13", "mpn": "iPhone14,5", "imei": "356938035643809", "createdAt": "2026-11-30T10:00:00Z",
        "hasActiveCoverage": true, "warrantyIds": ["500123"],
    ]
    static let warranty: JSONValue = [
        "id": "500123", "encodedId": "NTAwMTIz", "registrationCode": "ABC-1234-XYZ", "warrantyUrl": "https://www.warrantylife.com/w/NTAwMTIz",
        "status": "ACTIVE", "hasActiveCoverage": true, "itemId": "100345", "deviceId": "6F1C2A9E-0B2D-4C5E-9F00-1234567890AB", "voucherCode": "ABC-1234-XYZ",
        "warrantyPlanId": "77", "planName": "Device Protection Plan", "planCurrency": "USD", "rewardAmount": 0, "rewardAmountMax": 50,
        "rewardType": "DEDUCTIBLE_REDUCTION", "tradeInScore": nil, "ssrOffered": true, "ssdOffered": true, "tipOffered": false, "ssr": true, "ssd": false,
        "tradeIn": false, "dateOfPurchase": "2026-11-01", "coverageStartDate": "2026-11-30T10:00:00Z", "coverageEndDate": "2027-11-30T10:00:00Z",
        "waitingPeriodEndsAt": nil, "isDeviceInsured": false, "acceptedMarketing": true, "firstName": "Jane", "lastName": "Doe", "company": nil,
        "streetAddress": nil, "city": "Vancouver", "zip": "V5K 0A1", "state": 202, "country": 2, "phone": "555-0100",
        "createdAt": "2026-11-30T10:00:00Z", "updatedAt": "2026-11-30T10:00:00Z",
    ]
    static let device = "6F1C2A9E-0B2D-4C5E-9F00-1234567890AB"

    // MARK: Key and accounts

    /// Adds key validation, the account operations, app config and the voucher lookup.
    private static func addAccountRoutes(to document: inout OpenAPIDocument) {
        let missingField = error(
            "validation_failed (1400): a missing or mistyped field, or a body that is not UTF-8 JSON (the message names the field).", .missingField("email"),
            .notAnObject)
        sdk(
            &document, "get", "/developer-keys/validate", "validateDeveloperKey", "Validate the developer key.",
            "The SDK calls this from build(...): 200 is .valid(name, environment), 401 .invalid; a key seeded `unavailable` answers 503 (or hangs), which the SDK reports as .unavailable.",
            access: .key,
            [
                "200": ok("The key's name and environment.", S.object(["name": S.string, "environment": S.string]), example: ["name": "Understudy", "environment": "sandbox"]),
                "503": error("service_unavailable (5003): the key is seeded `unavailable`.", .serviceUnavailable),
            ])
        sdk(
            &document, "get", "/auth/activated-account-check", "emailRegisteredCheck", "Whether an e-mail has an account.",
            "Both flags are false for an unknown e-mail.", access: .key,
            query: [query("email", WireFieldSchema.requiredQuery, "The e-mail to check.", required: true, example: "jane@example.com")],
            [
                "200": ok(
                    "Existence and activation.", S.object(["email": S.string, "exists": S.boolean, "activated": S.boolean]),
                    example: ["email": "jane@example.com", "exists": true, "activated": true]),
                "400": error("validation_failed (1400): `email` is missing.", .missingQuery("email")),
            ])
        sdk(
            &document, "post", "/auth/recover", "recoverLostPassword", "Ask for a password reset.",
            "Always 202; for a known account a reset mail is put in the project's outbox. The body may also be a form.", access: .key,
            body: body("Recover", example: ["email": "jane@example.com"]),
            ["202": ok("Accepted.", S.object(["sent": S.boolean]), example: ["sent": true]), "400": missingField])
        let loginForm: JSONValue = ["username": "jane@example.com", "password": "secret-pass"]
        sdk(
            &document, "post", "/auth/token", "getTokenViaUserPassword", "Log in (2022: form `username`, `password`; exactly 202).",
            "Answers the LoginResponse whose identity and token make the Basic credentials of later calls. A mismatch is 404 (401 by configuration), an account not yet activated 403.",
            access: .key,
            body: [
                "required": true,
                "content": [
                    "application/x-www-form-urlencoded": ["schema": S.ref("LoginForm"), "example": loginForm],
                    "application/json": ["schema": S.ref("Login"), "example": loginForm],
                ],
            ],
            [
                "202": ok("Logged in.", S.ref("LoginResponse"), example: login), "200": ok("Logged in (loginStatus 200).", S.ref("LoginResponse"), example: login),
                "400": error("validation_failed (1400): `username` or `password` is missing.", .missingField("username"), .missingField("password")),
                "401": error("invalid_credentials (1101) when the project answers a mismatch with 401.", .invalidCredentials(status: 401)),
                "403": error("account_not_activated (1103).", .accountNotActivated),
                "404": error("invalid_credentials (1101): e-mail or password wrong.", .invalidCredentials(status: 404)),
            ])
        sdk(
            &document, "delete", "/auth/token", "revokeToken", "Revoke the token (optional logout route).",
            "The SDK's logout() is local; this route exists for clients that revoke their token. Later calls with it answer 401.", access: .user,
            ["204": C.empty("Revoked.")])
        sdk(
            &document, "post", "/auth/user", "registerNewUser", "Create an account and log it in.",
            "`password` may be left out after looking up a passwordless voucher; a locked-e-mail voucher only takes its e-mail (422). `country`/`state` are /app-config ids.",
            access: .key,
            body: body("RegisterNewUser", example: ["email": "new@example.com", "password": "secret-pass", "firstName": "Jane", "lastName": "Doe", "country": 2, "state": 202]),
            [
                "201": ok("The new account, logged in.", S.ref("LoginResponse"), example: login),
                "400": error("validation_failed (1400): a missing or mistyped field (the message names it).", .missingField("email"), .missingField("password")),
                "409": error("email_already_registered (1102).", .emailAlreadyRegistered), "422": error("email_locked (1104).", .emailLocked),
            ])
        sdk(
            &document, "get", "/whoami", "getMe", "The logged-in account.", "The WLRegisterNewUserModel fields plus ids; absent ones are null.", access: .user,
            [
                "200": ok(
                    "The account.", S.ref("User"),
                    example: [
                        "userId": "100234", "identity": "jane@example.com", "email": "jane@example.com", "firstName": "Jane", "lastName": "Doe", "company": nil,
                        "streetAddress": nil, "city": "Vancouver", "zip": "V5K 0A1", "country": 2, "countryCode": "CA", "state": 202, "stateCode": "BC", "phone": nil,
                    ])
            ])
        sdk(
            &document, "get", "/app-config", "getAppConfig", "Countries and provinces.",
            "The ids registration and warranty requests use; replaceable through the control plane.", access: .key,
            [
                "200": ok(
                    "The catalogue.", S.ref("AppConfig"),
                    example: [
                        "countries": [
                            [
                                "id": 2, "code": "CA", "name": "Canada",
                                "provinces": [["id": 202, "code": "BC", "name": "British Columbia"]],
                            ]
                        ]
                    ])
            ])
        sdk(
            &document, "get", "/vouchers/{code}", "getVoucherByVoucherCode", "Look a voucher up and derive the action for this caller and device.",
            "Rules, first match wins: forceAction; redeemed 403; expired 410; plan transfer; an active warranty on the device (activeWarrantyConflict); claimed; "
                + "bound to another device; else normalRegistration. User credentials are used when present. Codes match case-insensitively.",
            access: .optionalUser, pathParameters: [segment("code", "The voucher code.", example: "ABC-1234-XYZ")],
            query: [
                query("isPlanTransfer", WireFieldSchema.queryFlag, "true for a plan transfer.", example: "false"),
                query("activeWarrantiesInCurrentDevice", WireFieldSchema.queryCount, "What the device knows of its active warranties.", example: "0"),
                query("deviceId", S.string, "The calling device.", example: device),
            ],
            [
                "200": ok("The voucher and its action.", S.ref("Voucher"), example: voucherExample),
                "400": error(
                    "validation_failed (1400): a query value of the wrong kind.", .badQuery("isPlanTransfer", "true or false"),
                    .badQuery("activeWarrantiesInCurrentDevice", "a non-negative integer")),
                "403": error("voucher_redeemed (1202): \"Voucher has already been redeemed.\"", .voucherRedeemed),
                "404": error("voucher_not_found (1201).", .voucherNotFound), "410": error("voucher_expired (1203).", .voucherExpired),
            ])
    }

    static let voucherExample: JSONValue = [
        "voucherCode": "ABC-1234-XYZ", "action": "normalRegistration", "registrationType": "normalRegistration", "isError": false, "lockedEmail": nil,
        "warrantyId": "500123", "encodedWarrantyId": "NTAwMTIz", "isVoucherCorrect": true, "isVoucherConfirmed": true, "isTransferable": false,
        "isDeviceTransferable": false, "isDeviceTransferInProgress": false, "askIfDeviceIsInsured": false, "skipRegistrationForm": false,
        "registrationDeadlineDays": 30, "imeiLocked": nil, "receiptRequired": false, "purchaseDateRequired": false, "countWarrantyOnCurrentDevice": 0,
        "originalDevice": nil,
        "plan": ["warrantyPlanId": "77", "planName": "Device Protection Plan", "currency": "USD", "rewardAmount": 0, "rewardAmountMax": 50, "rewardType": "DEDUCTIBLE_REDUCTION"],
        "smartSaver": ["ssrOffered": true, "ssdOffered": true, "tipOffered": false],
        "diagnosticRequirements": [
            "autoTestRequired": true, "sensorTestRequired": true, "frontCameraTestRequired": true, "backCameraTestRequired": true,
            "openFaceTestRequired": false, "bluetoothScan": true, "wifiScan": true, "recordAudio": false,
            "sensorTest": [
                "id": "3", "name": "Sensor test", "description": "Motion and tone check.",
                "sensorTestPhases": [["id": "18", "phase": 50, "durationMs": 50]],
            ],
        ],
    ]
}
