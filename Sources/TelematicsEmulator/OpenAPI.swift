import EmulatorCore

/// The OpenAPI 3.1 document of the Telematics SDK routes (relative to `/telematics`, whose server
/// the core adds) and of the platform's control-plane routes (absolute `/__admin/...` paths with
/// their own server), written with the shared builder.
enum TelematicsOpenAPI {
    private typealias Schema = OpenAPISchema
    private typealias Parameter = OpenAPIParameter
    private typealias Content = OpenAPIContent

    /// The errors of a read over a date range.
    private static let rangeErrors: [TelematicsError] = [.invalidDate("startTs", "yesterday"), .invalidRange, .featureOff("TRIPS"), .settingsUnavailable]

    private static let rangeParameters = [
        Parameter.query("startTs", Schema.dateTime, "ISO 8601, UTC or with an offset (a `+` sent unescaped is the offset's sign); aliases `from`, `startDate`, `start`."),
        Parameter.query("endTs", Schema.dateTime, "ISO 8601, UTC or with an offset (a `+` sent unescaped is the offset's sign); aliases `to`, `endDate`, `end`."),
    ]

    /// An SDK operation: its successes, and its error answers by status (`errors`, with those
    /// every route and every bearer route can give; see `errorResponses`). Every route but the
    /// refresh needs the bearer access token.
    private static func sdk(
        _ id: String, _ summary: String, _ description: String, _ responses: [Int: JSONValue?], errors: [TelematicsError] = [],
        body: JSONValue? = nil, parameters: [JSONValue] = [], bearer: Bool = true
    ) -> OpenAPIOperation {
        var all = responses.reduce(into: [String: JSONValue]()) { all, entry in
            let success = entry.value.map { Content.json("Success", $0, example: TelematicsExamples.response(id)) } ?? Content.empty("Success")
            all[String(entry.key)] = Content.withHeaders(success, ["X-Request-Id": requestIDHeader])
        }
        all.merge(errorResponses(errors, bearer: bearer)) { own, _ in own }
        return OpenAPIOperation(
            id: id, summary: summary, description: description, parameters: parameters,
            requestBody: body.map { Content.jsonBody($0, example: TelematicsExamples.body(id)) }, responses: all,
            security: bearer ? [["bearer": []]] : nil)
    }

    /// A control-plane operation: 4xx are the control plane's error body; the project id is a parameter.
    static func admin(
        _ id: String, _ summary: String, _ description: String, _ responses: [Int: JSONValue], body: JSONValue? = nil,
        parameters: [JSONValue] = []
    ) -> OpenAPIOperation {
        var all = responses.reduce(into: [String: JSONValue]()) { $0[String($1.key)] = Content.json("Success", $1.value, example: TelematicsExamples.response(id)) }
        all["4XX"] = Content.json("Control-plane error", Schema.ref("AdminError"))
        return OpenAPIOperation(
            id: id, summary: summary, description: description,
            parameters: [Parameter.path("id", Schema.string, "The project id.")] + parameters,
            requestBody: body.map { Content.jsonBody($0, example: TelematicsExamples.body(id)) }, responses: all)
    }

    static func list(_ key: String, _ item: String) -> JSONValue { Schema.object([key: Schema.array(Schema.ref(item))]) }

    /// The document for the SDK API mounted at `apiRoot`.
    static func document(apiRoot api: String) -> JSONValue {
        var document = OpenAPIDocument(
            title: "Sentilant Telematics (Understudy)",
            description: "SDK routes are relative to `<server>/telematics`; control-plane paths are absolute on the server root. Every contract decision is in docs/telematics.md. "
                + "Errors are `{code, message, status, traceId}`, with the request's journal id in X-Understudy-Trace; each operation lists the "
                + "errors it answers. Any route can also answer 400 (`INVALID_REQUEST`) for a request it cannot read, 409 (`CONFLICT`) for stored "
                + "state this server cannot read, 421 for an unknown Host, and whatever status a fault rule injects.",
            schemas: schemas, securitySchemes: ["bearer": ["type": "http", "scheme": "bearer"]])
        addSDKPaths(to: &document, api: api)
        addControlPlanePaths(to: &document)
        return document.json()
    }

    private static func addSDKPaths(to document: inout OpenAPIDocument, api: String) {
        let vehicleID = Parameter.path("vehicleId", Schema.string, "A vehicle id, or `current` for the user's current vehicle.")
        document.add(
            "post", api + "/auth/refresh",
            sdk(
                "refreshToken", "Refresh: rotate the token pair (60 s grace for the old refresh token)",
                "Trades a refresh token (JSON or form body) for a new pair; reuse inside the grace period returns the same successor.",
                [200: Schema.ref("RefreshResponse")],
                errors: [
                    .refreshTokenMissing, .malformedRefreshToken, .unknownRefreshToken, .revokedRefreshToken, .reusedRefreshToken, .refreshTokenExpired,
                    .accountInactive, .settingsUnavailable,
                ],
                body: Schema.object(["refreshToken": Schema.string]), bearer: false))
        document.add(
            "post", api + "/auth/logout",
            sdk(
                "logout", "Revoke the caller's token pair", "Revokes the bearer token's pair, and the body's refresh token when it is the same user's.",
                [204: nil]))
        document.add("get", api + "/users/me", sdk("getCurrentUserInfo", "getCurrentUserInfo", "The authenticated user.", [200: Schema.ref("User")]))
        document.add(
            "get", api + "/vehicles/types",
            sdk("getVehicleTypes", "getVehicleTypes: name → code", "The project's vehicle-type catalogue.", [200: Schema.ref("Catalogue")], errors: [.settingsUnavailable]))
        document.add(
            "get", api + "/vehicles/fuel-types",
            sdk("getFuelTypes", "getFuelTypes: name → code", "The project's fuel-type catalogue.", [200: Schema.ref("Catalogue")], errors: [.settingsUnavailable]))
        document.add(
            "get", api + "/vehicles/add-reasons",
            sdk(
                "getAddVehicleReasons", "getAddVehicleReasons: name → code", "The project's add-reason catalogue.",
                [200: Schema.ref("Catalogue")], errors: [.settingsUnavailable]))
        document.add(
            "put", api + "/vehicles/current",
            sdk(
                "setVehicle", "setVehicle: full form creates or updates (201/200), plate-only selects an existing vehicle",
                "Sets the user's current vehicle; codes are checked against the catalogues (422 for unknown ones).",
                [200: Schema.ref("Vehicle"), 201: Schema.ref("Vehicle")],
                errors: [
                    .notAnObject, .invalidPlate, .vehicleNotFound, .unknownCode("UNKNOWN_VEHICLE_TYPE", "type", 9),
                    .unknownCode("UNKNOWN_FUEL_TYPE", "fuelType", 9), .unknownCode("UNKNOWN_ADD_REASON", "addReason", 9), .settingsUnavailable,
                ],
                body: Schema.object(
                    [
                        "plate": Schema.string, "internalPlate": nullableString, "type": Schema.integer,
                        "addReason": nullableInteger, "fuelType": Schema.integer,
                    ],
                    optional: ["internalPlate", "type", "addReason", "fuelType"])))
        document.add(
            "get", api + "/vehicles/current",
            sdk(
                "getCurrentVehicleInfo", "getCurrentVehicleInfo", "The user's current vehicle with its latest kilometers.",
                [200: Schema.ref("Vehicle")], errors: [.noCurrentVehicle, .settingsUnavailable]))
        document.add("delete", api + "/vehicles/current", sdk("clearVehicle", "clearVehicle (server side)", "Clears the user's current vehicle.", [204: nil]))
        document.add(
            "post", api + "/vehicles/{vehicleId}/kilometers",
            sdk(
                "reportKilometers", "reportKilometers (`current` or an id)", "Stores a kilometer report; a value below the last report is a 422.",
                [201: Schema.ref("KilometersReport")],
                errors: [
                    .notAnObject, .invalidDate("readAt", "yesterday"), .featureOff("KILOMETERS"), .noCurrentVehicle, .vehicleNotFound,
                    .kilometersDecreasing(15230),
                ],
                body: Schema.object(["kilometers": Schema.number, "observations": nullableString, "readAt": Schema.dateTime], optional: ["observations", "readAt"]),
                parameters: [vehicleID]))
        document.add(
            "post", api + "/vehicles/{vehicleId}/kilometers/corrections",
            sdk(
                "correctKilometers", "correctKilometers: applies the value to the `correctionCount` most recent reports",
                "Overwrites the most recent reports with a corrected value.", [200: Schema.ref("KilometersCorrection")],
                errors: [.notAnObject, .featureOff("KILOMETERS"), .noCurrentVehicle, .vehicleNotFound, .invalidCorrectionCount(1)],
                body: Schema.object(["kilometers": Schema.number, "observations": nullableString, "correctionCount": Schema.integer], optional: ["observations"]),
                parameters: [vehicleID]))
        document.add(
            "get", api + "/vehicles/{vehicleId}/estimated-mileage",
            sdk(
                "getEstimatedMileage", "getEstimatedMileage (−1 when unknown)", "The last report plus the distance of trips since it.",
                [200: Schema.ref("MileageEstimate")], errors: [.featureOff("KILOMETERS"), .noCurrentVehicle, .vehicleNotFound],
                parameters: [vehicleID]))
        document.add(
            "get", api + "/service-codes/{code}",
            sdk(
                "validateServiceCode", "setServiceCode validation",
                "Whether a service code is valid: every code in open mode, the allow-list's otherwise (404 outside it).",
                [200: Schema.ref("ServiceCode")], errors: [.serviceCodeUnknown("NOPE"), .settingsUnavailable],
                parameters: [Parameter.path("code", Schema.string, "The service code.")]))
        document.add(
            "post", api + "/telemetry",
            sdk(
                "uploadTelemetry", "Telemetry batch upload (JSON, gzip optional); 200 + duplicate on a repeated batchId",
                "Stores a batch's samples and events, advancing the user's periods; a repeated `batchId` returns the first answer. The batch "
                    + "may be gzip-compressed: with `Content-Encoding: gzip` (inflated by the server), or as the bare gzip stream (recognised by "
                    + "its magic bytes 1f 8b); `maxBatchBytes` applies to the inflated batch.",
                [202: Schema.ref("UploadResult"), 200: Schema.ref("UploadResult")],
                errors: [
                    .batchNotJSON, .featureOff("TRIPS"), .serviceCodeRefused("FLEET99"), .serviceCodeWithoutTrips("FLEET02"), .batchTooLarge(10_485_760),
                    .settingsUnavailable,
                ] + encodingErrors,
                body: [
                    "type": "object", "required": ["samples"],
                    "properties": ["batchId": Schema.string, "samples": Schema.array(["type": "object"])],
                ], parameters: [contentEncoding]))
        document.add(
            "post", api + "/attention-events",
            sdk(
                "uploadAttentionEvents", "Attention-event upload (SDK keys); duplicates by id; 200 when every event is a repeat",
                "Stores attention events. An id seen before is counted in `duplicates`, not stored again; an upload whose every event was stored before answers 200 (`accepted: 0`).",
                [202: Schema.ref("AttentionUploadResult"), 200: Schema.ref("AttentionUploadResult")],
                errors: [.attentionEventsNotJSON, .featureOff("ATTENTION"), .settingsUnavailable],
                body: ["type": "object", "properties": ["events": Schema.array(Schema.ref("AttentionEvent"))]]))
        document.add(
            "post", api + "/manual-events",
            sdk(
                "insertManualEvent", "insertManualEvent: the twelve TelematicsManualEventType values",
                "Stores a manual event linked to its trip and period; a repeated client id returns the stored one (200).",
                [201: Schema.ref("ManualEvent"), 200: Schema.ref("ManualEvent")],
                errors: [.notAnObject, .invalidEventType("flying"), .invalidDate("timestamp", "yesterday"), .featureOff("TRIPS"), .settingsUnavailable],
                body: [
                    "type": "object", "required": ["type"],
                    "properties": [
                        "id": Schema.string, "type": ["enum": .array(ManualEventType.allCases.map { .string($0.rawValue) })],
                        "timestamp": Schema.dateTime, "latitude": Schema.number, "longitude": Schema.number,
                    ],
                ]))
        document.add(
            "get", api + "/trips",
            sdk(
                "getTripsList", "getTripsList: bare array, newest first; all trips without a range",
                "The user's trips starting in the range.", [200: Schema.array(Schema.ref("TripResume"))], errors: rangeErrors,
                parameters: rangeParameters))
        document.add(
            "get", api + "/trips/{tripId}",
            sdk(
                "getTripById", "getTripById", "One trip with its events, attention events and (on request) samples.",
                [200: Schema.ref("TripDetails")], errors: [.notAFlag("includeSamples", "maybe"), .featureOff("TRIPS"), .tripNotFound, .settingsUnavailable],
                parameters: [
                    Parameter.path("tripId", Schema.integer, "The trip id."),
                    Parameter.query("includeSamples", Schema.boolean, "Include the ordered samples."),
                ]))
        document.add(
            "get", api + "/metrics/summary",
            sdk(
                "getMetricsSummary", "getMetricsSummary", "Sums and the distance-weighted score over the range's trips.",
                [200: Schema.ref("MetricsSummary")], errors: rangeErrors, parameters: rangeParameters))
        document.add(
            "get", api + "/metrics/activity-summary",
            sdk(
                "getActivityMetricsSummary", "getActivityMetricsSummary",
                "Driving from trips, other activities from manual marks.", [200: Schema.ref("ActivityMetricsSummary")], errors: rangeErrors,
                parameters: rangeParameters))
        document.add(
            "get", api + "/telematics-periods",
            sdk(
                "getTelematicsPeriods", "getTelematicsPeriods / getAllTelematicsPeriods (page after page)",
                "One page of the user's periods starting in the range, newest first.", [200: Schema.ref("PeriodsPage")],
                errors: rangeErrors + [.notAFlag("isProcessed", "maybe"), .notAPage("pageSize", "0")],
                parameters: rangeParameters + [
                    Parameter.query("isProcessed", Schema.boolean, "Filter by processed state."),
                    Parameter.query("page", Schema.integer, "1-based, default 1."),
                    Parameter.query("pageSize", Schema.integer, "Default 20, at most 100."),
                ]))
        document.add(
            "get", api + "/telematics-periods/{periodId}",
            sdk(
                "getTelematicsPeriod", "getTelematicsPeriod", "One of the user's periods.", [200: Schema.ref("Period")],
                errors: [.featureOff("TRIPS"), .periodNotFound, .settingsUnavailable],
                parameters: [Parameter.path("periodId", Schema.integer, "The period id.")]))
    }
}
