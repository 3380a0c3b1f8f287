import EmulatorCore
import Foundation

/// The WarrantyLife document's reusable schemas: responses exactly as on the wire, request
/// bodies as the server reads them (unknown members kept, so request objects stay open).
extension WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias W = WireFieldSchema

    /// A closed object whose members are all required except `optional`.
    private static func closed(_ properties: [String: JSONValue], optional: Set<String> = []) -> JSONValue { S.object(properties, optional: optional) }

    /// An open request object: only `required` must be there; other members are kept as sent.
    private static func input(_ properties: [String: JSONValue], required: Set<String> = []) -> JSONValue {
        S.object(properties, optional: Set(properties.keys).subtracting(required), open: true)
    }

    /// Every schema of the document.
    static func schemas() -> [String: JSONValue] {
        responseSchemas().merging(requestSchemas()) { first, _ in first }.merging(adminBodySchemas()) { first, _ in first }
    }

    /// Request bodies.
    static func requestSchemas() -> [String: JSONValue] {
        let profile = ["firstName", "lastName", "company", "streetAddress", "city", "zip", "countryCode", "stateCode", "phone"]
        var register: [String: JSONValue] = ["email": W.requiredText, "password": W.nonEmptyText, "country": W.int, "state": W.int]
        for name in profile { register[name] = W.text }
        var registerSchema = input(register, required: ["email", "password"])
        // The address must hold an `@` with something on both sides once trimmed.
        registerSchema = with(registerSchema, "allOf", [S.ref("Region"), ["properties": ["email": ["type": "string", "pattern": "^\\s*[^@\\s][\\s\\S]*@[\\s\\S]*[^@\\s]\\s*$"]]]])
        var warranty: [String: JSONValue] = [
            "country": W.int, "state": W.int, "dateOfPurchase": W.purchaseDate,
            "rewardAmount": ["type": ["number", "null"], "minimum": 0, "description": "At most the warranty's rewardAmountMax."],
        ]
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "phone", "voucherCode", "itemId", "deviceId", "imei", "diagnosticId"] {
            warranty[name] = W.text
        }
        for name in ["acceptedMarketing", "isDeviceInsured", "ssr", "ssd", "tradeIn"] { warranty[name] = W.flag }
        var warrantySchema = input(warranty)
        warrantySchema = with(warrantySchema, "allOf", [S.ref("Region")])
        var createFields = warranty
        createFields["voucherCode"] = W.requiredText
        let createWarranty = S.described(
            with(input(createFields, required: ["voucherCode"]), "allOf", [S.ref("Region")]),
            "`voucherCode` may be left out after a voucher lookup; the voucher looked up last is used then.")
        var sensorEvent: [String: JSONValue] = ["eventAt": W.localTimestamp, "sensorEventType": W.int, "volumeSetting": W.int, "latitude": W.number, "longitude": W.number]
        for name in ["sensorTestId", "dropJsVersion", "notificationToken", "deviceId", "platformVersion", "appVersion"] { sensorEvent[name] = W.text }
        var diagnostic: [String: JSONValue] = [:]
        for name in [
            "imei", "brand", "resultCode", "sim", "appVersion", "osVersion", "model", "mpn", "screenResolution", "sensorTestId",
            "sensorTestSensorEventId", "caseApplied", "caseBrand",
        ] { diagnostic[name] = W.text }
        for name in ["storage", "storageUsed", "ram"] { diagnostic[name] = W.number }
        for name in ["caseBundlePurchased", "bundledCaseApplied"] { diagnostic[name] = W.flag }
        var reading: [String: JSONValue] = ["readingAt": ["type": "string", "pattern": .string(W.localTimestampPattern)]]
        for name in WarrantyLifeService.numericReadingFields { reading[name] = W.number }
        return [
            "Region": S.described(W.region(), "country and state as /app-config ids (the default catalogue's here); state within country."),
            "Login": input(["username": W.nonEmptyText, "password": W.requiredText], required: ["username", "password"]),
            "LoginForm": input(["username": ["type": "string", "minLength": 1], "password": ["type": "string", "pattern": "\\S"]], required: ["username", "password"]),
            "Recover": input(["email": W.requiredText], required: ["email"]),
            "RegisterNewUser": registerSchema,
            "CreateItem": input(
                [
                    "deviceId": W.requiredText, "categoryId": W.text, "manufacturerName": W.text, "model": W.text, "mpn": W.text, "imei": W.text,
                    "notificationToken": W.text,
                ], required: ["deviceId"]),
            "SensorEvent": S.described(
                input(sensorEvent),
                "A sensor event; `ssr`/`ssd`/`tradeIn` booleans (top level or in `smartSaver`) opt in or out. Only `notificationToken` and no event fields: a token update."),
            "Reading": input(reading),
            "DiagnosticReport": input(diagnostic),
            "NotificationToken": input(["notificationToken": W.requiredText, "deviceId": W.text, "platform": W.text], required: ["notificationToken"]),
            "OptIn": input(["program": S.enumeration(["SSR", "SSD", "TRADE_IN"]), "optIn": W.requiredFlag], required: ["program", "optIn"]),
            "WarrantyRequest": warrantySchema,
            "CreateWarranty": createWarranty,
            "SurveyAnswers": input(["surveyVersion": W.requiredInt, "diagnosticId": W.text, "answers": S.array(W.surveyAnswer)], required: ["surveyVersion", "answers"]),
        ]
    }

    /// Response bodies.
    static func responseSchemas() -> [String: JSONValue] {
        let string = S.string, integer = S.integer, number = S.number, boolean = S.boolean
        let text = S.nullable(S.string)
        // InsightData is open at every level: seeds keep members the SDK model ignores, and are served as seeded.
        let seeded: ([String: JSONValue]) -> JSONValue = { S.object($0, open: true) }
        // What the SDK documents beyond the types: ranks 1–100, hours 0–23, `YYYY-MM-DD` days and `YYYY-MM` months.
        let rankValue: JSONValue = ["type": "integer", "minimum": 1, "maximum": 100]
        let hourValue: JSONValue = ["type": "integer", "minimum": 0, "maximum": 23]
        let day: JSONValue = ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"]
        let month: JSONValue = ["type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$"]
        let rank: (String) -> JSONValue = { key in seeded([key: key == "month" ? month : day, "rank": rankValue, "isProjected": boolean]) }
        let rankHistory = seeded([
            "hourly": S.array(seeded(["hour": hourValue, "date": day, "rank": rankValue, "isProjected": boolean])),
            "daily": S.array(rank("date")), "weekly": S.array(rank("startDate")), "monthly": S.array(rank("month")),
        ])
        let reward = seeded(["month": string, "amount": number])
        let tip: (String) -> JSONValue = { key in seeded([key: string, "percentage": number, "value": number]) }
        let nullableReward: JSONValue = ["oneOf": [reward, ["type": "null"]]]
        let programs = S.enumeration(["SSR", "SSD", "TRADE_IN"])
        var warranty: [String: JSONValue] = [
            "id": string, "encodedId": string, "status": S.enumeration(["PENDING_ACTIVATION", "ACTIVE", "EXPIRED", "CANCELLED", "TRANSFERRED"]),
            "hasActiveCoverage": boolean, "rewardAmount": S.nullable(number), "rewardAmountMax": S.nullable(number), "tradeInScore": S.nullable(number),
            "state": S.nullable(integer), "country": S.nullable(integer),
        ]
        for name in [
            "registrationCode", "warrantyUrl", "itemId", "deviceId", "voucherCode", "warrantyPlanId", "planName", "planCurrency", "rewardType",
            "dateOfPurchase", "coverageStartDate", "coverageEndDate", "waitingPeriodEndsAt", "firstName", "lastName", "company", "streetAddress",
            "city", "zip", "phone", "createdAt", "updatedAt", "userId",
        ] { warranty[name] = text }
        for name in ["ssrOffered", "ssdOffered", "tipOffered", "ssr", "ssd", "tradeIn", "isDeviceInsured", "acceptedMarketing"] { warranty[name] = boolean }
        let warrantyRequired: Set = [
            "id", "encodedId", "status", "hasActiveCoverage", "itemId", "ssrOffered", "ssdOffered", "tipOffered", "ssr", "ssd", "tradeIn",
            "coverageStartDate", "coverageEndDate", "rewardAmount", "rewardAmountMax", "planCurrency",
        ]
        var user: [String: JSONValue] = ["userId": string, "identity": string, "email": string, "country": S.nullable(integer), "state": S.nullable(integer)]
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "countryCode", "stateCode", "phone"] { user[name] = text }
        return [
            "Error": closed(["error": string, "errorMessage": text, "errorCode": integer]),
            "AdminError": closed(["error": closed(["code": string, "message": string, "details": S.any], optional: ["details"])]),
            "LoginResponse": closed(["token": string, "identity": string, "userId": string, "email": string]),
            "User": closed(user),
            "AdminUser": S.object(
                [
                    "userId": string, "identity": string, "email": string, "token": string, "activated": boolean, "authorization": string,
                    "createdAt": string,
                ], open: true),
            "AdminVoucher": S.object(
                [
                    "code": string, "status": S.enumeration(["unredeemed", "claimed", "redeemed"]), "claimedByUserId": text,
                    "originalDeviceId": text, "warrantyId": string, "createdAt": string, "updatedAt": string,
                ], open: true),
            "AdminItem": closed([
                "id": string, "deviceId": string, "userId": string, "categoryId": text, "manufacturerName": text, "model": text, "mpn": text,
                "imei": text, "notificationToken": text, "ssr": boolean, "ssd": boolean, "tradeIn": boolean, "createdAt": string, "updatedAt": string,
            ]),
            "DeveloperKey": closed([
                "key": string, "name": string, "environment": string, "state": S.enumeration(["valid", "revoked", "unavailable"]),
                "unavailableMode": S.enumeration(["status", "hang"]), "createdAt": string,
            ]),
            "AppConfig": closed([
                "countries": S.array(
                    closed([
                        "id": integer, "code": string, "name": string,
                        "provinces": S.array(closed(["id": integer, "code": string, "name": string])),
                    ]))
            ]),
            "SensorTest": S.object(
                [
                    "id": string, "name": string, "description": string,
                    "sensorTestPhases": S.array(
                        closed(
                            [
                                "id": string, "phase": integer, "durationMs": number, "argInt1": integer, "argInt2": integer,
                                "argInt3": integer,
                            ], optional: ["argInt1", "argInt2", "argInt3"])),
                ], open: true),
            "Voucher": closed([
                "voucherCode": string, "action": S.enumeration(VoucherAction.allCases.map(\.rawValue)),
                "registrationType": S.enumeration(RegistrationType.allCases.map(\.rawValue)),
                "isError": boolean, "lockedEmail": text, "warrantyId": string, "encodedWarrantyId": string,
                "isVoucherCorrect": boolean, "isVoucherConfirmed": boolean, "isTransferable": boolean, "isDeviceTransferable": boolean,
                "isDeviceTransferInProgress": boolean, "askIfDeviceIsInsured": boolean, "skipRegistrationForm": boolean,
                "registrationDeadlineDays": S.nullable(integer), "imeiLocked": text, "receiptRequired": boolean, "purchaseDateRequired": boolean,
                "countWarrantyOnCurrentDevice": integer,
                "originalDevice": ["oneOf": [closed(["deviceId": string, "model": text, "mpn": text]), ["type": "null"]]],
                "plan": closed(["warrantyPlanId": string, "planName": string, "currency": string, "rewardAmount": number, "rewardAmountMax": number, "rewardType": string]),
                "smartSaver": closed(["ssrOffered": boolean, "ssdOffered": boolean, "tipOffered": boolean]),
                "diagnosticRequirements": S.object(
                    [
                        "autoTestRequired": boolean, "sensorTestRequired": boolean, "frontCameraTestRequired": boolean,
                        "backCameraTestRequired": boolean, "openFaceTestRequired": boolean, "bluetoothScan": boolean, "wifiScan": boolean,
                        "recordAudio": boolean, "sensorTest": S.nullable(S.ref("SensorTest")),
                    ], open: true),
            ]),
            "DeviceDetail": closed([
                "deviceId": string, "itemId": string, "hasActiveCoverage": boolean, "warrantyId": text, "warrantyStatus": text,
                "ssrOffered": boolean, "ssdOffered": boolean, "tipOffered": boolean, "ssr": boolean, "ssd": boolean, "tradeIn": boolean,
            ]),
            "Item": closed([
                "id": string, "deviceId": string, "categoryId": text, "manufacturerName": text, "model": text, "mpn": text, "imei": text,
                "createdAt": string, "hasActiveCoverage": boolean, "warrantyIds": S.array(string),
            ]),
            "SmartSaver": closed(["programs": S.array(closed(["program": programs, "eligible": boolean, "optedIn": boolean, "optedInAt": text]))]),
            "Warranty": S.object(warranty, optional: Set(warranty.keys).subtracting(warrantyRequired)),
            "InsightData": seeded([
                "generatedAt": string, "timeZone": string, "dropRank": rankHistory, "batteryRank": rankHistory,
                "coaching": seeded(["generalHints": S.array(string), "batteryHints": S.array(string), "tipHints": S.array(string)]),
                "rewards": S.object(["current": nullableReward, "projected": nullableReward, "history": S.array(reward)], optional: ["current", "projected"], open: true),
                "tip": seeded(["current": tip("date"), "daily": S.array(tip("date")), "weekly": S.array(tip("startDate")), "monthly": S.array(tip("month"))]),
            ]),
            "Survey": closed([
                "surveyVersion": integer,
                "questions": S.array(
                    closed([
                        "id": integer, "name": string,
                        "surveyOptions": S.array(closed(["id": integer, "transDesc": string])),
                    ])),
            ]),
            "Offer": closed(
                [
                    "id": string, "type": S.enumeration(["SSR", "SSD", "TRADE_IN", "PARTNER"]), "title": string, "description": string, "html": string,
                    "expiresAt": string, "country": string, "state": string,
                ], optional: ["html", "country", "state"]),
        ]
    }
}
