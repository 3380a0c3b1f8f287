import EmulatorCore
import Foundation

/// The control plane's schemas: records as the routes render them and the strict request bodies.
extension AsleepOpenAPI {
    /// `values` or null (an enumeration that admits null must list it).
    static func enumerationOrNull(_ values: [JSONValue]) -> JSONValue { ["enum": .array(values + [.null])] }

    /// Any integer the server reads as a 64-bit `Int`.
    static let int64: JSONValue = ["type": "integer", "minimum": .int(Int64.min), "maximum": .int(Int64.max)]

    static var controlPlaneSchemas: [String: JSONValue] {
        let string = Schema.string, integer = Schema.integer, boolean = Schema.boolean, time = optionalTime
        let credentialStates = CredentialState.allCases.map { JSONValue.string($0.rawValue) }
        let peculiarities: [JSONValue] = [
            "IN_PROGRESS", "NEVER_SLEPT", "TOO_SHORT_FOR_ANALYSIS", "TOO_LONG_FOR_ANALYSIS",
            "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_BREATHING_STABILITY", "NO_REALTIME_POLLING",
        ]
        /// A closed body whose members are all optional and may be null (null means absent).
        func patch(_ properties: [String: JSONValue], required: Set<String> = []) -> JSONValue {
            Schema.object(properties, optional: Set(properties.keys).subtracting(required))
        }
        let nullableString = Schema.nullable(string), nullableBoolean = Schema.nullable(boolean)
        let integers = Schema.nullable(Schema.array(int64))
        let dateTime = Schema.nullable(Schema.dateTime)
        let positiveSeconds: JSONValue = ["type": ["number", "null"], "exclusiveMinimum": 0, "maximum": .double(AsleepSettings.maxTokenSeconds)]
        let atLeastOne: JSONValue = ["type": ["integer", "null"], "minimum": 1, "maximum": .int(Int64.max)]
        let settingsMembers: [String: JSONValue] = [
            "completionDelaySeconds": ["type": ["number", "null"], "minimum": 0, "exclusiveMaximum": 30],
            "maxSessionSeconds": ["type": ["number", "null"], "exclusiveMinimum": 0],
            "conflictMode": enumerationOrNull(["close", "reject"]),
            "terminateOnJoin": nullableBoolean,
            "tooShortChunks": atLeastOne, "realtimeChunks": atLeastOne, "inferenceIntervalChunks": atLeastOne,
            "breathing": nullableBoolean, "snoring": nullableBoolean, "strict": nullableBoolean,
            "closeEndedStatus": enumerationOrNull([403, 404]),
            "webhookKeys": enumerationOrNull(["event", "callback"]),
            "webhookMaxAttempts": Schema.described(
                ["type": ["integer", "null"], "minimum": 1, "maximum": 10],
                "Delivery attempts per webhook; 1 (the default) means no retries."),
            "webhookAllowedOrigins": Schema.described(
                [
                    "type": ["array", "null"], "maxItems": 100,
                    "items": ["type": "string", "pattern": .string(WebhookOrigin.pattern)],
                ],
                "Origins (`http://127.0.0.1:3000`) webhooks may reach on loopback or private addresses while the server listens beyond loopback."),
            "productValidationStatus": enumerationOrNull([400, 422]),
            "accessTokenSeconds": positiveSeconds, "refreshTokenSeconds": positiveSeconds,
            "sleepCycleTime": enumerationOrNull(["empty", "numbers", "strings"]),
            "validationErrorStyle": enumerationOrNull(["string", "list"]),
        ]
        let effective = settingsMembers.mapValues { member -> JSONValue in
            guard case .object(var members) = member else { return member }
            if case .array(let types)? = members["type"] { members["type"] = types.first ?? "string" }
            if case .array(let values)? = members["enum"] { members["enum"] = .array(values.filter { !$0.isNull }) }
            return .object(members)
        }
        // An OPEN session has no end time yet (JSON Schema's if/then, so generated bodies respect it).
        var sessionSeed = patch(
            [
                "sessionId": Schema.nullable(["type": "string", "minLength": 1]), "userId": string,
                "state": enumerationOrNull(["OPEN", "CLOSED", "COMPLETE"]),
                "startTime": dateTime, "endTime": dateTime, "completeTime": dateTime, "unexpected": nullableBoolean,
                "timezone": Schema.nullable(Schema.ref("ZoneName")), "service": nullableString,
                "inferenceType": enumerationOrNull(["MELSPECTROGRAM", "AUDIO"]), "callbackUrl": Schema.nullable(callbackURL),
                "chunks": ["type": ["integer", "null"], "minimum": 0, "maximum": 5760],
                "missingSeqNums": integers, "sleepStages": integers, "snoringStages": integers, "breathStages": integers,
                "peculiarities": Schema.nullable(Schema.array(["enum": .array(peculiarities)])),
                "stat": Schema.nullable(Schema.map(Schema.any)), "hold": nullableBoolean,
                "snoringDetected": integers, "breathDetected": integers,
            ], required: ["userId"])
        if case .object(var members) = sessionSeed {
            members["if"] = ["properties": ["state": ["const": "OPEN"]], "required": ["state"]]
            members["then"] = ["properties": ["endTime": ["type": "null"]]]
            members["description"] = "The user must exist; `endTime` must not be before `startTime`."
            sessionSeed = .object(members)
        }
        let callbackPatch: JSONValue = [
            "anyOf": [callbackURL, ["const": ""], ["type": "null"]],
            "description": "An absolute http(s) URL; empty removes the callback.",
        ]
        return [
            "AdminError": Schema.object(["error": Schema.object(["code": string, "message": string, "details": Schema.any], optional: ["details"])]),
            "ZoneName": Schema.enumeration(WireTime.zoneNames),
            "Settings": Schema.object(effective),
            "SettingsPatch": patch(settingsMembers),
            "Key": Schema.object([
                "apiKey": string, "customer": string, "state": Schema.enumeration(credentialStates.compactMap(\.stringValue)),
                "productBilling": boolean, "createdAt": string,
            ]),
            "KeyBody": patch([
                "apiKey": Schema.nullable(["type": "string", "minLength": 1]), "customer": nullableString,
                "state": enumerationOrNull(credentialStates), "productBilling": nullableBoolean,
            ]),
            "KeyPatch": patch(["customer": nullableString, "state": enumerationOrNull(credentialStates), "productBilling": nullableBoolean]),
            "App": Schema.object([
                "appId": string, "appSecret": string, "customer": string,
                "state": Schema.enumeration(credentialStates.compactMap(\.stringValue)), "productBilling": boolean, "createdAt": string,
            ]),
            "AppBody": patch([
                "appId": nullableString, "appSecret": nullableString, "customer": nullableString,
                "state": enumerationOrNull(credentialStates), "productBilling": nullableBoolean,
            ]),
            "ExpireBody": patch(["kind": enumerationOrNull(["access", "refresh", "all"])]),
            "AdminUser": Schema.object(["userId": string, "customer": string, "metadata": Schema.nullable(Schema.map(Schema.any)), "createdAt": string]),
            "UserBody": patch([
                "userId": Schema.nullable(["type": "string", "minLength": 1]), "apiKey": nullableString, "customer": nullableString,
                "metadata": Schema.nullable(Schema.ref("MetadataInput")),
            ]),
            "AdminProduct": Schema.object([
                "productId": string, "productKey": string, "customer": string, "model": string,
                "identifierType": Schema.enumeration(["SERIAL", "MAC_ADDRESS"]), "identifierValue": string,
                "revoked": boolean, "createdAt": string,
            ]),
            "ProductSeedBody": patch(
                [
                    "model": ["type": "string", "minLength": 1, "maxLength": 100],
                    "identifierType": enumerationOrNull(["SERIAL", "MAC_ADDRESS", "serial", "macAddress", "mac_address"]),
                    "identifierValue": ["type": "string", "minLength": 1, "maxLength": 255],
                    "apiKey": nullableString, "customer": nullableString, "productKey": nullableString,
                ], required: ["model", "identifierValue"]),
            "AdminSession": Schema.object([
                "sessionId": string, "userId": string, "customer": string, "state": sessionState, "startTime": string,
                "endTime": time, "unexpectedEndTime": time, "closedAt": time, "completeTime": time, "hold": boolean,
                "timezone": string, "service": string, "inferenceType": string, "callbackUrl": time,
                "productId": time, "lastReceivedSeqNum": Schema.nullable(integer), "receivedChunks": integer,
                "overrides": Schema.map(Schema.any),
            ]),
            "AdminChunk": Schema.object([
                "seqNum": integer, "size": integer, "receivedAt": string, "seeded": boolean,
                "sha256": Schema.described(
                    Schema.nullable(["type": "string", "pattern": "^[0-9a-f]{64}$"]),
                    "The SHA-256 of the chunk's bytes, lower-case hex; null for a seeded chunk."),
            ]),
            "SessionSeedBody": sessionSeed,
            "SessionPatch": patch([
                "callbackUrl": callbackPatch, "hold": nullableBoolean,
                "sleepStages": integers, "snoringStages": integers, "breathStages": integers,
                "peculiarities": Schema.nullable(Schema.array(string)), "stat": Schema.any,
                "snoringDetected": integers, "breathDetected": integers,
            ]),
            "EventBody": patch(
                ["event": Schema.enumeration(["INFERENCE_COMPLETE", "SESSION_COMPLETE"]), "callbackUrl": Schema.nullable(callbackURL)],
                required: ["event"]),
            "Delivery": Schema.object([
                "id": string, "outboxId": integer, "sessionId": string, "event": string, "url": string, "userId": string,
                "status": Schema.enumeration(["pending", "delivered", "failed", "refused"]), "attempts": integer,
                "maxAttempts": integer, "lastStatus": Schema.nullable(integer), "lastError": time,
                "body": Schema.map(Schema.any), "createdAt": string,
            ]),
        ]
    }
}
