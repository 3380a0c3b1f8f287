import EmulatorCore

/// The reusable schemas of the Telematics document: every SDK and control-plane body, closed
/// (`additionalProperties: false`) so a key the emulator adds without documenting fails the
/// OpenAPI conformance test.
extension TelematicsOpenAPI {
    static let nullableString = OpenAPISchema.nullable(OpenAPISchema.string)
    static let nullableInteger = OpenAPISchema.nullable(OpenAPISchema.integer)
    static let nullableNumber = OpenAPISchema.nullable(OpenAPISchema.number)
    static let nullableBoolean = OpenAPISchema.nullable(OpenAPISchema.boolean)
    static let nullableDateTime = OpenAPISchema.nullable(OpenAPISchema.dateTime)

    static var schemas: [String: JSONValue] {
        let location = OpenAPISchema.object(["latitude": OpenAPISchema.number, "longitude": OpenAPISchema.number, "address": nullableString])
        let resumeProperties: [String: JSONValue] = [
            "id": OpenAPISchema.integer, "vehicleId": nullableInteger, "periodId": nullableInteger, "startedAt": OpenAPISchema.dateTime, "endedAt": OpenAPISchema.dateTime,
            "distanceKm": OpenAPISchema.number, "durationSec": OpenAPISchema.integer,
            "startLocation": ["oneOf": [location, ["type": "null"]]], "endLocation": ["oneOf": [location, ["type": "null"]]],
            "avgSpeedKmh": OpenAPISchema.number, "maxSpeedKmh": OpenAPISchema.number, "score": ["type": "integer", "minimum": 0, "maximum": 100],
            "hardBrakingCount": OpenAPISchema.integer, "abruptAccelerationCount": OpenAPISchema.integer, "hardCorneringCount": OpenAPISchema.integer,
            "speedingCount": OpenAPISchema.integer, "speedingDurationSec": OpenAPISchema.integer,
            "distractionCount": OpenAPISchema.integer, "distractionDurationSec": OpenAPISchema.integer, "manualEventCount": OpenAPISchema.integer,
        ]
        var details = resumeProperties
        details["samples"] = OpenAPISchema.array(OpenAPISchema.ref("TripSample"))
        details["events"] = OpenAPISchema.array(OpenAPISchema.ref("TripEvent"))
        details["attentionEvents"] = OpenAPISchema.array(OpenAPISchema.ref("AttentionEvent"))
        var adminTrip = resumeProperties
        adminTrip["userId"] = OpenAPISchema.integer
        var adminTripDetails = details
        adminTripDetails["userId"] = OpenAPISchema.integer
        let periodProperties: [String: JSONValue] = [
            "id": OpenAPISchema.integer, "startedAt": OpenAPISchema.dateTime, "endedAt": nullableDateTime, "isProcessed": OpenAPISchema.boolean, "processedAt": nullableDateTime,
            "vehicleId": nullableInteger, "serviceCode": nullableString,
            "tripCount": OpenAPISchema.integer, "distanceKm": OpenAPISchema.number, "sampleCount": OpenAPISchema.integer, "attentionEventCount": OpenAPISchema.integer,
        ]
        var adminPeriod = periodProperties
        adminPeriod["userId"] = OpenAPISchema.integer
        let attentionProperties: [String: JSONValue] = [
            "id": OpenAPISchema.string, "type": ["const": "phoneDistraction"], "startTimestampMs": OpenAPISchema.integer, "endTimestampMs": OpenAPISchema.integer,
            "startDate": OpenAPISchema.dateTime, "endDate": OpenAPISchema.dateTime,
            "confidence": ["type": "number", "minimum": 0, "maximum": 1], "averageSpeedMps": nullableNumber, "latitude": nullableNumber, "longitude": nullableNumber,
            "horizontalAccuracyM": nullableNumber, "locationTimestampMs": nullableInteger, "detectorVersion": OpenAPISchema.string,
        ]
        var adminAttention = attentionProperties
        adminAttention["userId"] = OpenAPISchema.integer
        adminAttention["duplicateCount"] = OpenAPISchema.integer
        adminAttention["tripId"] = nullableInteger
        adminAttention["receivedAt"] = OpenAPISchema.dateTime
        let manualProperties: [String: JSONValue] = [
            "id": OpenAPISchema.integer, "clientEventId": nullableString, "type": OpenAPISchema.string, "timestamp": OpenAPISchema.dateTime, "receivedAt": OpenAPISchema.dateTime,
            "latitude": nullableNumber, "longitude": nullableNumber,
            "tripId": nullableInteger, "periodId": nullableInteger, "vehicleId": nullableInteger,
        ]
        var adminManual = manualProperties
        adminManual["userId"] = OpenAPISchema.integer
        let tokenPair: [String: JSONValue] = [
            "token": OpenAPISchema.string, "tokenExpires": OpenAPISchema.dateTime, "refreshToken": nullableString, "refreshTokenExpires": nullableDateTime,
        ]
        var refresh = tokenPair
        for (key, value) in [
            "tokenType": ["const": "Bearer"], "expiresIn": OpenAPISchema.integer, "accessToken": OpenAPISchema.string, "accessTokenExpiresAt": OpenAPISchema.dateTime,
            "refreshTokenExpiresAt": nullableDateTime,
        ] as [String: JSONValue] { refresh[key] = value }
        return [
            "Error": OpenAPISchema.object(["code": OpenAPISchema.string, "message": OpenAPISchema.string, "status": OpenAPISchema.integer, "traceId": OpenAPISchema.string]),
            "AdminError": ["type": "object", "required": ["error"], "properties": ["error": ["type": "object", "required": ["code", "message"]]]],
            "TokenPair": OpenAPISchema.object(tokenPair),
            "RefreshResponse": OpenAPISchema.object(refresh),
            "User": OpenAPISchema.object(
                ["userId": OpenAPISchema.integer, "userName": OpenAPISchema.string, "id": OpenAPISchema.integer, "name": OpenAPISchema.string, "active": OpenAPISchema.boolean],
                optional: ["active"]),
            "Catalogue": ["type": "object", "additionalProperties": OpenAPISchema.integer],
            "Vehicle": OpenAPISchema.object([
                "id": OpenAPISchema.integer, "plate": OpenAPISchema.string, "internalPlate": nullableString, "type": OpenAPISchema.integer, "typeName": OpenAPISchema.string,
                "fuelType": OpenAPISchema.integer, "fuelTypeName": OpenAPISchema.string,
                "addReason": nullableInteger, "addReasonName": nullableString, "createdAt": OpenAPISchema.dateTime, "lastReportedKilometers": nullableNumber,
                "lastReportedAt": nullableDateTime,
            ]),
            "KilometersReport": OpenAPISchema.object([
                "id": OpenAPISchema.integer, "vehicleId": OpenAPISchema.integer, "kilometers": OpenAPISchema.number, "observations": nullableString,
                "readAt": OpenAPISchema.dateTime, "reportedAt": OpenAPISchema.dateTime,
                "corrected": OpenAPISchema.boolean, "correctedAt": nullableDateTime,
            ]),
            "KilometersCorrection": OpenAPISchema.object([
                "vehicleId": OpenAPISchema.integer, "kilometers": OpenAPISchema.number, "correctionCount": OpenAPISchema.integer,
                "reports": OpenAPISchema.array(OpenAPISchema.ref("KilometersReport")),
            ]),
            "MileageEstimate": OpenAPISchema.object([
                "vehicleId": OpenAPISchema.integer, "estimatedKilometers": OpenAPISchema.number, "lastReportedKilometers": nullableNumber, "lastReportedAt": nullableDateTime,
                "trackedKilometersSinceReport": OpenAPISchema.number, "estimatedAt": OpenAPISchema.dateTime,
            ]),
            "ServiceCode": OpenAPISchema.object([
                "code": OpenAPISchema.string, "valid": OpenAPISchema.boolean, "serviceName": OpenAPISchema.string, "features": OpenAPISchema.array(OpenAPISchema.string),
            ]),
            "UploadResult": OpenAPISchema.object(
                ["batchId": OpenAPISchema.string, "accepted": OpenAPISchema.integer, "receivedAt": OpenAPISchema.dateTime, "duplicate": ["const": true]], optional: ["duplicate"]),
            "AttentionUploadResult": OpenAPISchema.object(["accepted": OpenAPISchema.integer, "duplicates": OpenAPISchema.integer]),
            "AttentionEvent": OpenAPISchema.object(
                attentionProperties, optional: ["startDate", "endDate", "averageSpeedMps", "latitude", "longitude", "horizontalAccuracyM", "locationTimestampMs"]),
            "ManualEvent": OpenAPISchema.object(manualProperties),
            "TripResume": OpenAPISchema.object(resumeProperties),
            "TripDetails": OpenAPISchema.object(details),
            "TripSample": OpenAPISchema.object([
                "timestamp": OpenAPISchema.dateTime, "timestampMs": OpenAPISchema.integer, "latitude": OpenAPISchema.number, "longitude": OpenAPISchema.number,
                "speedKmh": nullableNumber, "courseDeg": nullableNumber,
                "horizontalAccuracyM": nullableNumber, "altitudeM": nullableNumber, "speedLimitKmh": nullableNumber, "phoneInUse": nullableBoolean,
            ]),
            "TripEvent": OpenAPISchema.object([
                "type": [
                    "enum": [
                        "abruptAccelerationHighSpeed", "abruptAccelerationLowSpeed", "hardBrakingHighSpeed", "hardBrakingLowSpeed",
                        "hardCornering", "speeding", "distraction",
                    ]
                ],
                "source": ["enum": ["detected", "manual"]], "timestamp": OpenAPISchema.dateTime, "timestampMs": OpenAPISchema.integer, "latitude": nullableNumber,
                "longitude": nullableNumber,
                "durationSec": nullableNumber, "value": nullableNumber,
            ]),
            "MetricsSummary": OpenAPISchema.object([
                "from": nullableDateTime, "to": nullableDateTime, "tripCount": OpenAPISchema.integer, "distanceKm": OpenAPISchema.number, "durationSec": OpenAPISchema.integer,
                "avgSpeedKmh": OpenAPISchema.number, "maxSpeedKmh": OpenAPISchema.number,
                "score": OpenAPISchema.integer, "hardBrakingCount": OpenAPISchema.integer, "abruptAccelerationCount": OpenAPISchema.integer,
                "hardCorneringCount": OpenAPISchema.integer, "speedingDurationSec": OpenAPISchema.integer,
                "distractionCount": OpenAPISchema.integer, "distractionDurationSec": OpenAPISchema.integer, "nightDrivingDistanceKm": OpenAPISchema.number,
            ]),
            "ActivityMetricsSummary": OpenAPISchema.object([
                "from": nullableDateTime, "to": nullableDateTime,
                "activities": OpenAPISchema.array(
                    OpenAPISchema.object([
                        "activity": ["enum": ["driving", "passenger", "walking", "cycling", "stopped", "other"]], "count": OpenAPISchema.integer,
                        "durationSec": OpenAPISchema.integer, "distanceKm": OpenAPISchema.number,
                    ])),
            ]),
            "Period": OpenAPISchema.object(periodProperties),
            "PeriodsPage": OpenAPISchema.object([
                "items": OpenAPISchema.array(OpenAPISchema.ref("Period")), "page": OpenAPISchema.integer, "pageSize": OpenAPISchema.integer, "totalItems": OpenAPISchema.integer,
                "totalPages": OpenAPISchema.integer, "hasNext": OpenAPISchema.boolean,
            ]),
            "Settings": ["type": "object", "required": ["defaultAccessTtlSeconds", "rotationGraceSeconds", "periodIdleTimeoutSeconds", "tripGapSeconds", "autoProcess"]],
            "ServiceCodes": [
                "type": "object", "required": ["mode"],
                "properties": ["mode": ["enum": ["open", "allowList"]], "codes": OpenAPISchema.array(["type": "object", "required": ["code"]])],
            ],
            "AdminUser": OpenAPISchema.object([
                "userId": OpenAPISchema.integer, "userName": OpenAPISchema.string, "state": ["enum": ["ACTIVE", "INACTIVE", "DENIED"]], "currentVehicleId": nullableInteger,
                "accessTtlSeconds": nullableNumber, "refreshTtlSeconds": nullableNumber, "createdAt": OpenAPISchema.dateTime,
                "disabledFeatures": OpenAPISchema.array(["enum": ["TRIPS", "KILOMETERS", "ATTENTION"]]),
            ]),
            "TokenRecord": OpenAPISchema.object([
                "id": OpenAPISchema.string, "userId": OpenAPISchema.integer, "token": OpenAPISchema.string, "tokenExpires": OpenAPISchema.dateTime, "refreshToken": nullableString,
                "refreshTokenExpires": nullableDateTime,
                "accessState": ["enum": ["active", "expired", "revoked"]],
                "refreshState": ["enum": ["active", "expired", "revoked", "rotated", .null]],
                "parentId": nullableString, "successorId": nullableString, "rotatedAt": nullableDateTime, "createdAt": OpenAPISchema.dateTime,
            ]),
            "ProcessResult": OpenAPISchema.object(["periodsProcessed": OpenAPISchema.integer, "tripsCreated": OpenAPISchema.integer]),
            "AdminTrip": OpenAPISchema.object(adminTrip),
            "AdminTripDetails": OpenAPISchema.object(adminTripDetails),
            "AdminPeriod": OpenAPISchema.object(adminPeriod),
            "Batch": OpenAPISchema.object([
                "batchId": OpenAPISchema.string, "userId": OpenAPISchema.integer, "declaredUserId": nullableInteger, "userMismatch": OpenAPISchema.boolean,
                "vehicleId": nullableInteger, "serviceCode": nullableString,
                "deviceId": nullableString, "accepted": OpenAPISchema.integer, "eventCount": OpenAPISchema.integer, "attentionEventCount": OpenAPISchema.integer,
                "repeatCount": OpenAPISchema.integer, "receivedAt": OpenAPISchema.dateTime,
            ]),
            "AdminAttentionEvent": OpenAPISchema.object(adminAttention, optional: ["averageSpeedMps", "latitude", "longitude", "horizontalAccuracyM", "locationTimestampMs"]),
            "AdminManualEvent": OpenAPISchema.object(adminManual),
        ]
    }
}
