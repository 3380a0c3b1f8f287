import EmulatorCore
import Foundation

/// The control-plane half of the WarrantyLife document: every path item has its own server-root
/// `servers` entry. Bodies are strict (unknown or null members are refused), as `AdminBody` reads them.
extension WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    private static let int64: JSONValue = WireFieldSchema.int64

    /// A control-plane body: every member optional (null meaning absent) except `required`,
    /// nothing else allowed.
    private static func adminBody(_ properties: [String: JSONValue], required: Set<String> = []) -> JSONValue {
        var members = properties
        for (name, schema) in properties where !required.contains(name) { members[name] = ["anyOf": [schema, ["type": "null"]]] }
        return S.object(members, optional: Set(properties.keys).subtracting(required))
    }

    /// The control-plane bodies (the Codable types of `WarrantyLifeAdmin`).
    static func adminBodySchemas() -> [String: JSONValue] {
        let string = S.string, boolean = S.boolean, number = S.number
        var user: [String: JSONValue] = [
            "email": ["type": "string", "pattern": "@"], "password": string, "activated": boolean, "token": string,
            "country": int64, "state": int64,
        ]
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "countryCode", "stateCode", "phone"] { user[name] = string }
        let date: JSONValue = ["type": "string", "pattern": .string(WireFieldSchema.datePattern)]
        var voucher: [String: JSONValue] = [
            "code": ["type": "string", "pattern": "\\S"], "status": S.enumeration(VoucherStatus.allCases.map(\.rawValue)), "expiresAt": date,
            "registrationType": S.enumeration(RegistrationType.allCases.map(\.rawValue)), "forceAction": S.enumeration(VoucherAction.allCases.map(\.rawValue)),
            "registrationDeadlineDays": int64, "coverageMonths": int64, "diagnosticRequirements": S.any,
            "sensorTest": ["anyOf": [["const": "standard"], ["type": "object"], ["type": "null"]], "description": "Absent or null: no Sensor Test."],
            "originalDevice": adminBody(["deviceId": string, "model": string, "mpn": string], required: ["deviceId"]),
            "plan": adminBody(["warrantyPlanId": string, "planName": string, "currency": string, "rewardAmount": number, "rewardAmountMax": number, "rewardType": string]),
        ]
        for name in ["lockedEmail", "originalDeviceId", "claimedByUserId", "claimedByEmail", "imeiLocked", "warrantyId"] { voucher[name] = string }
        for name in [
            "transferable", "receiptRequired", "purchaseDateRequired", "askIfDeviceIsInsured", "skipRegistrationForm", "isDeviceTransferInProgress",
            "ssrOffered", "ssdOffered", "tipOffered", "bluetoothScan", "wifiScan", "recordAudio",
        ] { voucher[name] = boolean }
        var voucherSchema = adminBody(voucher, required: ["code"])
        // lockedEmailRegistration needs the e-mail it locks.
        voucherSchema = with(
            voucherSchema, "anyOf",
            [
                ["properties": ["registrationType": S.enumeration(["normalRegistration", "passwordlessRegistration"])]],
                ["required": ["lockedEmail"], "properties": ["lockedEmail": string]],
            ])
        var item: [String: JSONValue] = ["deviceId": string, "ownerEmail": ["type": "string", "pattern": "@"], "ssr": boolean, "ssd": boolean, "tradeIn": boolean]
        for name in ["id", "userId", "categoryId", "manufacturerName", "model", "mpn", "imei", "notificationToken"] { item[name] = string }
        var itemSchema = adminBody(item, required: ["deviceId"])
        itemSchema = with(
            itemSchema, "anyOf",
            [
                ["required": ["userId"], "properties": ["userId": string]],
                ["required": ["ownerEmail"], "properties": ["ownerEmail": string]],
            ])
        var warranty: [String: JSONValue] = [
            "status": S.enumeration(WarrantyRecord.statuses), "coverageStartDate": date, "coverageEndDate": date, "dateOfPurchase": date,
            "rewardAmount": number, "rewardAmountMax": number, "tradeInScore": number, "country": int64, "state": int64,
        ]
        for name in ["id", "itemId", "deviceId", "userId", "voucherCode", "warrantyPlanId", "planName", "planCurrency", "rewardType", "firstName", "lastName"] {
            warranty[name] = string
        }
        for name in ["ssrOffered", "ssdOffered", "tipOffered"] { warranty[name] = boolean }
        var createWarranty = adminBody(warranty)
        createWarranty = with(
            createWarranty, "anyOf",
            [
                ["required": ["itemId"], "properties": ["itemId": string]],
                ["required": ["deviceId"], "properties": ["deviceId": string]],
            ])
        return [
            "KeyInput": adminBody([
                "key": string, "name": string, "environment": string, "state": S.enumeration(DeveloperKeyState.allCases.map(\.rawValue)),
                "unavailableMode": S.enumeration(UnavailableMode.allCases.map(\.rawValue)),
            ]),
            "UserInput": adminBody(user, required: ["email"]),
            "UserPatch": adminBody(["activated": boolean, "password": string, "revokeToken": boolean]),
            "VoucherInput": voucherSchema,
            "ItemInput": itemSchema,
            "WarrantyInput": createWarranty,
            "WarrantyPatch": adminBody(warranty),
        ]
    }

    /// Adds every control-plane operation, each path item with its own server-root `servers` entry.
    static func addControlPlane(to document: inout OpenAPIDocument) {
        let base = "/__admin/projects/{id}/warrantylife"
        let project = P.path("id", S.string, "Project id.")
        let bad = C.json("Invalid body or value (`invalid_json`, `unknown_field`, `wrong_type`, `invalid_value`, …).", S.ref("AdminError"))
        let missing = C.json("Project or the named record not found.", S.ref("AdminError"))
        let conflict = C.json("Already exists (`conflict`).", S.ref("AdminError"))
        func one(_ schema: String, _ description: String, example: JSONValue) -> JSONValue { C.json(description, S.ref(schema), example: example) }
        func list(_ key: String, _ row: JSONValue, example: JSONValue) -> JSONValue {
            C.json("The rows.", S.object([key: S.array(row)]), example: .object([key: .array([example])]))
        }
        func add(
            _ method: String, _ path: String, _ parameters: [JSONValue], _ id: String, _ summary: String, _ description: String,
            body: JSONValue? = nil, query: [JSONValue] = [], _ responses: [String: JSONValue]
        ) {
            var all = responses
            if all["404"] == nil { all["404"] = missing }
            document.addControlPlane(
                method, base + path,
                OpenAPIOperation(
                    id: id, summary: summary, description: description, parameters: query,
                    requestBody: body, responses: all, tags: ["Control plane"]),
                pathParameters: [project] + parameters)
        }
        let keyExample: JSONValue = [
            "key": "k2", "name": "Understudy", "environment": "sandbox", "state": "valid", "unavailableMode": "status", "createdAt": "2026-11-30T10:00:00.000Z",
        ]
        add(
            "get", "/developer-keys", [], "listDeveloperKeys", "Developer keys.", "The project's keys, oldest first.",
            ["200": list("developerKeys", S.ref("DeveloperKey"), example: keyExample)])
        add(
            "post", "/developer-keys", [], "createDeveloperKey", "Create a developer key.", "`unavailable` keys answer 503 (or hang) on validation; `revoked` ones 401 everywhere.",
            body: C.jsonBody(S.ref("KeyInput"), example: ["key": "k2", "state": "unavailable"]),
            ["201": one("DeveloperKey", "The key.", example: keyExample), "400": bad, "409": conflict])
        add(
            "patch", "/developer-keys/{key}", [P.path("key", S.string, "The key value.")], "updateDeveloperKey", "Change a key.", "Name, environment, state or unavailable mode.",
            body: C.jsonBody(S.ref("KeyInput"), example: ["state": "revoked"]), ["200": one("DeveloperKey", "The key.", example: keyExample), "400": bad])
        let userExample: JSONValue = [
            "userId": "100234", "identity": "jane@example.com", "email": "jane@example.com", "token": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
            "activated": true, "authorization": "Basic amFuZUBleGFtcGxlLmNvbTo5Zjg2", "createdAt": "2026-11-30T10:00:00Z",
        ]
        add(
            "get", "/users", [], "listUsers", "Users.", "With their tokens and a ready-made Authorization header.", ["200": list("users", S.ref("AdminUser"), example: userExample)]
        )
        add(
            "post", "/users", [], "createUser", "Create a user.", "Active unless `activated: false`.",
            body: C.jsonBody(S.ref("UserInput"), example: ["email": "jane@example.com", "password": "secret-pass", "firstName": "Jane"]),
            ["201": one("AdminUser", "The user.", example: userExample), "400": bad, "409": conflict])
        add(
            "patch", "/users/{userId}", [P.path("userId", S.string, "User id.")], "updateUser", "Activate, set a password, revoke the token.", "`revokeToken` issues a new token.",
            body: C.jsonBody(S.ref("UserPatch"), example: ["activated": true]), ["200": one("AdminUser", "The user.", example: userExample), "400": bad])
        let voucherExample: JSONValue = [
            "code": "ABC-1234-XYZ", "status": "unredeemed", "claimedByUserId": nil, "originalDeviceId": nil, "warrantyId": "500123",
            "createdAt": "2026-11-30T10:00:00Z", "updatedAt": "2026-11-30T10:00:00Z",
        ]
        add("get", "/vouchers", [], "listVouchers", "Vouchers.", "Seeds and their current state.", ["200": list("vouchers", S.ref("AdminVoucher"), example: voucherExample)])
        add(
            "post", "/vouchers", [], "createVoucher", "Create or replace a voucher.", "Every VoucherAction and RegistrationType can be reached from these attributes.",
            body: C.jsonBody(S.ref("VoucherInput"), example: ["code": "ABC-1234-XYZ", "receiptRequired": true, "ssrOffered": true]),
            ["201": one("AdminVoucher", "The voucher.", example: voucherExample), "400": bad])
        add(
            "get", "/vouchers/{code}", [P.path("code", S.string, "Voucher code.")], "getAdminVoucher", "A voucher's state.", "Claimer, bound device, status.",
            ["200": one("AdminVoucher", "The voucher.", example: voucherExample)])
        let actionRow = S.object(
            ["code": S.string, "action": S.nullable(S.string), "isError": S.boolean, "error": S.nullable(S.string), "status": S.integer],
            optional: ["status"])
        add(
            "get", "/voucher-actions", [], "previewVoucherActions", "The action a lookup of each voucher would get now.",
            "Runs the voucher decision table for every voucher of the project for the given caller and device, recording nothing (the dashboard shows it).",
            query: [
                P.query("deviceId", S.string, "The device asking."), P.query("userId", S.string, "The signed-in user, if any."),
                P.query("isPlanTransfer", S.enumeration(["true", "false"]), "As the SDK sends it."),
            ],
            [
                "200": C.json(
                    "One row per voucher.", S.object(["voucherActions": S.array(actionRow)]),
                    example: ["voucherActions": [["code": "ABC-1234-XYZ", "action": "normalRegistration", "isError": false, "error": nil]]]),
                "400": bad,
            ])
        let itemExample: JSONValue = [
            "id": "100345", "deviceId": .string(device), "userId": "100234", "categoryId": "95", "manufacturerName": "Apple", "model": "iPhone 13",
            "mpn": "iPhone14,5", "imei": nil, "notificationToken": nil, "ssr": false, "ssd": false, "tradeIn": false,
            "createdAt": "2026-11-30T10:00:00Z", "updatedAt": "2026-11-30T10:00:00Z",
        ]
        add("get", "/items", [], "listItems", "Items.", "Every device's item.", ["200": list("items", S.ref("AdminItem"), example: itemExample)])
        add(
            "post", "/items", [], "seedItem", "Create an item (any owner).", "An unknown `ownerEmail` creates that other account, for the 1302 path.",
            body: C.jsonBody(S.ref("ItemInput"), example: ["deviceId": "THEIRS", "ownerEmail": "jdoe@gmail.com"]),
            ["201": one("AdminItem", "The item.", example: itemExample), "400": bad, "409": conflict])
        let itemID = P.path("itemId", S.string, "Item id.")
        add("delete", "/items/{itemId}", [itemID], "deleteItem", "Delete an item.", "The device then has no item (404 on lookup).", ["204": C.empty("Deleted.")])
        add("get", "/warranties", [], "listAdminWarranties", "Warranties.", "With their owner.", ["200": list("warranties", S.ref("Warranty"), example: warranty)])
        add(
            "post", "/warranties", [], "seedWarranty", "Create a warranty on an item.", "Copies the voucher's plan and offers; the voucher becomes claimed.",
            body: C.jsonBody(S.ref("WarrantyInput"), example: ["deviceId": .string(device), "voucherCode": "ABC-1234-XYZ"]),
            ["201": one("Warranty", "The warranty.", example: warranty), "400": bad])
        add(
            "patch", "/warranties/{warrantyId}", [P.path("warrantyId", S.string, "Warranty id.")], "updateAdminWarranty", "Change a warranty.",
            "Status, coverage dates, offers, rewards.", body: C.jsonBody(S.ref("WarrantyPatch"), example: ["status": "CANCELLED"]),
            ["200": one("Warranty", "The warranty.", example: warranty), "400": bad])
        let insight = S.object(["itemId": S.string, "insight": ["oneOf": [S.ref("InsightData"), ["type": "null"]]]])
        add(
            "put", "/items/{itemId}/insights", [itemID], "putInsights", "Seed InsightData (or null).", "Checked against the SDK's model (a seed without tip.current is refused).",
            body: C.jsonBody(["oneOf": [S.ref("InsightData"), ["type": "null"]]], example: .null),
            ["200": C.json("The seed.", insight, example: ["itemId": "100345", "insight": nil]), "400": C.json("`invalid_insight` or invalid JSON.", S.ref("AdminError"))])
        add(
            "post", "/items/{itemId}/insights/generate", [itemID], "generateInsights", "Generate InsightData from the project clock.",
            "Periods in `timeZone` (default UTC), reward months in UTC; the same item always gets the same ranks.",
            body: C.jsonBody(adminBody(["timeZone": S.enumeration(WarrantyLifeAdmin.timeZones)]), required: false, example: ["timeZone": "America/Toronto"]),
            [
                "201": C.json(
                    "The generated insights.", S.object(["itemId": S.string, "insight": S.ref("InsightData")]), example: ["itemId": "100345", "insight": insightExample]),
                "400": bad,
            ])
        let name = P.path("name", S.enumeration(DefaultContent.names.sorted()), "Content name.")
        let content = S.object(["name": S.string, "value": S.any])
        add(
            "get", "/content/{name}", [name], "getContent", "Read content.", "The project's value, or the default.",
            ["200": C.json("The content.", content, example: ["name": "offers", "value": []])])
        add(
            "put", "/content/{name}", [name], "putContent", "Replace content.",
            "`appConfig` {countries}; the HTML pages as a JSON string; `offers` and `sensorTests` arrays; the rest objects.",
            body: C.jsonBody(["type": ["object", "array", "string"]], example: []), ["200": C.json("The content.", content, example: ["name": "offers", "value": []]), "400": bad])
        let nullable = S.nullable, string = S.string, integer = S.integer, boolean = S.boolean, open: JSONValue = ["type": "object"]
        let rows: [(path: String, key: String, row: JSONValue, example: JSONValue)] = [
            (
                "sensor-events", "sensorEvents",
                S.object([
                    "id": string, "itemId": string, "eventAt": nullable(string), "sensorEventType": nullable(integer), "body": open,
                    "duplicateOf": nullable(string), "createdAt": string,
                ]),
                [
                    "id": "100457", "itemId": "100345", "eventAt": "2026-11-30 10:15:00.250", "sensorEventType": 1111, "body": ["eventAt": "2026-11-30 10:15:00.250"],
                    "duplicateOf": "100456", "createdAt": "2026-11-30T10:15:01Z",
                ]
            ),
            (
                "readings", "readings",
                S.object([
                    "id": string, "itemId": string, "sensorEventId": string, "count": integer, "gzipped": boolean,
                    "readings": S.array(open), "createdAt": string,
                ]),
                ["id": "1", "itemId": "100345", "sensorEventId": "100456", "count": 1, "gzipped": true, "readings": [["phase": 5000]], "createdAt": "2026-11-30T10:15:02Z"]
            ),
            (
                "audio-clips", "audioClips",
                S.object([
                    "id": string, "itemId": string, "sensorEventId": string, "recordedAt": nullable(string), "contentType": nullable(string),
                    "bytes": integer, "sha256": string, "createdAt": string,
                ]),
                [
                    "id": "1", "itemId": "100345", "sensorEventId": "100456", "recordedAt": "2026-11-30 10:15:00.250", "contentType": nil, "bytes": 9,
                    "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae", "createdAt": "2026-11-30T10:15:03Z",
                ]
            ),
            (
                "diagnostics", "diagnostics", S.object(["id": string, "itemId": string, "body": open, "requestHash": string, "sameHashAs": nullable(string), "createdAt": string]),
                [
                    "id": "100568", "itemId": "100345", "body": ["brand": "Apple"], "requestHash": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
                    "sameHashAs": "100567", "createdAt": "2026-11-30T10:15:04Z",
                ]
            ),
            (
                "images", "images",
                S.object([
                    "id": string, "itemId": string, "diagnosticId": string, "kind": string, "filename": nullable(string), "contentType": string,
                    "bytes": integer, "sha256": string, "duplicate": boolean, "createdAt": string,
                ]),
                [
                    "id": "1", "itemId": "100345", "diagnosticId": "100567", "kind": "reference", "filename": "123456789", "contentType": "image/jpg", "bytes": 4,
                    "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae", "duplicate": false, "createdAt": "2026-11-30T10:15:05Z",
                ]
            ),
            (
                "fcm-tokens", "fcmTokens", S.object(["id": string, "itemId": string, "token": string, "source": string, "createdAt": string]),
                ["id": "1", "itemId": "100345", "token": "fcm-token", "source": "notificationToken", "createdAt": "2026-11-30T10:00:00Z"]
            ),
            (
                "opt-ins", "optIns",
                S.object([
                    "id": string, "itemId": string, "program": S.enumeration(["SSR", "SSD", "TRADE_IN"]), "optedIn": boolean,
                    "sensorEventId": nullable(string),
                    "notEffectiveReason": [
                        "description":
                            "Why an opt-in changed nothing: `not_offered` (the active warranty does not offer the program) or `no_active_warranty`; null when it took effect.",
                        "type": ["string", "null"], "enum": ["not_offered", "no_active_warranty", nil],
                    ],
                    "createdAt": string,
                ]),
                [
                    "id": "1", "itemId": "100345", "program": "SSR", "optedIn": true, "sensorEventId": "100458", "notEffectiveReason": nil,
                    "createdAt": "2026-11-30T10:20:00Z",
                ]
            ),
            (
                "submissions", "submissions",
                S.object(["id": string, "kind": S.enumeration(["survey", "feedback"]), "userId": nullable(string), "body": open, "createdAt": string]),
                ["id": "100789", "kind": "feedback", "userId": "100234", "body": ["rating": 5], "createdAt": "2026-11-30T10:30:00Z"]
            ),
            (
                "voucher-lookups", "voucherLookups",
                S.object([
                    "id": integer, "code": string, "deviceId": nullable(string), "userId": nullable(string), "action": string,
                    "registrationType": string, "createdAt": string,
                ]),
                [
                    "id": 1, "code": "ABC-1234-XYZ", "deviceId": .string(device), "userId": nil, "action": "normalRegistration", "registrationType": "normalRegistration",
                    "createdAt": "2026-11-30T10:00:00Z",
                ]
            ),
        ]
        for table in rows {
            let camel = table.key.prefix(1).uppercased() + table.key.dropFirst()
            add(
                "get", "/" + table.path, [], "list\(camel)", "Inspect \(table.key).", "What the SDK sent, in order, with the marks tests assert on (repeats, hashes, duplicates).",
                query: table.path == "submissions" || table.path == "voucher-lookups" ? [] : [P.query("itemId", S.string, "Only this item's rows.")],
                ["200": list(table.key, table.row, example: table.example)])
        }
        add(
            "post", "/items/{itemId}/silent-push", [itemID], "silentPush", "Record a silent push for the item's FCM token.",
            "Understudy delivers nothing: the payload lands in the outbox (kind push) for the harness to deliver.",
            body: C.jsonBody(adminBody(["payload": S.any]), required: false, example: ["payload": ["aps": ["content-available": 1]]]),
            [
                "201": C.json("Recorded.", S.object(["messageId": S.integer, "payload": S.any]), example: ["messageId": 1, "payload": ["aps": ["content-available": 1]]]),
                "400": bad, "409": C.json("`no_token`: the item has no FCM token yet.", S.ref("AdminError")),
            ])
    }
}
