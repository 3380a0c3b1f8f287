import EmulatorCore
import Foundation

/// The document's reusable schemas: the SDK wire shapes (snake_case) and the control plane's
/// records (camelCase). Request schemas state exactly what the server enforces, so generated
/// valid data is accepted and generated invalid data is refused.
extension AsleepOpenAPI {
    typealias Schema = OpenAPISchema

    /// Every named schema.
    static var schemas: [String: JSONValue] {
        responseSchemas.merging(requestSchemas) { first, _ in first }.merging(controlPlaneSchemas) { first, _ in first }
    }

    /// The report states.
    static let sessionState = Schema.enumeration(["OPEN", "CLOSED", "COMPLETE"])
    /// A timestamp or null.
    static let optionalTime = Schema.nullable(Schema.string)

    /// Every zone name the `timezone` header, query parameter and body member accept; empty means UTC.
    static let timeZoneName: JSONValue = [
        "anyOf": [["const": ""], Schema.ref("ZoneName")],
        "description": "An IANA time-zone name; empty or absent means UTC.",
    ]

    /// A callback URL as the server accepts it: absolute, http or https, with a host.
    static let callbackURL: JSONValue = [
        "type": "string", "pattern": .string(AsleepService.callbackURLPattern),
        "description": "An absolute http(s) URL with a host.",
    ]

    static var responseSchemas: [String: JSONValue] {
        let metadata = Schema.object(
            [
                "birth_year": Schema.nullable(Schema.integer), "birth_month": Schema.nullable(Schema.integer),
                "birth_day": Schema.nullable(Schema.integer), "gender": Schema.nullable(Schema.string),
                "height": Schema.nullable(Schema.number), "weight": Schema.nullable(Schema.number),
            ],
            optional: ["birth_year", "birth_month", "birth_day", "gender", "height", "weight"])
        let statIntegers = [
            "sleep_index", "sleep_latency", "wakeup_latency", "light_latency", "deep_latency", "rem_latency", "time_in_bed",
            "time_in_sleep_period", "time_in_sleep", "time_in_wake", "time_in_light", "time_in_deep", "time_in_rem",
            "time_in_stable_breath", "time_in_unstable_breath", "time_in_snoring", "time_in_no_snoring", "waso_count",
            "longest_waso", "sleep_cycle_count", "sleep_cycle", "snoring_count", "unstable_breath_count",
        ]
        let statNumbers = [
            "sleep_efficiency", "sleep_ratio", "wake_ratio", "light_ratio", "deep_ratio", "rem_ratio", "stable_breath_ratio",
            "unstable_breath_ratio", "snoring_ratio", "no_snoring_ratio", "breathing_index",
        ]
        var stat: [String: JSONValue] = [
            "sleep_time": optionalTime, "wake_time": optionalTime, "breathing_pattern": optionalTime,
            "sleep_cycle_time": Schema.array(["type": ["integer", "string"]]),
        ]
        for name in statIntegers { stat[name] = Schema.nullable(Schema.integer) }
        for name in statNumbers { stat[name] = Schema.nullable(Schema.number) }
        let stages = Schema.nullable(Schema.array(Schema.integer))
        let peculiarity = Schema.enumeration([
            "IN_PROGRESS", "NEVER_SLEPT", "TOO_SHORT_FOR_ANALYSIS", "TOO_LONG_FOR_ANALYSIS",
            "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_BREATHING_STABILITY", "NO_REALTIME_POLLING",
        ])
        let listItem = Schema.object(["loc": Schema.array(["type": ["string", "integer"]]), "msg": Schema.string, "type": Schema.string])
        return [
            "Error": Schema.object(["detail": ["oneOf": [Schema.string, Schema.array(listItem)]]]),
            "Metadata": metadata,
            "UserCreated": Schema.object(["user_id": Schema.string]),
            "LastSessionInfo": Schema.object([
                "session_id": Schema.string, "inference_type": Schema.string, "service": Schema.string,
                "start_time": Schema.string, "end_time": optionalTime, "state": sessionState,
                "complete_time": optionalTime,
            ]),
            "User": Schema.object([
                "user_id": Schema.string, "to_be_deleted": Schema.boolean,
                "last_session_info": Schema.nullable(Schema.ref("LastSessionInfo")),
                "metadata": Schema.nullable(Schema.ref("Metadata")),
            ]),
            "UserUpdated": Schema.object(["user_id": Schema.string, "metadata": Schema.nullable(Schema.ref("Metadata"))]),
            "Product": Schema.object(["product_id": Schema.string, "product_key": Schema.string, "created": Schema.boolean]),
            "SessionCreated": Schema.object(["session_id": Schema.string]),
            "UploadResult": Schema.object([
                "session_id": Schema.string, "seq_num": Schema.integer, "snoring_detected": Schema.boolean,
                "breath_detected": Schema.boolean,
            ]),
            "CloseResult": Schema.object(["session_id": Schema.string, "state": ["const": "CLOSED"]]),
            "Stat": Schema.object(stat),
            "ReportSession": Schema.object([
                "id": Schema.string, "state": sessionState, "start_time": Schema.string, "end_time": optionalTime,
                "unexpected_end_time": optionalTime, "created_timezone": Schema.string, "sleep_stages": stages,
                "snoring_stages": stages, "breath_stages": stages,
            ]),
            "Report": Schema.object([
                "timezone": Schema.string, "peculiarities": Schema.array(peculiarity),
                "missing_data_ratio": Schema.described(Schema.number, "Always printed with a fraction (`0.0`)."),
                "session": Schema.ref("ReportSession"), "stat": Schema.nullable(Schema.ref("Stat")),
            ]),
            "SleepSession": Schema.object([
                "session_id": Schema.string, "state": sessionState, "session_start_time": Schema.string,
                "session_end_time": optionalTime, "created_timezone": Schema.string,
                "unexpected_end_time": optionalTime, "last_received_seq_num": Schema.nullable(Schema.integer),
                "time_in_bed": Schema.integer,
            ]),
            "SessionList": Schema.object(["timezone": Schema.string, "sleep_session_list": Schema.array(Schema.ref("SleepSession"))]),
            "AverageReport": Schema.object([
                "period": Schema.object(["timezone": Schema.string, "start_date": Schema.string, "end_date": Schema.string]),
                "peculiarities": Schema.array(peculiarity), "average_stats": Schema.nullable(Schema.map(Schema.any)),
                "never_slept_sessions": Schema.array(
                    Schema.object([
                        "id": Schema.string, "start_time": Schema.string, "end_time": optionalTime,
                        "completed_time": optionalTime,
                    ])),
                "slept_sessions": Schema.array(["type": "object", "required": ["id", "start_time", "sleep_time", "wake_time"]]),
            ]),
            "Tokens": Schema.object(["access_token": Schema.string, "refresh_token": Schema.string, "expires_in": Schema.integer]),
            "TimeZoneName": timeZoneName,
        ]
    }

    /// Request bodies of the SDK routes. Members the server ignores are allowed (`open`), as the
    /// real service ignores them; `null` members count as absent where the server reads them so.
    static var requestSchemas: [String: JSONValue] {
        let year = WireTime.year(Date())
        func range(_ schema: JSONValue, _ minimum: JSONValue, _ maximum: JSONValue, multipleOf: JSONValue? = nil) -> JSONValue {
            guard case .object(var members) = schema else { return schema }
            members["minimum"] = minimum
            members["maximum"] = maximum
            if let multipleOf { members["multipleOf"] = multipleOf }
            return .object(members)
        }
        // A birth day must exist in its month (and February 29 in its year): JSON Schema says so with if/then.
        let shortMonths: JSONValue = [
            "if": ["properties": ["birth_month": ["enum": [4, 6, 9, 11]]], "required": ["birth_month"]],
            "then": ["properties": ["birth_day": ["type": ["integer", "null"], "maximum": 30]]],
        ]
        let february: JSONValue = [
            "if": ["properties": ["birth_month": ["const": 2]], "required": ["birth_month"]],
            "then": ["properties": ["birth_day": ["type": ["integer", "null"], "maximum": 29]]],
        ]
        let leap: JSONValue = ["anyOf": [["multipleOf": 400], ["allOf": [["multipleOf": 4], ["not": ["multipleOf": 100]]]]]]
        let leapDay: JSONValue = [
            "if": [
                "properties": ["birth_month": ["const": 2], "birth_day": ["const": 29], "birth_year": ["type": "integer"]],
                "required": ["birth_month", "birth_day", "birth_year"],
            ],
            "then": ["properties": ["birth_year": leap]],
        ]
        var metadata = Schema.object(
            [
                "birth_year": range(Schema.nullable(Schema.integer), 1900, .int(Int64(year))),
                "birth_month": range(Schema.nullable(Schema.integer), 1, 12),
                "birth_day": range(Schema.nullable(Schema.integer), 1, 31),
                "gender": enumerationOrNull(["male", "female", "non_binary", "other", "prefer_not_to_say"]),
                "height": Schema.described(range(Schema.nullable(Schema.number), 0, 300, multipleOf: 0.1), "Centimetres, at most one decimal place."),
                "weight": Schema.described(range(Schema.nullable(Schema.number), 0, 1000, multipleOf: 0.1), "Kilograms, at most one decimal place."),
            ], optional: ["birth_year", "birth_month", "birth_day", "gender", "height", "weight"], open: true)
        if case .object(var members) = metadata {
            members["allOf"] = [shortMonths, february, leapDay]
            members["description"] = "Every member optional; unknown members are ignored. The year runs from 1900 to the current year."
            metadata = .object(members)
        }
        let identifierType = Schema.enumeration(["SERIAL", "MAC_ADDRESS", "serial", "macAddress", "mac_address"])
        let inferenceType = enumerationOrNull(["MELSPECTROGRAM", "AUDIO", "melspectrogram", "audio"])
        let nullableString = Schema.nullable(Schema.string)
        let unexpected: JSONValue = [
            "oneOf": [Schema.boolean, ["enum": [0, 1]], ["type": "null"]],
            "description": "1 or true when the session did not end normally.",
        ]
        return [
            "MetadataInput": metadata,
            "CreateUserBody": Schema.object(["metadata": Schema.nullable(Schema.ref("MetadataInput"))], optional: ["metadata"], open: true),
            "UpdateUserBody": Schema.object(["metadata": Schema.ref("MetadataInput")], open: true),
            "ProductBody": Schema.object(
                [
                    "model": ["type": "string", "minLength": 1, "maxLength": 100],
                    "identifier_type": Schema.described(identifierType, "Also read as `identifierType`."),
                    "identifier_value": Schema.described(["type": "string", "minLength": 1, "maxLength": 255], "Also read as `identifierValue`."),
                ], open: true),
            "CreateSessionBody": Schema.object(
                [
                    "session_start_time": Schema.nullable(Schema.dateTime), "inference_type": inferenceType,
                    "service": nullableString, "callback_url": Schema.nullable(callbackURL),
                    "timezone": Schema.nullable(Schema.ref("TimeZoneName")),
                ], optional: ["session_start_time", "inference_type", "service", "callback_url", "timezone"], open: true),
            "CloseSessionBody": Schema.object(
                [
                    "session_end_time": Schema.nullable(Schema.dateTime), "unexpected": unexpected, "callback_url": Schema.nullable(callbackURL),
                ], optional: ["session_end_time", "unexpected", "callback_url"], open: true),
            "UploadForm": Schema.object(
                [
                    "seq_num": [
                        "type": "integer", "minimum": 0, "maximum": .int(Int64(AsleepRoutes.maxSeqNum)),
                        "description": "The chunk's index from 0; required in strict mode, else the next one.",
                    ],
                    "file": [
                        "type": "string", "format": "binary", "contentMediaType": "application/octet-stream",
                        "description": "The 30-s chunk: a NumPy mel spectrogram (`\\x93NUMPY…`) or audio (WAV, MP3, M4A).",
                    ],
                    "callback_url": callbackURL,
                ], optional: ["seq_num", "callback_url"], open: true),
            "TokenBody": Schema.object(["app_id": Schema.string, "app_secret": Schema.string], open: true),
            "RefreshBody": Schema.object(["refresh_token": Schema.string], open: true),
        ]
    }
}
