import Foundation

/// An integration-check finding: a rule from an SDK's documentation the app broke on one device,
/// with the journal ids of the requests that show it (see docs/checks.md).
public struct Finding: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The rule's id, e.g. `asleep.setup-repeated`.
    public var rule: String
    /// The platform the requests went to.
    public var platform: String
    /// `error`, `warning` or `info`, as the project's settings make it.
    public var severity: String
    /// One line: what went wrong.
    public var title: String
    /// The SDK's documented rule, stated.
    public var ruleText: String
    /// What the app did, the last time.
    public var whatTheAppDid: String
    /// Journal ids of the requests that show it.
    public var requests: [Int]
    /// When it was first seen (ISO 8601, project clock).
    public var firstSeen: String
    /// When it was last seen (ISO 8601, project clock).
    public var lastSeen: String
    /// How many times the rule was broken.
    public var count: Int
    /// The device (or user) it concerns.
    public var device: String

    /// The finding as a paragraph for a test failure or a log.
    public var description: String {
        "[\(severity)] \(rule) on \(platform) device \(device) (\(count)×): \(title). \(whatTheAppDid) The SDK's rule: \(ruleText) "
            + "Requests: \(requests.map(String.init).joined(separator: ", "))."
    }
}

/// A rule the server checks, with a project's settings applied (`ProjectAdmin.checks()`).
public struct CheckRuleState: Sendable, Codable, Equatable {
    /// The rule's id.
    public var id: String
    /// Its platform; nil for a rule every platform shares.
    public var platform: String?
    /// Whether it runs for the project.
    public var enabled: Bool
    /// The severity its findings take in the project.
    public var severity: String
    /// The rule's own severity.
    public var defaultSeverity: String
    /// One line: what breaking it means.
    public var title: String
    /// The SDK's documented rule, stated.
    public var ruleText: String
}

/// Which findings to list; every member given must match.
public struct FindingQuery: Sendable, Equatable {
    /// Only this platform's findings.
    public var platform: String?
    /// Only `error`, `warning` or `info` findings.
    public var severity: String?
    /// Only this rule's findings.
    public var rule: String?
    /// Only this device's findings.
    public var device: String?
    /// Only findings last seen at or after this ISO 8601 time (project clock).
    public var since: String?

    /// A query; nil members match anything.
    public init(platform: String? = nil, severity: String? = nil, rule: String? = nil, device: String? = nil, since: String? = nil) {
        self.platform = platform
        self.severity = severity
        self.rule = rule
        self.device = device
        self.since = since
    }

    var items: [(String, String)] {
        [("platform", platform), ("severity", severity), ("rule", rule), ("device", device), ("since", since)].compactMap { name, value in
            value.map { (name, $0) }
        }
    }
}

extension ProjectAdmin {
    /// The project's integration-check findings, most recently seen first.
    public func findings(_ query: FindingQuery = FindingQuery()) async throws(UnderstudyClientError) -> [Finding] {
        struct List: Decodable { var findings: [Finding] }
        let path = "/__admin/projects/\(ClientHTTP.encode(id))/findings"
        return try await admin.raw(ClientRequest(method: "GET", path: path, query: query.items)).expect(200, as: List.self).findings
    }

    /// Deletes the project's findings; the rules also forget the project's earlier requests.
    public func clearFindings() async throws(UnderstudyClientError) {
        try await admin.raw(ClientRequest(method: "DELETE", path: "/__admin/projects/\(ClientHTTP.encode(id))/findings")).expect(204)
    }

    /// Every rule with the project's settings applied.
    public func checks() async throws(UnderstudyClientError) -> [CheckRuleState] {
        struct List: Decodable { var rules: [CheckRuleState] }
        return try await admin.raw(ClientRequest(method: "GET", path: "/__admin/projects/\(ClientHTTP.encode(id))/checks")).expect(200, as: List.self).rules
    }

    /// Turns `rule` on or off for the project and/or changes its severity (`error`, `warning`,
    /// `info`); a nil argument leaves that setting as it is. Returns every rule as it now applies.
    @discardableResult
    public func configureCheck(_ rule: String, enabled: Bool? = nil, severity: String? = nil) async throws(UnderstudyClientError) -> [CheckRuleState] {
        struct List: Decodable { var rules: [CheckRuleState] }
        var setting: [String: AnyJSON] = [:]
        if let enabled { setting["enabled"] = .bool(enabled) }
        if let severity { setting["severity"] = .string(severity) }
        let body: AnyJSON = ["rules": .object([rule: .object(setting)])]
        return try await admin.raw(.json("PATCH", "/__admin/projects/\(ClientHTTP.encode(id))/checks", body)).expect(200, as: List.self).rules
    }
}
