import Foundation
import HTTPServer

/// The integration checks' control plane: a project's findings (`GET`/`DELETE …/findings`) and
/// its rule settings (`GET`/`PATCH …/checks`).
extension CoreAdminRoutes {
    /// Which findings a listing keeps; nil members keep all.
    struct FindingFilter {
        var platform: PlatformID?
        var severity: Severity?
        var rule: String?
        var device: String?
        var since: Date?

        /// Reads the query, strictly: an unknown parameter or value is a 400 naming it.
        init(_ request: Request, platforms: [any Platform], checks: CheckEngine) throws {
            for (name, value) in request.queryItems where !value.isEmpty {
                switch name {
                case "platform":
                    guard platforms.contains(where: { $0.id.rawValue == value }) else { throw AdminError.badRequest("Unknown platform `\(value)`.") }
                    platform = PlatformID(value)
                case "severity":
                    guard let level = Severity(rawValue: value) else { throw AdminError.badRequest("`severity` must be error, warning or info; got `\(value)`.") }
                    severity = level
                case "rule":
                    guard checks.definition(value) != nil else { throw AdminError.badRequest("Unknown rule `\(value)`; GET …/checks lists the rules.", code: "unknown_rule") }
                    rule = value
                case "device": device = value
                case "since":
                    guard let date = Timestamp.parse(value) else { throw AdminError.badRequest("`since` must be an ISO 8601 date-time; got `\(value)`.") }
                    since = date
                default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use platform, severity, rule, device or since.")
                }
            }
        }

        func keeps(_ finding: Finding, severity level: Severity) -> Bool {
            (platform.map { $0 == finding.platform } ?? true) && (severity.map { $0 == level } ?? true) && (rule.map { $0 == finding.rule } ?? true)
                && (device.map { $0 == finding.device } ?? true) && (since.map { finding.lastSeen >= $0 } ?? true)
        }
    }

    static func findingRoutes(checks: CheckEngine, platforms: [any Platform]) -> [Route] {
        [
            Route(.get, "/__admin/projects/{id}/findings") { request, context in
                let filter = try FindingFilter(request, platforms: platforms, checks: checks)
                let id = context.parameter("id")
                let settings = try await checks.storedSettings(project: id)
                var shown: [JSONValue] = []
                for finding in try await checks.findings(project: id) {
                    let definition = checks.definition(finding.rule)
                    let severity = definition.map(settings.severity) ?? .warning
                    if filter.keeps(finding, severity: severity) { shown.append(render(finding, severity: severity, definition: definition)) }
                }
                return .json(JSONValue.object(["findings": .array(shown)]))
            },
            Route(.delete, "/__admin/projects/{id}/findings") { _, context in
                try await checks.clear(project: context.parameter("id"))
                return .empty(204)
            },
            Route(.get, "/__admin/projects/{id}/checks") { _, context in
                .json(renderRules(checks, settings: try await checks.storedSettings(project: context.parameter("id"))))
            },
            Route(.patch, "/__admin/projects/{id}/checks") { request, context in
                let patch: JSONValue
                do { patch = try JSONValue.parse(request.body) } catch {
                    throw AdminError.badRequest("The body must be JSON: \(ErrorText.of(error))", code: "invalid_json")
                }
                return .json(renderRules(checks, settings: try await checks.updateSettings(project: context.parameter("id"), patch: patch)))
            },
        ]
    }

    /// A finding as the control plane shows it.
    static func render(_ finding: Finding, severity: Severity, definition: RuleDefinition?) -> JSONValue {
        [
            "rule": .string(finding.rule), "platform": .string(finding.platform.rawValue), "severity": .string(severity.rawValue),
            "title": .string(definition?.title ?? finding.rule), "ruleText": .string(definition?.ruleText ?? ""),
            "whatTheAppDid": .string(finding.whatTheAppDid), "requests": .array(finding.requests.map { .int(Int64($0)) }),
            "firstSeen": .string(Timestamp.format(finding.firstSeen)), "lastSeen": .string(Timestamp.format(finding.lastSeen)),
            "count": .int(Int64(finding.count)), "device": .string(finding.device),
        ]
    }

    /// Every rule with the project's settings applied: `{"rules": [...], "settings": {...}}`.
    static func renderRules(_ checks: CheckEngine, settings: CheckSettings) -> JSONValue {
        let rules: [JSONValue] = checks.definitions.map { definition in
            [
                "id": .string(definition.id), "platform": definition.platform.map { .string($0.rawValue) } ?? .null,
                "enabled": .bool(settings.isEnabled(definition.id)), "severity": .string(settings.severity(of: definition).rawValue),
                "defaultSeverity": .string(definition.severity.rawValue), "title": .string(definition.title), "ruleText": .string(definition.ruleText),
            ]
        }
        return .object(["rules": .array(rules), "settings": settings.document])
    }
}
