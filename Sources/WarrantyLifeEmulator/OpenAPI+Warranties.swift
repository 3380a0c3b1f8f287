import EmulatorCore
import Foundation

// Warranties, surveys, offers, feedback and configuration content.
extension WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias C = OpenAPIContent

    /// Adds the warranty operations.
    static func addWarrantyRoutes(to document: inout OpenAPIDocument) {
        let id = segment("id", "The warranty id (the voucher's warrantyId).", example: "500123")
        let badField = error(
            "validation_failed (1400): a mistyped field, a region that is not an /app-config id, a missing required dateOfPurchase, "
                + "or a rewardAmount outside 0…rewardAmountMax.", .notAnObject, .dateOfPurchaseRequired, .rewardOutOfRange(max: 50))
        let missing = error("warranty_not_found (1501): unknown, or another account's.", .warrantyNotFound)
        let fields: [String: JSONValue] = [
            "firstName": "Jane", "lastName": "Doe", "city": "Vancouver", "zip": "V5K 0A1", "state": 202, "country": 2, "phone": "555-0100",
            "dateOfPurchase": "2026-11-01", "acceptedMarketing": true, "isDeviceInsured": false,
        ]
        let request = JSONValue.object(fields)
        sdk(
            &document, "get", "/warranties", "getAllWarranties", "The caller's warranties.",
            "An empty array when none. `status` reads EXPIRED once the project clock passes coverageEndDate.", access: .user,
            ["200": ok("The warranties.", S.array(S.ref("Warranty")), example: [warranty])])
        let create = JSONValue.object(fields.merging(["voucherCode": "ABC-1234-XYZ", "ssr": true]) { _, new in new })
        sdk(
            &document, "post", "/warranties", "createWarranty", "Register the warranty of the looked-up voucher.",
            "The voucher becomes claimed by the caller and bound to the device; Smart Saver choices made during registration go in `ssr`/`ssd`/`tradeIn`.",
            access: .user, body: body("CreateWarranty", example: create),
            [
                "201": ok("The warranty.", S.ref("Warranty"), example: warranty), "400": badField,
                "403": error("voucher_redeemed (1202).", .voucherRedeemed),
                "404": error("voucher_not_found (1201) or item_not_found (1301).", .voucherNotFound, .itemNotFound),
                "409": error("warranty_conflict (1502): the voucher is bound to another warranty or account.", .warrantyConflict),
            ])
        sdk(
            &document, "get", "/warranties/{id}", "getWarrantyById", "One of the caller's warranties.", "404 for an unknown id or another account's.",
            access: .user, pathParameters: [id], ["200": ok("The warranty.", S.ref("Warranty"), example: warranty), "404": missing])
        sdk(
            &document, "put", "/warranties/{id}", "updateWarranty", "Update or transfer a warranty.",
            "Merges the fields; a caller on another device who looked the voucher up takes the warranty over (the old item loses coverage).",
            access: .user, pathParameters: [id], body: body("WarrantyRequest", example: request),
            [
                "200": ok("The warranty.", S.ref("Warranty"), example: warranty), "400": badField,
                "401": error("Another account's device (1302).", .deviceRegisteredToOtherAccount(maskedEmail: "j***@example.com")),
                "404": error("warranty_not_found (1501) or item_not_found (1301).", .warrantyNotFound, .itemNotFound),
            ])
        sdk(
            &document, "patch", "/warranties/{id}", "updateWarrantyById", "Change a warranty's fields (rewardAmount).",
            "`{rewardAmount}` is updateWarrantyById; it must lie within 0…rewardAmountMax.", access: .user, pathParameters: [id],
            body: body("WarrantyRequest", example: ["rewardAmount": 12.5]),
            ["200": ok("The warranty.", S.ref("Warranty"), example: warranty), "400": badField, "404": missing])
    }

    /// Adds surveys, offers, feedback, sensor tests and diagnostic configuration.
    static func addContentRoutes(to document: inout OpenAPIDocument) {
        let offerQuery = ["simplify", "city", "country", "state", "zip"].map { name in
            query(name, S.string, name == "simplify" ? "A flag without a value." : "Echoed into the seeded page.", example: name == "simplify" ? "" : "US")
        }
        let html: (String) -> JSONValue = { description in
            ["description": .string(description), "content": ["text/html": ["schema": S.string, "example": "<html><body><h1>Offers</h1></body></html>"]]]
        }
        sdk(
            &document, "post", "/surveys", "postSurvey", "Answer a survey.",
            "Each answer is {questionId, optionId} or a single {\"<questionId>\": optionId}.", access: .user,
            body: body("SurveyAnswers", example: ["surveyVersion": 1, "answers": [["1": 11], ["questionId": 2, "optionId": 21]]]),
            [
                "201": ok("Stored.", S.object(["id": S.string]), example: ["id": "100678"]),
                "400": error("validation_failed (1400): no surveyVersion, answers not an array, or an answer of neither form.", .missingField("surveyVersion")),
            ])
        sdk(
            &document, "get", "/surveys", "getSurvey", "A survey's questions.", "The highest version when none is asked for.", access: .user,
            query: [query("surveyVersion", WireFieldSchema.queryCount, "The survey version.", example: "1")],
            [
                "200": ok(
                    "The questions.", S.ref("Survey"),
                    example: [
                        "surveyVersion": 1,
                        "questions": [
                            [
                                "id": 1, "name": "How do you carry your phone?",
                                "surveyOptions": [["id": 11, "transDesc": "In a pocket"]],
                            ]
                        ],
                    ]),
                "400": error("validation_failed (1400): surveyVersion is not a number.", .badQuery("surveyVersion", "a non-negative integer")),
                "404": error("not_found (1404): no such survey version.", .notFound("Survey version 7")),
            ])
        sdk(
            &document, "get", "/offers/registration", "fetchOffers", "The registration offers page (raw HTML, not enveloped).",
            "The seeded page, `{{query}}` replaced by the query values.", access: .user, query: offerQuery, ["200": html("The page.")])
        sdk(
            &document, "get", "/offers/reward-screen", "fetchRewardScreen", "The reward screen page (raw HTML, not enveloped).",
            "The seeded page, `{{query}}` replaced by the query values.", access: .user, query: offerQuery, ["200": html("The page.")])
        sdk(
            &document, "get", "/offers", "getOffers", "Offers as JSON.", "Filtered by country and state when an offer names them.", access: .user,
            query: [query("country", S.string, "Country code.", example: "US"), query("state", S.string, "State code.", example: "CA")],
            [
                "200": ok(
                    "The offers.", S.array(S.ref("Offer")),
                    example: [
                        [
                            "id": "1", "type": "SSR", "title": "Smart Saver Rewards", "description": "Lower deductible.",
                            "expiresAt": "2027-01-01T00:00:00Z",
                        ]
                    ])
            ])
        sdk(
            &document, "post", "/feedback", "postFeedback", "Send feedback.", "Any JSON object, stored as sent.", access: .user,
            body: C.jsonBody(["type": "object"], example: ["rating": 5, "category": "registration", "message": "Smooth."]),
            ["201": ok("Stored.", S.object(["id": S.string]), example: ["id": "100789"]), "400": error("validation_failed (1400): not a JSON object.", .notAnObject)])
        sdk(
            &document, "get", "/sensor-tests", "getSensorTests", "The sensor test configurations.", "Replaceable content.", access: .user,
            [
                "200": ok(
                    "The tests.", S.array(S.ref("SensorTest")),
                    example: [
                        [
                            "id": "3", "name": "Sensor test", "description": "Motion and tone check.",
                            "sensorTestPhases": [["id": "18", "phase": 50, "durationMs": 50]],
                        ]
                    ])
            ])
        sdk(
            &document, "get", "/diagnostic-config", "getDiagnosticConfig", "Diagnostic requirements of a model.",
            "The model's entry, else the `*` default, else 404.", access: .user,
            query: [query("model", WireFieldSchema.requiredQuery, "The device model (mpn).", required: true, example: "iPhone14,5")],
            [
                "200": ok(
                    "The requirements.", S.object(["model": S.string, "diagnosticRequirements": ["type": "object"]]),
                    example: ["model": "iPhone14,5", "diagnosticRequirements": ["sensorTest": ["id": "3", "name": "Sensor test", "description": "", "sensorTestPhases": []]]]),
                "400": error("validation_failed (1400): `model` is missing.", .missingQuery("model")),
                "404": error("not_found (1404): no configuration for the model.", .notFound("Diagnostic configuration for `iPhone99,9`")),
            ])
    }
}
