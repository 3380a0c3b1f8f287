import Foundation
import UnderstudyClient

/// `understudy findings`: a project's integration-check findings, for people or as JSON, with an
/// exit status a CI step can fail on.
struct ControlFindings {
    let admin: AdminClient
    let project: String
    let json: Bool
    let output: ControlOutput

    /// Lists the findings the query selects; `ControlCommand.findingsErrors` when one of them is an error.
    func list(_ query: FindingQuery) async throws -> Int32 {
        let findings = try await admin.project(project).findings(query)
        if json {
            try output.json(["findings": findings])
        } else {
            output.line(ControlText.findings(findings, project: project, filtered: query != FindingQuery()))
        }
        return findings.contains { $0.severity == "error" } ? ControlCommand.findingsErrors : ControlCommand.success
    }

    /// Deletes every finding of the project (the rules also forget its earlier requests).
    func clear() async throws {
        try await admin.project(project).clearFindings()
        if json { return try output.json(["cleared": project]) }
        output.line("cleared the findings of project \(project)")
    }
}

extension ControlText {
    /// A summary line, then one block per finding: errors first, then warnings, then info, each
    /// group most recently seen first (the server's order).
    static func findings(_ findings: [Finding], project: String, filtered: Bool) -> String {
        let matching = filtered ? " matching the filters" : ""
        guard !findings.isEmpty else { return "no findings\(matching) in project \(project)" }
        let counts = ControlCommandLine.severities.compactMap { severity -> String? in
            let count = findings.filter { $0.severity == severity }.count
            return count == 0 ? nil : "\(count) \(severity)\(count == 1 ? "" : "s")"
        }
        let rank = { (severity: String) in ControlCommandLine.severities.firstIndex(of: severity) ?? ControlCommandLine.severities.count }
        // A stable sort by rank keeps the server's most-recent-first order inside each severity.
        let ordered = findings.enumerated().sorted { (rank($0.element.severity), $0.offset) < (rank($1.element.severity), $1.offset) }.map(\.element)
        let noun = findings.count == 1 ? "finding" : "findings"
        let header = "\(findings.count) \(noun)\(matching) in project \(project): \(counts.joined(separator: ", "))"
        return ([header] + ordered.map(finding)).joined(separator: "\n\n")
    }

    /// One finding as an indented block: what, where, how often, why it matters, and where to read more.
    static func finding(_ finding: Finding) -> String {
        [
            "\(finding.severity.uppercased())  \(finding.rule)  device \(finding.device)  \(finding.count)×",
            "  \(finding.title)",
            "  What the app did: \(finding.whatTheAppDid)",
            "  The SDK's rule: \(finding.ruleText)",
            "  Requests (journal ids): \(finding.requests.map(String.init).joined(separator: ", "))",
            "  Seen: \(finding.firstSeen)" + (finding.lastSeen == finding.firstSeen ? "" : " … \(finding.lastSeen)"),
            "  Guide: \(guide(finding.rule))",
        ].joined(separator: "\n")
    }

    /// The rule's section of the user guide: its heading is the rule id, and this is the anchor
    /// GitHub and most Markdown viewers give it (dots dropped).
    static func guide(_ rule: String) -> String {
        "docs/checks.md#" + rule.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
