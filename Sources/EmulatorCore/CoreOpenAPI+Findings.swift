/// The integration checks' part of the control plane document: findings and rule settings.
extension CoreOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// `Finding`, `FindingList`, `CheckRule`, `CheckRules` and the settings patch.
    static func findingSchemas(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let severity = S.enumeration(Severity.allCases.map(\.rawValue))
        let setting = S.object(["enabled": S.nullable(S.boolean), "severity": S.nullable(severity)], optional: ["enabled", "severity"])
        return [
            "Finding": S.object([
                "rule": S.described(S.string, "The rule's id (`GET …/checks` lists them)."),
                "platform": S.enumeration(platforms.map(\.rawValue)), "severity": severity,
                "title": S.described(S.string, "One line: what went wrong."),
                "ruleText": S.described(S.string, "The SDK's documented rule, stated."),
                "whatTheAppDid": S.described(S.string, "What the app did, the last time."),
                "requests": S.described(S.array(S.integer), "Journal ids of the requests that show it: the first occurrence's and the latest (at most 20)."),
                "firstSeen": S.described(S.string, "ISO 8601, on the project's clock."), "lastSeen": S.described(S.string, "ISO 8601, on the project's clock."),
                "count": S.described(S.integer, "Times the rule was broken."),
                "device": S.described(S.string, "The app installation (or user) it concerns, in the platform's terms."),
            ]),
            "FindingList": S.object(["findings": S.array(S.ref("Finding"))]),
            "CheckRule": S.object([
                "id": S.string, "platform": S.described(S.nullable(S.string), "Null for a rule every platform shares."),
                "enabled": S.boolean, "severity": severity, "defaultSeverity": severity, "title": S.string, "ruleText": S.string,
            ]),
            "CheckSettings": S.object(["rules": S.map(setting)], optional: ["rules"]),
            "CheckRules": S.object(["rules": S.array(S.ref("CheckRule")), "settings": S.ref("CheckSettings")]),
            "CheckSettingsPatch": S.object(["rules": S.nullable(S.map(S.nullable(setting)))], optional: ["rules"]),
        ]
    }

    static func addFindingRoutes(to document: inout OpenAPIDocument, sample: String) {
        let finding: JSONValue = [
            "rule": "repeat-after-4xx", "platform": .string(sample), "severity": "warning", "title": "The same request repeated after a client error",
            "ruleText": "A 4xx answer says the request itself is wrong: sending it again unchanged gets the same answer.",
            "whatTheAppDid": "Sent the same POST /items 3 times, each within 10 s of the last, after it was answered 422; the last answer was 422.",
            "requests": [41, 42, 43], "firstSeen": "2026-03-01T22:00:00.000Z", "lastSeen": "2026-03-01T22:00:01.000Z", "count": 1, "device": "A1B2C3",
        ]
        let rules: JSONValue = [
            "rules": [
                [
                    "id": "repeat-after-4xx", "platform": .null, "enabled": false, "severity": "warning", "defaultSeverity": "warning",
                    "title": "The same request repeated after a client error", "ruleText": "A 4xx answer says the request itself is wrong.",
                ]
            ],
            "settings": ["rules": ["repeat-after-4xx": ["enabled": false]]],
        ]
        document.add(
            "get", "/__admin/projects/{id}/findings",
            operation(
                "listFindings", "Integration-check findings: rules from the SDKs' documentation the app broke",
                "One finding per rule and device, most recently seen first, with the journal ids that show it. Evaluated as requests are answered; "
                    + "a listing waits for findings still being written. Filters combine; an empty one is no filter; an unknown platform, severity "
                    + "or rule, or an unreadable `since`, is a 400.",
                parameters: [
                    projectID, P.query("platform", S.string, "A platform name."), P.query("severity", S.string, "error, warning or info (as the project's settings make it)."),
                    P.query("rule", S.string, "A rule id."), P.query("device", S.string, "A device, as findings name it."),
                    P.query("since", S.string, "ISO 8601: findings last seen at or after it (project clock)."),
                ],
                responses: ["200": C.json("The findings.", S.ref("FindingList"), example: ["findings": [finding]]), "400": error, "404": error],
                tag: "checks"))
        document.add(
            "delete", "/__admin/projects/{id}/findings",
            operation(
                "clearFindings", "Delete the project's findings",
                "Also forgets what the rules remember of the project's earlier requests, so a test can start over without a reset.",
                parameters: [projectID], responses: ["204": C.empty("Cleared."), "404": error], tag: "checks"))
        document.add(
            "get", "/__admin/projects/{id}/checks",
            operation(
                "listChecks", "Every rule, with the project's settings applied",
                "Generic rules (`platform: null`) apply to every platform; the others to their platform's SDK.",
                parameters: [projectID], responses: ["200": C.json("The rules.", S.ref("CheckRules"), example: rules), "404": error], tag: "checks"))
        document.add(
            "patch", "/__admin/projects/{id}/checks",
            operation(
                "updateChecks", "Turn rules off or change their severity for the project",
                "A JSON merge patch (RFC 7396) of the settings document: `enabled: false` turns a rule off, `severity` changes what its findings are, "
                    + "null removes an override. Unknown rules or members are a 400.",
                body: body("CheckSettingsPatch", example: ["rules": ["repeat-after-4xx": ["enabled": false]]]),
                parameters: [projectID], responses: ["200": C.json("The rules as they now apply.", S.ref("CheckRules"), example: rules), "400": error, "404": error],
                tag: "checks"))
    }
}
