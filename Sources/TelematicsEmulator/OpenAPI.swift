import EmulatorCore

/// The OpenAPI 3.1 document of the Telematics SDK routes (relative to `/telematics`) and of the
/// platform's control-plane routes (absolute `/__admin/...` paths), with response schemas.
enum TelematicsOpenAPI {
    // MARK: Schema helpers

    static let string: JSONValue = ["type": "string"]
    static let nstring: JSONValue = ["type": ["string", "null"]]
    static let int: JSONValue = ["type": "integer"]
    static let nint: JSONValue = ["type": ["integer", "null"]]
    static let num: JSONValue = ["type": "number"]
    static let nnum: JSONValue = ["type": ["number", "null"]]
    static let bool: JSONValue = ["type": "boolean"]
    static let nbool: JSONValue = ["type": ["boolean", "null"]]
    static let date: JSONValue = ["type": "string", "format": "date-time"]
    static let ndate: JSONValue = ["type": ["string", "null"], "format": "date-time"]

    /// A closed object: every key documented, all listed keys required unless `optional`.
    static func object(_ properties: [String: JSONValue], optional: Set<String> = []) -> JSONValue {
        ["type": "object", "additionalProperties": false, "properties": .object(properties),
         "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map { .string($0) })]
    }

    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }
    static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    static func list(_ key: String, _ items: JSONValue) -> JSONValue { object([key: array(items)]) }

    static func response(_ description: String, _ schema: JSONValue?) -> JSONValue {
        guard let schema else { return ["description": .string(description)] }
        return ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    /// An operation; SDK operations get the platform error body for every 4xx/5xx.
    static func op(_ summary: String, _ responses: [Int: JSONValue?], body: JSONValue? = nil, parameters: [JSONValue] = [], sdk: Bool = true) -> JSONValue {
        var all: [String: JSONValue] = [:]
        for (status, schema) in responses { all[String(status)] = response(status < 300 ? "Success" : "Error", schema) }
        if sdk {
            all["4XX"] = response("Telematics error", ref("Error"))
            all["5XX"] = response("Injected failure", ref("Error"))
        } else {
            all["4XX"] = response("Control-plane error", ref("AdminError"))
        }
        var operation: [String: JSONValue] = ["summary": .string(summary), "responses": .object(all)]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body { operation["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]] }
        if sdk && !summary.hasPrefix("Refresh") { operation["security"] = [["bearer": []]] }
        return .object(operation)
    }

    static func query(_ name: String, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "query", "required": false, "schema": schema, "description": .string(description)]
    }

    static func pathParameter(_ name: String, _ schema: JSONValue = ["type": "string"]) -> JSONValue {
        ["name": .string(name), "in": "path", "required": true, "schema": schema]
    }

    static let rangeParameters = [
        query("startTs", date, "UTC ISO 8601; aliases `from`, `startDate`, `start`."),
        query("endTs", date, "UTC ISO 8601; aliases `to`, `endDate`, `end`."),
    ]

    // MARK: Document

    static func document(apiRoot api: String) -> JSONValue {
        let admin = "/__admin/projects/{id}/telematics"
        let projectID = pathParameter("id")
        let userID = pathParameter("userId", int)
        let vehicleID = pathParameter("vehicleId")
        let userFilter = query("userId", int, "Only this user's rows.")
        var paths: [String: JSONValue] = [:]

        paths[api + "/auth/refresh"] = ["post": op("Refresh: rotate the token pair (60 s grace for the old refresh token)", [200: ref("RefreshResponse")],
                                                  body: object(["refreshToken": string], optional: [] ))]
        paths[api + "/auth/logout"] = ["post": op("Revoke the caller's token pair", [204: nil])]
        paths[api + "/users/me"] = ["get": op("getCurrentUserInfo", [200: ref("User")])]
        paths[api + "/vehicles/types"] = ["get": op("getVehicleTypes: name → code", [200: ref("Catalogue")])]
        paths[api + "/vehicles/fuel-types"] = ["get": op("getFuelTypes: name → code", [200: ref("Catalogue")])]
        paths[api + "/vehicles/add-reasons"] = ["get": op("getAddVehicleReasons: name → code", [200: ref("Catalogue")])]
        paths[api + "/vehicles/current"] = [
            "put": op("setVehicle: full form creates or updates (201/200), plate-only selects an existing vehicle", [200: ref("Vehicle"), 201: ref("Vehicle")],
                      body: object(["plate": string, "internalPlate": nstring, "type": int, "addReason": nint, "fuelType": int],
                                   optional: ["internalPlate", "type", "addReason", "fuelType"])),
            "get": op("getCurrentVehicleInfo", [200: ref("Vehicle")]),
            "delete": op("clearVehicle (server side)", [204: nil]),
        ]
        paths[api + "/vehicles/{vehicleId}/kilometers"] = ["post": op("reportKilometers (`current` or an id)", [201: ref("KilometersReport")],
                                                                      body: object(["kilometers": num, "observations": nstring, "readAt": date], optional: ["observations", "readAt"]),
                                                                      parameters: [vehicleID])]
        paths[api + "/vehicles/{vehicleId}/kilometers/corrections"] = [
            "post": op("correctKilometers: applies the value to the `correctionCount` most recent reports", [200: ref("KilometersCorrection")],
                       body: object(["kilometers": num, "observations": nstring, "correctionCount": int], optional: ["observations"]), parameters: [vehicleID]),
        ]
        paths[api + "/vehicles/{vehicleId}/estimated-mileage"] = ["get": op("getEstimatedMileage (−1 when unknown)", [200: ref("MileageEstimate")], parameters: [vehicleID])]
        paths[api + "/service-codes/{code}"] = ["get": op("setServiceCode validation", [200: ref("ServiceCode")], parameters: [pathParameter("code")])]
        paths[api + "/telemetry"] = ["post": op("Telemetry batch upload (JSON, gzip optional); 200 + duplicate on a repeated batchId", [202: ref("UploadResult"), 200: ref("UploadResult")],
                                                body: ["type": "object", "required": ["samples"], "properties": ["batchId": string, "samples": array(["type": "object"])]])]
        paths[api + "/attention-events"] = ["post": op("Attention-event upload (SDK keys); duplicates by id", [202: ref("AttentionUploadResult")],
                                                       body: ["type": "object", "properties": ["events": array(ref("AttentionEvent"))]])]
        paths[api + "/manual-events"] = ["post": op("insertManualEvent: the twelve TelematicsManualEventType values", [201: ref("ManualEvent"), 200: ref("ManualEvent")],
                                                    body: ["type": "object", "required": ["type"], "properties": [
                                                        "id": string, "type": ["enum": .array(["abruptAccelerationHighSpeed", "abruptAccelerationLowSpeed", "hardBrakingHighSpeed", "hardBrakingLowSpeed", "hardCornering", "speeding", "distraction", "walking", "driving", "stopped", "tripStart", "tripEnd"])],
                                                        "timestamp": date, "latitude": num, "longitude": num]])]
        paths[api + "/trips"] = ["get": op("getTripsList: bare array, newest first; all trips without a range", [200: array(ref("TripResume"))], parameters: rangeParameters)]
        paths[api + "/trips/{tripId}"] = ["get": op("getTripById", [200: ref("TripDetails")],
                                                    parameters: [pathParameter("tripId", int), query("includeSamples", bool, "Include the ordered samples.")])]
        paths[api + "/metrics/summary"] = ["get": op("getMetricsSummary", [200: ref("MetricsSummary")], parameters: rangeParameters)]
        paths[api + "/metrics/activity-summary"] = ["get": op("getActivityMetricsSummary", [200: ref("ActivityMetricsSummary")], parameters: rangeParameters)]
        paths[api + "/telematics-periods"] = ["get": op("getTelematicsPeriods / getAllTelematicsPeriods (page after page)", [200: ref("PeriodsPage")],
                                                        parameters: rangeParameters + [query("isProcessed", bool, "Filter by processed state."),
                                                                                       query("page", int, "1-based, default 1."), query("pageSize", int, "Default 20, at most 100.")])]
        paths[api + "/telematics-periods/{periodId}"] = ["get": op("getTelematicsPeriod", [200: ref("Period")], parameters: [pathParameter("periodId", int)])]

        // Control plane.
        func adminOp(_ summary: String, _ responses: [Int: JSONValue?], body: JSONValue? = nil, parameters: [JSONValue] = []) -> JSONValue {
            op(summary, responses, body: body, parameters: [projectID] + parameters, sdk: false)
        }
        paths[admin + "/settings"] = ["get": adminOp("Processing, token and catalogue settings", [200: ref("Settings")]),
                                      "patch": adminOp("Change some settings", [200: ref("Settings")], body: ["type": "object"])]
        for kind in ["vehicle-types", "fuel-types", "add-reasons"] {
            paths[admin + "/catalogues/" + kind] = ["get": adminOp("The \(kind) catalogue", [200: ref("Catalogue")]),
                                                    "put": adminOp("Replace the \(kind) catalogue", [200: ref("Catalogue")], body: ref("Catalogue"))]
        }
        paths[admin + "/service-codes"] = ["get": adminOp("Service-code mode", [200: ref("ServiceCodes")]),
                                           "put": adminOp("Open mode or an allow-list", [200: ref("ServiceCodes")], body: ref("ServiceCodes"))]
        paths[admin + "/users"] = ["post": adminOp("Create a user", [201: ref("AdminUser")],
                                                   body: object(["userId": int, "userName": string, "state": string, "accessTtlSeconds": num, "refreshTtlSeconds": num,
                                                                 "disabledFeatures": array(string)],
                                                                optional: ["userId", "userName", "state", "accessTtlSeconds", "refreshTtlSeconds", "disabledFeatures"])),
                                   "get": adminOp("Users", [200: list("users", ref("AdminUser"))])]
        paths[admin + "/users/{userId}"] = ["get": adminOp("One user", [200: ref("AdminUser")], parameters: [userID]),
                                            "patch": adminOp("Change name, account state (ACTIVE, INACTIVE, DENIED), lifetimes or current vehicle", [200: ref("AdminUser")],
                                                             body: ["type": "object"], parameters: [userID])]
        paths[admin + "/users/{userId}/process"] = ["post": adminOp("Process now: close open periods and build trips", [200: ref("ProcessResult")], parameters: [userID])]
        paths[admin + "/tokens"] = ["post": adminOp("Mint a token pair (creating the user if needed), ready for TelematicsTokenInitOptions", [201: ref("TokenPair")],
                                                    body: object(["userId": int, "userName": string, "accessTtlSeconds": num, "refreshTtlSeconds": num, "withRefreshToken": bool,
                                                                  "tokenExpires": date, "refreshTokenExpires": date],
                                                                 optional: ["userName", "accessTtlSeconds", "refreshTtlSeconds", "withRefreshToken", "tokenExpires", "refreshTokenExpires"])),
                                    "get": adminOp("Token pairs and refresh chains", [200: list("tokens", ref("TokenRecord"))], parameters: [userFilter])]
        paths[admin + "/tokens/expire"] = ["post": adminOp("Expire an access or refresh token now", [200: ref("TokenRecord")], body: object(["token": string]))]
        paths[admin + "/tokens/revoke"] = ["post": adminOp("Revoke an access or refresh token", [200: ref("TokenRecord")], body: object(["token": string]))]
        paths[admin + "/vehicles"] = ["post": adminOp("Seed a vehicle", [201: ref("Vehicle")],
                                                      body: object(["plate": string, "internalPlate": string, "type": int, "fuelType": int, "addReason": int, "currentForUserId": int],
                                                                   optional: ["internalPlate", "addReason", "currentForUserId"])),
                                      "get": adminOp("Vehicles", [200: list("vehicles", ref("Vehicle"))])]
        paths[admin + "/vehicles/{vehicleId}/kilometers"] = [
            "post": adminOp("Seed a kilometer report", [201: ref("KilometersReport")],
                            body: object(["kilometers": num, "observations": string, "readAt": date], optional: ["observations", "readAt"]), parameters: [vehicleID]),
            "get": adminOp("A vehicle's reports, newest first", [200: list("reports", ref("KilometersReport"))], parameters: [vehicleID]),
        ]
        paths[admin + "/trips"] = ["post": adminOp("Seed a trip from samples (with events and attention events) or from summary numbers", [201: ref("TripResume")],
                                                   body: ["type": "object", "required": ["userId"]]),
                                   "get": adminOp("Trips of every user", [200: list("trips", ref("AdminTrip"))], parameters: [userFilter])]
        paths[admin + "/trips/{tripId}"] = ["get": adminOp("One trip of any user with its samples, events and attention events", [200: ref("AdminTripDetails")],
                                                           parameters: [pathParameter("tripId", int)])]
        paths[admin + "/periods"] = ["post": adminOp("Seed periods (processed or open), `count` of them", [201: list("periods", ref("Period"))],
                                                     body: ["type": "object", "required": ["userId", "startedAt"]]),
                                     "get": adminOp("Periods of every user", [200: list("periods", ref("AdminPeriod"))], parameters: [userFilter])]
        paths[admin + "/batches"] = ["get": adminOp("Decoded telemetry batches with repeat counts and user-mismatch flags", [200: list("batches", ref("Batch"))], parameters: [userFilter])]
        paths[admin + "/attention-events"] = ["get": adminOp("Attention events with duplicate counts and linked trips", [200: list("events", ref("AdminAttentionEvent"))], parameters: [userFilter])]
        paths[admin + "/manual-events"] = ["get": adminOp("Manual events with linked trips and periods", [200: list("events", ref("AdminManualEvent"))], parameters: [userFilter])]

        // Control-plane paths are absolute on the server root, not below the document's `/telematics` server.
        for (path, item) in paths where path.hasPrefix("/__admin") {
            if case .object(var members) = item {
                members["servers"] = [["url": "/"]]
                paths[path] = .object(members)
            }
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": "Sentilant Telematics (Understudy)", "version": "1.0.0",
                     "description": "SDK routes are relative to `<server>/telematics`; control-plane paths are absolute on the server root. Every contract decision is in docs/telematics.md."],
            "paths": .object(paths),
            "components": ["schemas": .object(schemas), "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]]],
        ]
    }

    static var schemas: [String: JSONValue] {
        let location = object(["latitude": num, "longitude": num, "address": nstring])
        let resumeProperties: [String: JSONValue] = [
            "id": int, "vehicleId": nint, "periodId": nint, "startedAt": date, "endedAt": date, "distanceKm": num, "durationSec": int,
            "startLocation": ["oneOf": [location, ["type": "null"]]], "endLocation": ["oneOf": [location, ["type": "null"]]],
            "avgSpeedKmh": num, "maxSpeedKmh": num, "score": ["type": "integer", "minimum": 0, "maximum": 100],
            "hardBrakingCount": int, "abruptAccelerationCount": int, "hardCorneringCount": int, "speedingCount": int, "speedingDurationSec": int,
            "distractionCount": int, "distractionDurationSec": int, "manualEventCount": int,
        ]
        var details = resumeProperties
        details["samples"] = array(ref("TripSample"))
        details["events"] = array(ref("TripEvent"))
        details["attentionEvents"] = array(ref("AttentionEvent"))
        var adminTrip = resumeProperties
        adminTrip["userId"] = int
        var adminTripDetails = details
        adminTripDetails["userId"] = int
        let periodProperties: [String: JSONValue] = [
            "id": int, "startedAt": date, "endedAt": ndate, "isProcessed": bool, "processedAt": ndate, "vehicleId": nint, "serviceCode": nstring,
            "tripCount": int, "distanceKm": num, "sampleCount": int, "attentionEventCount": int,
        ]
        var adminPeriod = periodProperties
        adminPeriod["userId"] = int
        let attentionProperties: [String: JSONValue] = [
            "id": string, "type": ["const": "phoneDistraction"], "startTimestampMs": int, "endTimestampMs": int, "startDate": date, "endDate": date,
            "confidence": ["type": "number", "minimum": 0, "maximum": 1], "averageSpeedMps": nnum, "latitude": nnum, "longitude": nnum,
            "horizontalAccuracyM": nnum, "locationTimestampMs": nint, "detectorVersion": string,
        ]
        var adminAttention = attentionProperties
        adminAttention["userId"] = int
        adminAttention["duplicateCount"] = int
        adminAttention["tripId"] = nint
        adminAttention["receivedAt"] = date
        let manualProperties: [String: JSONValue] = [
            "id": int, "clientEventId": nstring, "type": string, "timestamp": date, "receivedAt": date, "latitude": nnum, "longitude": nnum,
            "tripId": nint, "periodId": nint, "vehicleId": nint,
        ]
        var adminManual = manualProperties
        adminManual["userId"] = int
        let tokenPair: [String: JSONValue] = ["token": string, "tokenExpires": date, "refreshToken": nstring, "refreshTokenExpires": ndate]
        var refresh = tokenPair
        for (key, value) in ["tokenType": ["const": "Bearer"], "expiresIn": int, "accessToken": string, "accessTokenExpiresAt": date,
                             "refreshTokenExpiresAt": ndate] as [String: JSONValue] { refresh[key] = value }
        return [
            "Error": object(["code": string, "message": string, "status": int, "traceId": string]),
            "AdminError": ["type": "object", "required": ["error"], "properties": ["error": ["type": "object", "required": ["code", "message"]]]],
            "TokenPair": object(tokenPair),
            "RefreshResponse": object(refresh),
            "User": object(["userId": int, "userName": string, "id": int, "name": string, "active": bool], optional: ["active"]),
            "Catalogue": ["type": "object", "additionalProperties": int],
            "Vehicle": object(["id": int, "plate": string, "internalPlate": nstring, "type": int, "typeName": string, "fuelType": int, "fuelTypeName": string,
                               "addReason": nint, "addReasonName": nstring, "createdAt": date, "lastReportedKilometers": nnum, "lastReportedAt": ndate]),
            "KilometersReport": object(["id": int, "vehicleId": int, "kilometers": num, "observations": nstring, "readAt": date, "reportedAt": date,
                                        "corrected": bool, "correctedAt": ndate]),
            "KilometersCorrection": object(["vehicleId": int, "kilometers": num, "correctionCount": int, "reports": array(ref("KilometersReport"))]),
            "MileageEstimate": object(["vehicleId": int, "estimatedKilometers": num, "lastReportedKilometers": nnum, "lastReportedAt": ndate,
                                       "trackedKilometersSinceReport": num, "estimatedAt": date]),
            "ServiceCode": object(["code": string, "valid": bool, "serviceName": string, "features": array(string)]),
            "UploadResult": object(["batchId": string, "accepted": int, "receivedAt": date, "duplicate": ["const": true]], optional: ["duplicate"]),
            "AttentionUploadResult": object(["accepted": int, "duplicates": int]),
            "AttentionEvent": object(attentionProperties, optional: ["startDate", "endDate", "averageSpeedMps", "latitude", "longitude", "horizontalAccuracyM", "locationTimestampMs"]),
            "ManualEvent": object(manualProperties),
            "TripResume": object(resumeProperties),
            "TripDetails": object(details),
            "TripSample": object(["timestamp": date, "timestampMs": int, "latitude": num, "longitude": num, "speedKmh": nnum, "courseDeg": nnum,
                                  "horizontalAccuracyM": nnum, "altitudeM": nnum, "speedLimitKmh": nnum, "phoneInUse": nbool]),
            "TripEvent": object(["type": ["enum": ["abruptAccelerationHighSpeed", "abruptAccelerationLowSpeed", "hardBrakingHighSpeed", "hardBrakingLowSpeed",
                                                   "hardCornering", "speeding", "distraction"]],
                                 "source": ["enum": ["detected", "manual"]], "timestamp": date, "timestampMs": int, "latitude": nnum, "longitude": nnum,
                                 "durationSec": nnum, "value": nnum]),
            "MetricsSummary": object(["from": ndate, "to": ndate, "tripCount": int, "distanceKm": num, "durationSec": int, "avgSpeedKmh": num, "maxSpeedKmh": num,
                                      "score": int, "hardBrakingCount": int, "abruptAccelerationCount": int, "hardCorneringCount": int, "speedingDurationSec": int,
                                      "distractionCount": int, "distractionDurationSec": int, "nightDrivingDistanceKm": num]),
            "ActivityMetricsSummary": object(["from": ndate, "to": ndate, "activities": array(object([
                "activity": ["enum": ["driving", "passenger", "walking", "cycling", "stopped", "other"]], "count": int, "durationSec": int, "distanceKm": num,
            ]))]),
            "Period": object(periodProperties),
            "PeriodsPage": object(["items": array(ref("Period")), "page": int, "pageSize": int, "totalItems": int, "totalPages": int, "hasNext": bool]),
            "Settings": ["type": "object", "required": ["defaultAccessTtlSeconds", "rotationGraceSeconds", "periodIdleTimeoutSeconds", "tripGapSeconds", "autoProcess"]],
            "ServiceCodes": ["type": "object", "required": ["mode"], "properties": ["mode": ["enum": ["open", "allowList"]], "codes": array(["type": "object", "required": ["code"]])]],
            "AdminUser": object(["userId": int, "userName": string, "state": ["enum": ["ACTIVE", "INACTIVE", "DENIED"]], "currentVehicleId": nint,
                                 "accessTtlSeconds": nnum, "refreshTtlSeconds": nnum, "createdAt": date,
                                 "disabledFeatures": array(["enum": ["TRIPS", "KILOMETERS", "ATTENTION"]])]),
            "TokenRecord": object(["id": string, "userId": int, "token": string, "tokenExpires": date, "refreshToken": nstring, "refreshTokenExpires": ndate,
                                   "accessState": ["enum": ["active", "expired", "revoked"]],
                                   "refreshState": ["enum": ["active", "expired", "revoked", "rotated", .null]],
                                   "parentId": nstring, "successorId": nstring, "rotatedAt": ndate, "createdAt": date]),
            "ProcessResult": object(["periodsProcessed": int, "tripsCreated": int]),
            "AdminTrip": object(adminTrip),
            "AdminTripDetails": object(adminTripDetails),
            "AdminPeriod": object(adminPeriod),
            "Batch": object(["batchId": string, "userId": int, "declaredUserId": nint, "userMismatch": bool, "vehicleId": nint, "serviceCode": nstring,
                             "deviceId": nstring, "accepted": int, "eventCount": int, "attentionEventCount": int, "repeatCount": int, "receivedAt": date]),
            "AdminAttentionEvent": object(adminAttention, optional: ["averageSpeedMps", "latitude", "longitude", "horizontalAccuracyM", "locationTimestampMs"]),
            "AdminManualEvent": object(adminManual),
        ]
    }
}
