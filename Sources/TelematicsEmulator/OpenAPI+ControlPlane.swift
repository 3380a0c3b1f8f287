import EmulatorCore

/// The control-plane paths of the Telematics document.
extension TelematicsOpenAPI {
    private typealias Schema = OpenAPISchema
    private typealias Parameter = OpenAPIParameter

    static func addControlPlanePaths(to document: inout OpenAPIDocument) {
        let base = "/__admin/projects/{id}/telematics"
        let userID = Parameter.path("userId", Schema.integer, "The user id.")
        let vehicleID = Parameter.path("vehicleId", Schema.string, "The vehicle id.")
        let userFilter = Parameter.query("userId", Schema.integer, "Only this user's rows.")
        func add(_ method: String, _ path: String, _ operation: OpenAPIOperation) { document.addControlPlane(method, base + path, operation) }

        add("get", "/settings", admin("getTelematicsSettings", "Processing, token and catalogue settings", "The project's effective settings.", [200: Schema.ref("Settings")]))
        add(
            "patch", "/settings",
            admin(
                "patchTelematicsSettings", "Change some settings", "Replaces the named settings; null restores a default; unknown keys are 400s.",
                [200: Schema.ref("Settings")], body: ["type": "object"]))
        for (kind, name) in [("vehicle-types", "VehicleTypes"), ("fuel-types", "FuelTypes"), ("add-reasons", "AddReasons")] {
            add(
                "get", "/catalogues/" + kind,
                admin(
                    "get\(name)Catalogue", "The \(kind) catalogue", "Names and codes the SDK's catalogue route returns.",
                    [200: Schema.ref("Catalogue")]))
            add(
                "put", "/catalogues/" + kind,
                admin(
                    "replace\(name)Catalogue", "Replace the \(kind) catalogue", "Replaces the whole catalogue.",
                    [200: Schema.ref("Catalogue")], body: Schema.ref("Catalogue")))
        }
        add("get", "/service-codes", admin("getServiceCodes", "Service-code mode", "Open mode or the allow-list.", [200: Schema.ref("ServiceCodes")]))
        add(
            "put", "/service-codes",
            admin(
                "replaceServiceCodes", "Open mode or an allow-list", "Sets open mode, or an allow-list with names and features.",
                [200: Schema.ref("ServiceCodes")], body: Schema.ref("ServiceCodes")))
        add(
            "post", "/users",
            admin(
                "createTelematicsUser", "Create a user", "Creates a user (numbered from 1001 without `userId`).", [201: Schema.ref("AdminUser")],
                body: Schema.object(
                    [
                        "userId": Schema.integer, "userName": Schema.string, "state": Schema.string, "accessTtlSeconds": Schema.number,
                        "refreshTtlSeconds": Schema.number, "disabledFeatures": Schema.array(Schema.string),
                    ],
                    optional: ["userId", "userName", "state", "accessTtlSeconds", "refreshTtlSeconds", "disabledFeatures"])))
        add("get", "/users", admin("listTelematicsUsers", "Users", "Every user, by id.", [200: list("users", "AdminUser")]))
        add("get", "/users/{userId}", admin("getTelematicsUser", "One user", "One user.", [200: Schema.ref("AdminUser")], parameters: [userID]))
        add(
            "patch", "/users/{userId}",
            admin(
                "patchTelematicsUser", "Change name, account state (ACTIVE, INACTIVE, DENIED), lifetimes or current vehicle",
                "Changes the given fields.", [200: Schema.ref("AdminUser")], body: ["type": "object"], parameters: [userID]))
        add(
            "post", "/users/{userId}/process",
            admin(
                "processUserNow", "Process now: close open periods and build trips",
                "Closes the user's open periods and processes every unprocessed one.", [200: Schema.ref("ProcessResult")],
                parameters: [userID]))
        add(
            "post", "/tokens",
            admin(
                "mintTelematicsToken", "Mint a token pair (creating the user if needed), ready for TelematicsTokenInitOptions",
                "Mints an access token and (unless `withRefreshToken` is false) a refresh token.", [201: Schema.ref("TokenPair")],
                body: Schema.object(
                    [
                        "userId": Schema.integer, "userName": Schema.string, "accessTtlSeconds": Schema.number,
                        "refreshTtlSeconds": Schema.number, "withRefreshToken": Schema.boolean, "tokenExpires": Schema.dateTime,
                        "refreshTokenExpires": Schema.dateTime,
                    ],
                    optional: ["userName", "accessTtlSeconds", "refreshTtlSeconds", "withRefreshToken", "tokenExpires", "refreshTokenExpires"])))
        add(
            "get", "/tokens",
            admin(
                "listTelematicsTokens", "Token pairs and refresh chains", "Pairs in minting order with their states.",
                [200: list("tokens", "TokenRecord")], parameters: [userFilter]))
        add(
            "post", "/tokens/expire",
            admin(
                "expireTelematicsToken", "Expire an access or refresh token now", "Sets the token's expiry to now.",
                [200: Schema.ref("TokenRecord")], body: Schema.object(["token": Schema.string])))
        add(
            "post", "/tokens/revoke",
            admin(
                "revokeTelematicsToken", "Revoke an access or refresh token", "Revokes the token.",
                [200: Schema.ref("TokenRecord")], body: Schema.object(["token": Schema.string])))
        add(
            "post", "/vehicles",
            admin(
                "seedVehicle", "Seed a vehicle", "Creates or updates a vehicle by plate, optionally as a user's current one.", [201: Schema.ref("Vehicle")],
                body: Schema.object(
                    [
                        "plate": Schema.string, "internalPlate": Schema.string, "type": Schema.integer, "fuelType": Schema.integer,
                        "addReason": Schema.integer, "currentForUserId": Schema.integer,
                    ],
                    optional: ["internalPlate", "addReason", "currentForUserId"])))
        add("get", "/vehicles", admin("listVehicles", "Vehicles", "Every vehicle with its latest kilometers.", [200: list("vehicles", "Vehicle")]))
        add(
            "post", "/vehicles/{vehicleId}/kilometers",
            admin(
                "seedKilometers", "Seed a kilometer report", "Stores a report without the SDK's checks.",
                [201: Schema.ref("KilometersReport")],
                body: Schema.object(
                    ["kilometers": Schema.number, "observations": Schema.string, "readAt": Schema.dateTime],
                    optional: ["observations", "readAt"]), parameters: [vehicleID]))
        add(
            "get", "/vehicles/{vehicleId}/kilometers",
            admin(
                "listKilometers", "A vehicle's reports, newest first", "Every report of the vehicle.",
                [200: list("reports", "KilometersReport")], parameters: [vehicleID]))
        add(
            "post", "/trips",
            admin(
                "seedTrip", "Seed a trip from samples (with events and attention events) or from summary numbers",
                "Creates one trip in its own processed period.", [201: Schema.ref("TripResume")], body: ["type": "object", "required": ["userId"]]))
        add("get", "/trips", admin("listTrips", "Trips of every user", "Trips newest first, with their owner.", [200: list("trips", "AdminTrip")], parameters: [userFilter]))
        add(
            "get", "/trips/{tripId}",
            admin(
                "inspectTrip", "One trip of any user with its samples, events and attention events",
                "The trip as the SDK's detail route returns it with samples, plus its owner; needs no driver token.",
                [200: Schema.ref("AdminTripDetails")], parameters: [Parameter.path("tripId", Schema.integer, "The trip id.")]))
        add(
            "post", "/periods",
            admin(
                "seedPeriods", "Seed periods (processed or open), `count` of them", "Creates periods `spacingSeconds` apart.",
                [201: list("periods", "Period")], body: ["type": "object", "required": ["userId", "startedAt"]]))
        add(
            "get", "/periods",
            admin(
                "listPeriods", "Periods of every user", "Periods newest first, with their owner.", [200: list("periods", "AdminPeriod")],
                parameters: [userFilter]))
        add(
            "get", "/batches",
            admin(
                "listBatches", "Decoded telemetry batches with repeat counts and user-mismatch flags", "Batches in receipt order.",
                [200: list("batches", "Batch")], parameters: [userFilter]))
        add(
            "get", "/attention-events",
            admin(
                "listAttentionEvents", "Attention events with duplicate counts and linked trips", "Attention events in time order.",
                [200: list("events", "AdminAttentionEvent")], parameters: [userFilter]))
        add(
            "get", "/manual-events",
            admin(
                "listManualEvents", "Manual events with linked trips and periods", "Manual events in time order.",
                [200: list("events", "AdminManualEvent")], parameters: [userFilter]))
    }
}
