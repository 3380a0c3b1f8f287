import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document for WarrantyLife's SDK routes (`/warrantylife/mapi/wi/100/…`; also
/// `/mapi/wi/100/…` on Host `www.warrantylife.com`) and its control-plane routes.
enum WarrantyLifeOpenAPI {
    // MARK: Schema helpers

    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static let number: JSONValue = ["type": "number"]
    static let boolean: JSONValue = ["type": "boolean"]
    static let anyValue: JSONValue = [:]
    static func nullable(_ type: String) -> JSONValue { ["type": [.string(type), "null"]] }
    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    static func enumeration(_ values: [String]) -> JSONValue { ["type": "string", "enum": .array(values.map(JSONValue.string))] }
    static func object(_ properties: [String: JSONValue], required: [String]? = nil, closed: Bool = true) -> JSONValue {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties),
                                           "required": .array((required ?? properties.keys.sorted()).map(JSONValue.string))]
        if closed { schema["additionalProperties"] = false }
        return .object(schema)
    }
    static func envelope(_ data: JSONValue) -> JSONValue { object(["data": data]) }
    static func oneOf(_ schemas: [JSONValue]) -> JSONValue { ["oneOf": .array(schemas)] }

    static func json(_ schema: JSONValue, _ description: String) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    /// One operation: success status and schema plus error statuses in WarrantyLife's (or the control plane's) envelope.
    static func operation(_ summary: String, _ status: Int, _ schema: JSONValue?, errors: [Int], admin: Bool = false,
                          requestBody: JSONValue? = nil, parameters: [JSONValue] = [], html: Bool = false) -> JSONValue {
        var responses: [String: JSONValue] = [:]
        if html {
            responses[String(status)] = ["description": "Raw HTML (not enveloped)", "content": ["text/html": ["schema": string]]]
        } else if let schema {
            responses[String(status)] = json(schema, summary)
        } else {
            responses[String(status)] = ["description": "No content"]
        }
        let errorSchema = admin ? ref("AdminError") : ref("Error")
        for code in errors { responses[String(code)] = json(errorSchema, "Error") }
        if !admin {
            for code in [401, 408, 429, 500, 502, 503, 504] where responses[String(code)] == nil { responses[String(code)] = json(errorSchema, "Error or injected fault") }
        }
        var op: [String: JSONValue] = ["summary": .string(summary), "responses": .object(responses)]
        if !parameters.isEmpty { op["parameters"] = .array(parameters) }
        if let requestBody { op["requestBody"] = requestBody }
        if !admin { op["security"] = summary.hasPrefix("[K]") ? [["developerKey": []]] : [["developerKey": [], "userBasic": []], ["developerKey": [], "userBearer": []]] }
        return .object(op)
    }

    static func query(_ name: String, required: Bool = false) -> JSONValue {
        ["name": .string(name), "in": "query", "required": .bool(required), "schema": string]
    }

    static func jsonBody(_ schema: JSONValue) -> JSONValue { ["required": true, "content": ["application/json": ["schema": schema]]] }

    // MARK: Document

    static let sdk = "/warrantylife/mapi/wi/100"
    static let admin = "/__admin/projects/{id}/warrantylife"

    static func document() -> JSONValue {
        var paths: [String: [String: JSONValue]] = [:]
        func add(_ method: String, _ path: String, _ op: JSONValue) { paths[path, default: [:]][method] = op }
        let loginBody: JSONValue = ["required": true, "content": [
            "application/x-www-form-urlencoded": ["schema": object(["username": string, "password": string], closed: false)],
            "application/json": ["schema": object(["username": string, "password": string], closed: false)]]]

        add("get", sdk + "/developer-keys/validate", operation("[K] Validate the developer key", 200, envelope(object(["name": string, "environment": string])), errors: [401, 503]))
        add("get", sdk + "/auth/activated-account-check", operation("[K] emailRegisteredCheck", 200, envelope(object(["email": string, "exists": boolean, "activated": boolean])),
                                                                    errors: [400], parameters: [query("email", required: true)]))
        add("post", sdk + "/auth/recover", operation("[K] recoverLostPassword", 202, envelope(object(["sent": boolean])), errors: [400], requestBody: jsonBody(object(["email": string], closed: false))))
        add("post", sdk + "/auth/token", operation("[K] getTokenViaUserPassword (login)", 202, envelope(ref("LoginResponse")), errors: [400, 403, 404], requestBody: loginBody))
        add("delete", sdk + "/auth/token", operation("Revoke the token (optional logout route)", 204, nil, errors: []))
        add("post", sdk + "/auth/user", operation("[K] registerNewUser", 201, envelope(ref("LoginResponse")), errors: [400, 409, 422], requestBody: jsonBody(ref("RegisterNewUser"))))
        add("get", sdk + "/whoami", operation("getMe", 200, envelope(ref("User")), errors: []))
        add("get", sdk + "/app-config", operation("[K] getAppConfig", 200, envelope(ref("AppConfig")), errors: []))
        add("get", sdk + "/vouchers/{code}", operation("[K] getVoucherByVoucherCode (user credentials used when present)", 200, envelope(ref("Voucher")), errors: [400, 403, 404, 410],
                                                       parameters: [["name": "code", "in": "path", "required": true, "schema": string], query("isPlanTransfer"), query("activeWarrantiesInCurrentDevice"), query("deviceId")]))
        add("get", sdk + "/devices", operation("[K] getItemByDeviceIdPublic", 200, envelope(ref("DeviceDetail")), errors: [400, 404], parameters: [query("deviceId", required: true)]))
        add("get", sdk + "/items", operation("getItemByDeviceID", 200, envelope(ref("Item")), errors: [400, 404], parameters: [query("deviceId", required: true)]))
        add("post", sdk + "/items", operation("Create item (200 when already owned)", 201, envelope(ref("Item")), errors: [400], requestBody: jsonBody(ref("CreateItem"))).merging(status: 200, envelope(ref("Item"))))
        add("put", sdk + "/items/{itemId}", operation("createSensorEvent (202) or token-only item update (200)", 202, envelope(object(["sensorEventId": string])), errors: [400, 404],
                                                      requestBody: jsonBody(ref("SensorEvent"))).merging(status: 200, envelope(object(["id": string]))))
        add("post", sdk + "/items/{itemId}/events", operation("createSensorEvent (alias)", 202, envelope(object(["sensorEventId": string])), errors: [400, 404], requestBody: jsonBody(ref("SensorEvent")))
            .merging(status: 200, envelope(object(["id": string]))))
        add("post", sdk + "/items/{itemId}/events/{sensorEventId}/readings", operation("uploadSensorReadings (gzip JSON array)", 201, envelope(object(["received": integer])), errors: [400, 404, 413],
                                                                                     requestBody: ["required": true, "content": ["application/json": ["schema": array(ref("Reading"))]]]))
        add("post", sdk + "/items/{itemId}/clips/sound/{sensorEventId}", operation("Sensor audio (raw bytes)", 201, envelope(object(["bytes": integer])), errors: [400, 404, 413], parameters: [query("createdAt")]))
        add("post", sdk + "/items/{itemId}/diagnostics", operation("createItemDiagnosticReport", 201, envelope(object(["id": string])), errors: [400, 404], requestBody: jsonBody(["type": "object"])))
        add("post", sdk + "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", operation("uploadImageForItem / uploadImageForReference / receipt (multipart `image`)", 201,
                                                                                             envelope(object(["kind": string, "bytes": integer, "contentType": string, "sha256": string])), errors: [400, 404, 413]))
        add("put", sdk + "/items/{itemId}/notification-token", operation("updateFCMToken", 200, envelope(object(["itemId": string, "notificationToken": string, "updatedAt": string])), errors: [400, 404],
                                                                         requestBody: jsonBody(object(["notificationToken": string, "deviceId": string, "platform": string], required: ["notificationToken"], closed: false))))
        add("get", sdk + "/items/{itemId}/smart-saver", operation("Smart Saver programs (optional route)", 200, envelope(ref("SmartSaver")), errors: [404]))
        add("post", sdk + "/items/{itemId}/smart-saver/opt-ins", operation("Smart Saver opt-in (optional route)", 200, envelope(ref("SmartSaver")), errors: [400, 404, 409],
                                                                           requestBody: jsonBody(object(["program": enumeration(["SSR", "SSD", "TRADE_IN"]), "optIn": boolean]))))
        for path in ["/insights", "/items/{itemId}/insights", "/devices/{deviceId}/insights"] {
            add("get", sdk + path, operation("getInsightData", 200, envelope(oneOf([ref("InsightData"), ["type": "null"]])), errors: [400, 404],
                                             parameters: path == "/insights" ? [query("deviceId", required: true)] : []))
        }
        add("get", sdk + "/warranties", operation("getAllWarranties", 200, envelope(array(ref("Warranty"))), errors: []))
        add("post", sdk + "/warranties", operation("createWarranty", 201, envelope(ref("Warranty")), errors: [400, 403, 404, 409], requestBody: jsonBody(ref("WarrantyRequest"))))
        add("get", sdk + "/warranties/{id}", operation("getWarrantyById", 200, envelope(ref("Warranty")), errors: [404]))
        add("put", sdk + "/warranties/{id}", operation("updateWarranty (transfer/update path)", 200, envelope(ref("Warranty")), errors: [400, 404], requestBody: jsonBody(ref("WarrantyRequest"))))
        add("patch", sdk + "/warranties/{id}", operation("updateWarrantyById (rewardAmount)", 200, envelope(ref("Warranty")), errors: [400, 404], requestBody: jsonBody(ref("WarrantyRequest"))))
        add("post", sdk + "/surveys", operation("postSurvey", 201, envelope(object(["id": string])), errors: [400], requestBody: jsonBody(["type": "object"])))
        add("get", sdk + "/surveys", operation("Survey questions", 200, envelope(ref("Survey")), errors: [400, 404], parameters: [query("surveyVersion")]))
        add("get", sdk + "/offers/registration", operation("fetchOffers", 200, nil, errors: [], parameters: ["simplify", "city", "country", "state", "zip"].map { query($0) }, html: true))
        add("get", sdk + "/offers/reward-screen", operation("Reward screen HTML", 200, nil, errors: [], parameters: ["simplify", "city", "country", "state", "zip"].map { query($0) }, html: true))
        add("get", sdk + "/offers", operation("Offers (JSON)", 200, envelope(array(ref("Offer"))), errors: [], parameters: [query("country"), query("state")]))
        add("post", sdk + "/feedback", operation("postFeedback", 201, envelope(object(["id": string])), errors: [400], requestBody: jsonBody(["type": "object"])))
        add("get", sdk + "/sensor-tests", operation("Sensor tests", 200, envelope(array(ref("SensorTest"))), errors: []))
        add("get", sdk + "/diagnostic-config", operation("Diagnostic configuration by model", 200, envelope(object(["model": string, "diagnosticRequirements": ["type": "object"]])),
                                                         errors: [400, 404], parameters: [query("model", required: true)]))

        // Control plane.
        func list(_ key: String, _ item: JSONValue) -> JSONValue { object([key: array(item)]) }
        let open: JSONValue = ["type": "object"]
        add("get", admin + "/developer-keys", operation("List developer keys", 200, list("developerKeys", ref("DeveloperKey")), errors: [404], admin: true))
        add("post", admin + "/developer-keys", operation("Create a developer key (state valid|revoked|unavailable)", 201, ref("DeveloperKey"), errors: [400, 404, 409], admin: true, requestBody: jsonBody(open)))
        add("patch", admin + "/developer-keys/{key}", operation("Change a key's state, name, environment", 200, ref("DeveloperKey"), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("get", admin + "/users", operation("List users", 200, list("users", ref("AdminUser")), errors: [404], admin: true))
        add("post", admin + "/users", operation("Create a user", 201, ref("AdminUser"), errors: [400, 404, 409], admin: true, requestBody: jsonBody(open)))
        add("patch", admin + "/users/{userId}", operation("Activate, set password, revoke token", 200, ref("AdminUser"), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("get", admin + "/vouchers", operation("List vouchers", 200, list("vouchers", ref("AdminVoucher")), errors: [404], admin: true))
        add("post", admin + "/vouchers", operation("Create or replace a voucher", 201, ref("AdminVoucher"), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("get", admin + "/vouchers/{code}", operation("A voucher's state", 200, ref("AdminVoucher"), errors: [404], admin: true))
        add("get", admin + "/voucher-actions", operation("The action a lookup of each voucher would get now (nothing is recorded)", 200,
                                                         list("voucherActions", object(["code": string, "action": nullable("string"), "isError": boolean, "error": nullable("string"), "status": integer],
                                                                                        required: ["code", "action", "isError", "error"])),
                                                         errors: [400, 404], admin: true, parameters: [query("deviceId"), query("userId"), query("isPlanTransfer")]))
        add("get", admin + "/items", operation("List items", 200, list("items", ref("AdminItem")), errors: [404], admin: true))
        add("post", admin + "/items", operation("Create an item (any owner, including another account)", 201, ref("AdminItem"), errors: [400, 404, 409], admin: true, requestBody: jsonBody(open)))
        add("delete", admin + "/items/{itemId}", operation("Delete an item", 204, nil, errors: [404], admin: true))
        add("get", admin + "/warranties", operation("List warranties", 200, list("warranties", ref("Warranty")), errors: [404], admin: true))
        add("post", admin + "/warranties", operation("Create a warranty", 201, ref("Warranty"), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("patch", admin + "/warranties/{warrantyId}", operation("Change a warranty", 200, ref("Warranty"), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("put", admin + "/items/{itemId}/insights", operation("Seed InsightData (or null)", 200, object(["itemId": string, "insight": oneOf([ref("InsightData"), ["type": "null"]])]),
                                                                 errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("post", admin + "/items/{itemId}/insights/generate", operation("Generate InsightData in a time zone", 201, object(["itemId": string, "insight": ref("InsightData")]),
                                                                           errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        add("get", admin + "/content/{name}", operation("Read content", 200, object(["name": string, "value": anyValue]), errors: [404], admin: true))
        add("put", admin + "/content/{name}", operation("Replace content", 200, object(["name": string, "value": anyValue]), errors: [400, 404], admin: true, requestBody: jsonBody(open)))
        let n = nullable
        let rows: [(String, String, JSONValue)] = [
            ("sensor-events", "sensorEvents", object(["id": string, "itemId": string, "eventAt": n("string"), "sensorEventType": n("integer"), "body": open,
                                                      "duplicateOf": n("string"), "createdAt": string])),
            ("readings", "readings", object(["id": string, "itemId": string, "sensorEventId": string, "count": integer, "gzipped": boolean,
                                             "readings": array(open), "createdAt": string])),
            ("audio-clips", "audioClips", object(["id": string, "itemId": string, "sensorEventId": string, "recordedAt": n("string"), "contentType": n("string"),
                                                  "bytes": integer, "sha256": string, "createdAt": string])),
            ("diagnostics", "diagnostics", object(["id": string, "itemId": string, "body": open, "requestHash": string, "sameHashAs": n("string"), "createdAt": string])),
            ("images", "images", object(["id": string, "itemId": string, "diagnosticId": string, "kind": string, "filename": n("string"), "contentType": string,
                                         "bytes": integer, "sha256": string, "duplicate": boolean, "createdAt": string])),
            ("fcm-tokens", "fcmTokens", object(["id": string, "itemId": string, "token": string, "source": string, "createdAt": string])),
            ("opt-ins", "optIns", object(["id": string, "itemId": string, "program": enumeration(["SSR", "SSD", "TRADE_IN"]), "optedIn": boolean,
                                          "sensorEventId": n("string"), "createdAt": string])),
            ("submissions", "submissions", object(["id": string, "kind": enumeration(["survey", "feedback"]), "userId": n("string"), "body": open, "createdAt": string])),
            ("voucher-lookups", "voucherLookups", object(["id": integer, "code": string, "deviceId": n("string"), "userId": n("string"), "action": string,
                                                          "registrationType": string, "createdAt": string])),
        ]
        for (path, key, row) in rows {
            add("get", admin + "/" + path, operation("Inspect \(key)", 200, list(key, row), errors: [404], admin: true, parameters: [query("itemId")]))
        }
        add("post", admin + "/items/{itemId}/silent-push", operation("Record a silent push for the item's FCM token", 201, object(["messageId": integer, "payload": anyValue]),
                                                                     errors: [400, 404, 409], admin: true, requestBody: jsonBody(open)))

        return [
            "openapi": "3.1.0",
            "info": ["title": "WarrantyLife (Understudy)", "version": "1.0.0",
                     "description": "WarrantyLife mobile API as the WLSDKIOS SDK uses it, plus Understudy's control plane for it. Errors are {error, errorMessage, errorCode}."],
            "paths": .object(paths.mapValues { JSONValue.object($0) }),
            "components": ["schemas": schemas(), "securitySchemes": [
                "developerKey": ["type": "apiKey", "in": "header", "name": "X-WL-Developer-Key"],
                "userBasic": ["type": "http", "scheme": "basic", "description": "base64(identity:token) from login"],
                "userBearer": ["type": "http", "scheme": "bearer"],
            ]],
        ]
    }

    static func schemas() -> JSONValue {
        let rank: (String) -> JSONValue = { key in object([key: key == "hour" ? integer : string, "rank": integer, "isProjected": boolean]) }
        let rankHistory = object([
            "hourly": array(object(["hour": integer, "date": string, "rank": integer, "isProjected": boolean])),
            "daily": array(rank("date")), "weekly": array(rank("startDate")), "monthly": array(rank("month")),
        ])
        let reward = object(["month": string, "amount": number])
        let tip: (String) -> JSONValue = { key in object([key: string, "percentage": number, "value": number]) }
        let nullableReward: JSONValue = oneOf([reward, ["type": "null"]])
        return [
            "Error": object(["error": string, "errorMessage": nullable("string"), "errorCode": integer]),
            "AdminError": object(["error": object(["code": string, "message": string, "details": anyValue], required: ["code", "message"])]),
            "LoginResponse": object(["token": string, "identity": string, "userId": string, "email": string]),
            "RegisterNewUser": object(["email": string, "password": string, "firstName": string, "lastName": string, "company": string, "streetAddress": string,
                                       "country": integer, "countryCode": string, "city": string, "zip": string, "state": integer, "stateCode": string, "phone": string],
                                      required: ["email"], closed: false),
            "User": object(["userId": string, "identity": string, "email": string, "firstName": nullable("string"), "lastName": nullable("string"), "company": nullable("string"),
                            "streetAddress": nullable("string"), "city": nullable("string"), "zip": nullable("string"), "country": nullable("integer"),
                            "countryCode": nullable("string"), "state": nullable("integer"), "stateCode": nullable("string"), "phone": nullable("string")]),
            "AdminUser": object(["userId": string, "identity": string, "email": string, "token": string, "activated": boolean, "authorization": string, "createdAt": string],
                                required: ["userId", "identity", "email", "token", "activated", "authorization", "createdAt"], closed: false),
            "AdminVoucher": object(["code": string, "status": enumeration(["unredeemed", "claimed", "redeemed"]), "claimedByUserId": nullable("string"),
                                    "originalDeviceId": nullable("string"), "warrantyId": string, "createdAt": string, "updatedAt": string],
                                   required: ["code", "status", "claimedByUserId", "originalDeviceId", "warrantyId", "createdAt", "updatedAt"], closed: false),
            "AdminItem": object(["id": string, "deviceId": string, "userId": string, "categoryId": nullable("string"), "manufacturerName": nullable("string"),
                                 "model": nullable("string"), "mpn": nullable("string"), "imei": nullable("string"), "notificationToken": nullable("string"),
                                 "ssr": boolean, "ssd": boolean, "tradeIn": boolean, "createdAt": string, "updatedAt": string]),
            "DeveloperKey": object(["key": string, "name": string, "environment": string, "state": enumeration(["valid", "revoked", "unavailable"]),
                                    "unavailableMode": enumeration(["status", "hang"]), "createdAt": string]),
            "AppConfig": object(["countries": array(object(["id": integer, "code": string, "name": string,
                                                            "provinces": array(object(["id": integer, "code": string, "name": string]))]))]),
            "SensorTest": object(["id": string, "name": string, "description": string,
                                  "sensorTestPhases": array(object(["id": string, "phase": integer, "durationMs": number, "argInt1": integer, "argInt2": integer, "argInt3": integer],
                                                                   required: ["id", "phase", "durationMs"]))], closed: false),
            "Voucher": object([
                "voucherCode": string, "action": enumeration(["normalRegistration", "deviceTransferablePopup", "deviceNonTransferablePopup", "userNotLoggedInClaimed",
                                                             "differentEmailClaimed", "activeWarrantyConflict", "warrantyNotTransferable", "startWarrantyTransfer"]),
                "registrationType": enumeration(["normalRegistration", "passwordlessRegistration", "lockedEmailRegistration"]),
                "isError": boolean, "lockedEmail": nullable("string"), "warrantyId": string, "encodedWarrantyId": string,
                "isVoucherCorrect": boolean, "isVoucherConfirmed": boolean, "isTransferable": boolean, "isDeviceTransferable": boolean,
                "isDeviceTransferInProgress": boolean, "askIfDeviceIsInsured": boolean, "skipRegistrationForm": boolean,
                "registrationDeadlineDays": nullable("integer"), "imeiLocked": nullable("string"), "receiptRequired": boolean, "purchaseDateRequired": boolean,
                "countWarrantyOnCurrentDevice": integer,
                "originalDevice": oneOf([object(["deviceId": string, "model": nullable("string"), "mpn": nullable("string")]), ["type": "null"]]),
                "plan": object(["warrantyPlanId": string, "planName": string, "currency": string, "rewardAmount": number, "rewardAmountMax": number, "rewardType": string]),
                "smartSaver": object(["ssrOffered": boolean, "ssdOffered": boolean, "tipOffered": boolean]),
                "diagnosticRequirements": object(["autoTestRequired": boolean, "sensorTestRequired": boolean, "frontCameraTestRequired": boolean,
                                                  "backCameraTestRequired": boolean, "openFaceTestRequired": boolean, "bluetoothScan": boolean, "wifiScan": boolean,
                                                  "recordAudio": boolean, "sensorTest": ref("SensorTest")], closed: false),
            ]),
            "DeviceDetail": object(["deviceId": string, "itemId": string, "hasActiveCoverage": boolean, "warrantyId": nullable("string"), "warrantyStatus": nullable("string"),
                                    "ssrOffered": boolean, "ssdOffered": boolean, "tipOffered": boolean, "ssr": boolean, "ssd": boolean, "tradeIn": boolean]),
            "Item": object(["id": string, "deviceId": string, "categoryId": nullable("string"), "manufacturerName": nullable("string"), "model": nullable("string"),
                            "mpn": nullable("string"), "imei": nullable("string"), "createdAt": string, "hasActiveCoverage": boolean, "warrantyIds": array(string)]),
            "CreateItem": object(["deviceId": string, "categoryId": string, "manufacturerName": string, "model": string, "mpn": string, "imei": string], required: ["deviceId"], closed: false),
            "SensorEvent": object(["eventAt": string, "sensorEventType": integer, "volumeSetting": integer, "sensorTestId": string, "dropJsVersion": string,
                                   "notificationToken": string, "deviceId": string, "platformVersion": string, "appVersion": string, "latitude": number, "longitude": number],
                                  required: [], closed: false),
            "Reading": object(["readingAt": string, "accelerationX": number, "accelerationY": number, "accelerationZ": number, "phase": integer], required: [], closed: false),
            "SmartSaver": object(["programs": array(object(["program": enumeration(["SSR", "SSD", "TRADE_IN"]), "eligible": boolean, "optedIn": boolean, "optedInAt": nullable("string")]))]),
            "WarrantyRequest": object(["firstName": string, "lastName": string, "company": string, "streetAddress": string, "city": string, "zip": string, "state": integer,
                                       "country": integer, "phone": string, "dateOfPurchase": string, "acceptedMarketing": boolean, "isDeviceInsured": boolean,
                                       "voucherCode": string, "itemId": string, "deviceId": string, "imei": string, "diagnosticId": string, "ssr": boolean, "ssd": boolean,
                                       "tradeIn": boolean, "rewardAmount": number], required: [], closed: false),
            "Warranty": object([
                "id": string, "encodedId": string, "registrationCode": nullable("string"), "warrantyUrl": nullable("string"),
                "status": enumeration(["PENDING_ACTIVATION", "ACTIVE", "EXPIRED", "CANCELLED", "TRANSFERRED"]), "hasActiveCoverage": boolean,
                "itemId": nullable("string"), "deviceId": nullable("string"), "voucherCode": nullable("string"), "warrantyPlanId": nullable("string"), "planName": nullable("string"),
                "planCurrency": nullable("string"), "rewardAmount": nullable("number"), "rewardAmountMax": nullable("number"), "rewardType": nullable("string"),
                "tradeInScore": nullable("number"), "ssrOffered": boolean, "ssdOffered": boolean, "tipOffered": boolean, "ssr": boolean, "ssd": boolean, "tradeIn": boolean,
                "dateOfPurchase": nullable("string"), "coverageStartDate": nullable("string"), "coverageEndDate": nullable("string"), "waitingPeriodEndsAt": nullable("string"),
                "isDeviceInsured": boolean, "acceptedMarketing": boolean, "firstName": nullable("string"), "lastName": nullable("string"), "company": nullable("string"),
                "streetAddress": nullable("string"), "city": nullable("string"), "zip": nullable("string"), "state": nullable("integer"), "country": nullable("integer"),
                "phone": nullable("string"), "createdAt": nullable("string"), "updatedAt": nullable("string"), "userId": nullable("string"),
            ], required: ["id", "encodedId", "status", "hasActiveCoverage", "itemId", "ssrOffered", "ssdOffered", "tipOffered", "ssr", "ssd", "tradeIn",
                          "coverageStartDate", "coverageEndDate", "rewardAmount", "rewardAmountMax", "planCurrency"]),
            "InsightData": object([
                "generatedAt": string, "timeZone": string, "dropRank": rankHistory, "batteryRank": rankHistory,
                "coaching": object(["generalHints": array(string), "batteryHints": array(string), "tipHints": array(string)]),
                "rewards": object(["current": nullableReward, "projected": nullableReward, "history": array(reward)]),
                "tip": object(["current": tip("date"), "daily": array(tip("date")), "weekly": array(tip("startDate")), "monthly": array(tip("month"))]),
            ]),
            "Survey": object(["surveyVersion": integer, "questions": array(object(["id": integer, "name": string, "surveyOptions": array(object(["id": integer, "transDesc": string]))]))]),
            "Offer": object(["id": string, "type": enumeration(["SSR", "SSD", "TRADE_IN", "PARTNER"]), "title": string, "description": string, "html": string, "expiresAt": string,
                             "country": string, "state": string], required: ["id", "type", "title", "description", "expiresAt"]),
        ]
    }
}

extension JSONValue {
    /// The operation with one more documented success response (routes with two success statuses).
    func merging(status: Int, _ schema: JSONValue) -> JSONValue {
        guard case .object(var op) = self, case .object(var responses)? = op["responses"] else { return self }
        responses[String(status)] = WarrantyLifeOpenAPI.json(schema, "Success")
        op["responses"] = .object(responses)
        return .object(op)
    }
}
