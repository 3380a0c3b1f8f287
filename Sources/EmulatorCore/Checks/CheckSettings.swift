import Foundation

/// A project's choices about its checks, stored as a small JSON document
/// (`{"rules": {"<rule id>": {"enabled": false, "severity": "error"}}}`): a rule can be turned
/// off (some teams call an SDK oddly on purpose) and its severity changed (a warning raised to an
/// error, so `understudy findings` fails the build on it).
public struct CheckSettings: Sendable, Equatable {
    /// One rule's overrides; nil members keep the rule's defaults.
    public struct RuleSetting: Sendable, Equatable {
        /// False turns the rule off for the project.
        public var enabled: Bool?
        /// The severity its findings take instead of the rule's own.
        public var severity: Severity?
    }

    /// Overrides by rule id.
    public var rules: [String: RuleSetting] = [:]

    /// No overrides.
    public init() {}

    /// Whether the rule runs for the project.
    public func isEnabled(_ rule: String) -> Bool { rules[rule]?.enabled ?? true }

    /// The severity the rule's findings take in the project.
    public func severity(of definition: RuleDefinition) -> Severity { rules[definition.id]?.severity ?? definition.severity }

    /// Reads a stored or submitted document, checking every member: only `rules`, only known rule
    /// ids (`known`; nil for a stored document, which may name a rule a later version dropped),
    /// only `enabled` (a boolean) and `severity` (error, warning or info) per rule. Problems are
    /// 400s naming the member.
    public static func parse(_ document: JSONValue, known: Set<String>?) throws -> CheckSettings {
        guard case .object(let members) = document else { throw AdminError.badRequest("The check settings must be a JSON object.", code: "invalid_settings") }
        if let unknown = members.keys.sorted().first(where: { $0 != "rules" }) {
            throw AdminError.badRequest("Unknown member `\(unknown)`; the check settings have `rules`.", code: "unknown_field")
        }
        var settings = CheckSettings()
        guard let rules = members["rules"], rules != .null else { return settings }
        guard case .object(let byRule) = rules else { throw AdminError.badRequest("`rules` must be an object keyed by rule id.", code: "invalid_settings") }
        for (id, value) in byRule.sorted(by: { $0.key < $1.key }) {
            guard known?.contains(id) ?? true else {
                throw AdminError.badRequest("Unknown rule `\(id)`; GET …/checks lists the rules.", code: "unknown_rule")
            }
            guard case .object(let fields) = value else { throw AdminError.badRequest("`rules.\(id)` must be an object.", code: "invalid_settings") }
            var setting = RuleSetting()
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                switch (name, field) {
                case ("enabled", .bool(let flag)): setting.enabled = flag
                case ("severity", .string(let text)) where Severity(rawValue: text) != nil: setting.severity = Severity(rawValue: text)
                case ("enabled", _): throw AdminError.badRequest("`rules.\(id).enabled` must be true or false.", code: "wrong_type")
                case ("severity", _): throw AdminError.badRequest("`rules.\(id).severity` must be error, warning or info.", code: "wrong_type")
                default: throw AdminError.badRequest("Unknown member `rules.\(id).\(name)`; a rule has enabled and severity.", code: "unknown_field")
                }
            }
            if setting != RuleSetting() { settings.rules[id] = setting }
        }
        return settings
    }

    /// The document as stored (only rules with an override).
    public var document: JSONValue {
        var byRule: [String: JSONValue] = [:]
        for (id, setting) in rules {
            var fields: [String: JSONValue] = [:]
            if let enabled = setting.enabled { fields["enabled"] = .bool(enabled) }
            if let severity = setting.severity { fields["severity"] = .string(severity.rawValue) }
            byRule[id] = .object(fields)
        }
        return .object(["rules": .object(byRule)])
    }
}
