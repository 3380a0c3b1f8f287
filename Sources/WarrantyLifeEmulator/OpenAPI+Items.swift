import EmulatorCore
import Foundation

// Items, devices, sensor events, FCM tokens, Smart Saver, insights and the registration uploads.
extension WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias C = OpenAPIContent

    private static let itemID = segment("itemId", "The item id (from getItemByDeviceID or create item).", example: "100345")
    private static let otherAccount = error(
        "device_registered_to_other_account (1302): the item belongs to another account; the message names its masked e-mail.",
        .deviceRegisteredToOtherAccount(maskedEmail: "j***@example.com"))
    private static let noItem = error("item_not_found (1301).", .itemNotFound)
    private static let badField = error("validation_failed (1400): a missing or mistyped field, or a body that is not UTF-8 JSON.", .notAnObject)
    private static let noDeviceID = error("validation_failed (1400): `deviceId` is missing.", .missingQuery("deviceId"))

    /// Adds the item, device, sensor-event, FCM-token, insights and (when served) Smart Saver operations.
    static func addItemRoutes(to document: inout OpenAPIDocument, smartSaverRoutes: Bool) {
        let deviceQuery = query("deviceId", WireFieldSchema.requiredQuery, "The device's identifierForVendor.", required: true, example: device)
        sdk(
            &document, "get", "/devices", "getItemByDeviceIdPublic", "Public coverage of a device.", "No personal data; used by the logged-out foreground refresh.",
            access: .key, query: [deviceQuery],
            [
                "200": ok(
                    "The device's coverage.", S.ref("DeviceDetail"),
                    example: [
                        "deviceId": .string(device), "itemId": "100345", "hasActiveCoverage": true, "warrantyId": "500123", "warrantyStatus": "ACTIVE",
                        "ssrOffered": true, "ssdOffered": true, "tipOffered": false, "ssr": true, "ssd": false, "tradeIn": false,
                    ]),
                "400": noDeviceID, "404": noItem,
            ])
        sdk(
            &document, "get", "/items", "getItemByDeviceID", "The caller's item of a device.", "404 means no item yet (the SDK then creates one); 401 (1302) another account's.",
            access: .user, query: [deviceQuery],
            ["200": ok("The item.", S.ref("Item"), example: item), "400": noDeviceID, "401": otherAccount, "404": noItem])
        sdk(
            &document, "post", "/items", "createItem", "Create the item of a device.", "201 when created; 200 with the item when the caller already owns the device's item.",
            access: .user,
            body: body("CreateItem", example: ["deviceId": .string(device), "categoryId": "95", "manufacturerName": "Apple", "model": "iPhone 13", "mpn": "iPhone14,5"]),
            [
                "201": ok("Created.", S.ref("Item"), example: item), "200": ok("The caller's existing item.", S.ref("Item"), example: item),
                "400": error("validation_failed (1400): a missing or mistyped field, or a body that is not UTF-8 JSON.", .missingField("deviceId"), .notAnObject),
                "401": otherAccount,
            ])
        let event: JSONValue = [
            "eventAt": "2026-11-30 10:15:00.250", "sensorEventType": 1111, "volumeSetting": 60, "sensorTestId": "3", "dropJsVersion": "2.0.22",
            "notificationToken": "fcm-token", "deviceId": .string(device), "platformVersion": "17.5", "appVersion": "3.1.0",
        ]
        let eventResponses: [String: JSONValue] = [
            "202": ok(
                "The new sensor event's id (every call gets one; repeats are marked duplicateOf for inspection).", S.object(["sensorEventId": S.string]),
                example: ["sensorEventId": "100456"]),
            "200": ok("A token-only item update.", S.object(["id": S.string]), example: ["id": "100345"]),
            "400": badField, "401": otherAccount, "404": noItem,
        ]
        sdk(
            &document, "put", "/items/{itemId}", "createSensorEvent", "Record a sensor event (or update the item's FCM token).",
            "Drop captures (1200), sensor tests (1111) and Smart Saver opt-ins all travel here; `ssr`/`ssd`/`tradeIn` update the item's opt-ins. "
                + "Every event is stored: an opt-in the active warranty does not offer (or with no active warranty) is recorded as not "
                + "effective, with its reason, and changes no flag.",
            access: .user, pathParameters: [itemID], body: body("SensorEvent", example: event), eventResponses)
        sdk(
            &document, "post", "/items/{itemId}/events", "createSensorEventAlias", "Record a sensor event (alias of PUT /items/{itemId}).", "Same body and answers.",
            access: .user, pathParameters: [itemID], body: body("SensorEvent", example: event), eventResponses)
        sdk(
            &document, "put", "/items/{itemId}/notification-token", "updateFCMToken", "Record the item's FCM token.",
            "The latest token receives the silent pushes the control plane records.",
            access: .user, pathParameters: [itemID], body: body("NotificationToken", example: ["notificationToken": "fcm-token", "platform": "ios"]),
            [
                "200": ok(
                    "Recorded.", S.object(["itemId": S.string, "notificationToken": S.string, "updatedAt": S.string]),
                    example: ["itemId": "100345", "notificationToken": "fcm-token", "updatedAt": "2026-11-30T10:00:00Z"]),
                "400": badField, "401": otherAccount, "404": noItem,
            ])
        if smartSaverRoutes { addSmartSaverRoutes(to: &document) }
        let insightResponses: [String: JSONValue] = [
            "200": ok("The item's InsightData, or null when none is seeded.", ["oneOf": [S.ref("InsightData"), ["type": "null"]]], example: insightExample),
            "400": noDeviceID, "401": otherAccount, "404": noItem,
        ]
        sdk(
            &document, "get", "/insights", "getInsightData", "The device's insights.", "Drop and battery ranks, coaching, rewards and TIP in one answer.",
            access: .user, query: [deviceQuery], insightResponses)
        sdk(
            &document, "get", "/items/{itemId}/insights", "getInsightDataByItem", "The item's insights (alias).", "As GET /insights, by item id.",
            access: .user, pathParameters: [itemID], insightResponses)
        sdk(
            &document, "get", "/devices/{deviceId}/insights", "getInsightDataByDevice", "The device's insights (alias).", "As GET /insights, by path.",
            access: .user, pathParameters: [segment("deviceId", "The device's identifierForVendor.", example: device)], insightResponses)
    }

    /// An InsightData as the SDK documents it.
    static let insightExample: JSONValue = [
        "generatedAt": "2026-09-11T22:17:43Z", "timeZone": "America/Toronto",
        "dropRank": ["hourly": [["hour": 14, "date": "2026-09-11", "rank": 72, "isProjected": true]], "daily": [], "weekly": [], "monthly": []],
        "batteryRank": ["hourly": [], "daily": [], "weekly": [], "monthly": []],
        "coaching": ["generalHints": ["Use a case with raised edges."], "batteryHints": [], "tipHints": []],
        "rewards": ["current": ["month": "2026-09", "amount": 25.0], "projected": nil, "history": [["month": "2026-08", "amount": 20.0]]],
        "tip": ["current": ["date": "2026-09-11", "percentage": 82.0, "value": 310.0], "daily": [], "weekly": [], "monthly": []],
    ]

    /// Adds the registration uploads: readings, audio, diagnostics, images.
    static func addUploadRoutes(to document: inout OpenAPIDocument) {
        let eventID = segment("sensorEventId", "The sensor event's id.", example: "100456")
        let noEvent = error("sensor_event_not_found (1701), or item_not_found (1301).", .sensorEventNotFound, .itemNotFound)
        let tooLarge = error("payload_too_large (1413): above maxUploadBytes (20 MiB uncompressed by default).", .payloadTooLarge(limit: 20_971_520))
        let reading: JSONValue = [
            "readingAt": "2026-11-30 10:15:00.300", "accelerationX": 0.1, "accelerationY": 0.0, "accelerationZ": -9.81, "pitch": 1.0,
            "roll": 2.0, "yaw": 3.0, "relativeAltitude": -1, "pressure": -1, "phase": 5000,
        ]
        sdk(
            &document, "post", "/items/{itemId}/events/{sensorEventId}/readings", "uploadSensorReadings", "Upload a sensor event's readings.",
            "A JSON array of readings, usually gzip-compressed as the SDK sends it: the gzip stream of the array with `Content-Encoding: gzip` "
                + "(the server inflates it, up to maxUploadBytes inflated), or the bare gzip stream without that header (recognised by its "
                + "magic bytes 1f 8b). No Content-Type is needed. A batch that came compressed is stored as the stream sent (`gzipped: true`).",
            access: .user, pathParameters: [itemID, eventID], query: [contentEncoding],
            body: ["required": true, "content": ["application/json": ["schema": S.array(S.ref("Reading")), "example": [reading]]]],
            [
                "201": ok("Stored.", S.object(["received": S.integer]), example: ["received": 1]),
                "400": error(
                    "validation_failed (1400): not a JSON array of readings, or a gzip stream that does not inflate.", .readingsNotAnArray,
                    .readingsNotGzip, .forCore(.unreadableRequest(.corruptContentEncoding))),
                "401": otherAccount, "404": noEvent, "413": tooLarge, "415": unsupportedEncoding,
            ])
        sdk(
            &document, "post", "/items/{itemId}/clips/sound/{sensorEventId}", "uploadSensorAudio", "Upload a sensor event's audio clip (raw bytes).",
            "The 2022 client percent-encodes the whole URL; a `?createdAt=` that arrives inside the last segment is read too.",
            access: .user, pathParameters: [itemID, eventID],
            query: [
                query(
                    "createdAt", ["type": "string", "pattern": .string("(?:" + WireFieldSchema.localTimestampPattern + ")|^$")],
                    "The sensor event's eventAt (device local time).", example: "2026-11-30 10:15:00.250")
            ],
            body: ["required": true, "content": ["application/octet-stream": ["schema": ["type": "string", "format": "binary", "minLength": 1], "example": "RIFF…"]]],
            [
                "201": ok("Stored.", S.object(["bytes": S.integer]), example: ["bytes": 48_000]),
                "400": error("validation_failed (1400): an empty clip or a bad createdAt.", .emptyAudioClip), "401": otherAccount, "404": noEvent,
                "413": tooLarge,
            ])
        sdk(
            &document, "post", "/items/{itemId}/diagnostics", "createItemDiagnosticReport", "Upload the diagnostic report.",
            "Every call gets a new id; a repeat of the same SHA-256 of the sorted JSON is marked sameHashAs for inspection.",
            access: .user, pathParameters: [itemID],
            body: body(
                "DiagnosticReport",
                example: [
                    "brand": "Apple", "resultCode": "P", "appVersion": "3.1.0", "osVersion": "17.5", "model": "iPhone 13",
                    "mpn": "iPhone14,5", "screenResolution": "390 x 844 pixels", "storage": 128, "storageUsed": 64, "ram": 6_000_000_000,
                ]),
            ["201": ok("The report's id.", S.object(["id": S.string]), example: ["id": "100567"]), "400": badField, "401": otherAccount, "404": noItem])
        sdk(
            &document, "post", "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", "uploadImageForItem", "Upload a diagnostic image (multipart part `image`).",
            "uploadImageForReference (`reference`), uploadImageForItem (`test`) and the front, back, open-face and receipt images; any slug is accepted.",
            access: .user,
            pathParameters: [
                itemID, segment("diagnosticId", "The diagnostic report's id.", example: "100567"),
                segment("kind", "The image kind, a slug.", example: "reference", schema: ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,40}$"]),
            ],
            body: [
                "required": true,
                "content": [
                    "multipart/form-data": [
                        "schema": ["type": "object", "required": ["image"], "properties": ["image": ["type": "string", "format": "binary", "minLength": 1]]],
                        "encoding": ["image": ["contentType": "image/jpg"]], "example": ["image": "<JPEG bytes>"],
                    ]
                ],
            ],
            [
                "201": ok(
                    "Stored.", S.object(["kind": S.string, "bytes": S.integer, "contentType": S.string, "sha256": S.string]),
                    example: ["kind": "reference", "bytes": 20_480, "contentType": "image/jpg", "sha256": "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"]),
                "400": error("validation_failed (1400): not multipart, no `image` part, an empty image or a bad kind.", .noImagePart), "401": otherAccount,
                "404": error("diagnostic_not_found (1702), or item_not_found (1301).", .diagnosticNotFound, .itemNotFound), "413": tooLarge,
            ])
    }

    /// Adds the optional Smart Saver routes (served only with `smartSaverRoutes` on): the SDK sends
    /// opt-ins in sensor events, so only these refuse an option the plan does not offer.
    private static func addSmartSaverRoutes(to document: inout OpenAPIDocument) {
        let programs: JSONValue = [
            "programs": [
                ["program": "SSR", "eligible": true, "optedIn": true, "optedInAt": "2026-11-30T10:00:00Z"],
                ["program": "SSD", "eligible": true, "optedIn": false, "optedInAt": nil],
                ["program": "TRADE_IN", "eligible": false, "optedIn": false, "optedInAt": nil],
            ]
        ]
        sdk(
            &document, "get", "/items/{itemId}/smart-saver", "getSmartSaver", "Smart Saver programs (optional route).", "Eligible when the active warranty offers the program.",
            access: .user, pathParameters: [itemID], ["200": ok("The programs.", S.ref("SmartSaver"), example: programs), "401": otherAccount, "404": noItem])
        sdk(
            &document, "post", "/items/{itemId}/smart-saver/opt-ins", "optInSmartSaver", "Opt in or out of a program (optional route).",
            "Opting into a program the active warranty does not offer (or with no active warranty) is 409 (1601), and nothing is recorded.",
            access: .user, pathParameters: [itemID],
            body: body("OptIn", example: ["program": "SSR", "optIn": true]),
            [
                "200": ok("The programs after the change.", S.ref("SmartSaver"), example: programs),
                "400": error("validation_failed (1400): an unknown program or a missing optIn.", .unknownProgram, .missingField("optIn")),
                "401": otherAccount, "404": noItem, "409": error("not_eligible (1601).", .notEligible("SSR")),
            ])
    }
}
