import Foundation
import UnderstudyClient

extension ControlCommandLine {
    /// The severities a finding takes, most serious first.
    static let severities = ["error", "warning", "info"]

    /// `findings --project P [--platform X] [--severity S] [--rule ID] [--device D] [--since ISO8601] | --clear`.
    static func findings(_ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        try parsed.expectPositionals(0, "findings")
        guard let project = parsed.value("--project") else { throw ControlUsageError(description: "`findings` needs --project ID") }
        let filters = ["--platform", "--severity", "--rule", "--device", "--since"].filter(parsed.has)
        if parsed.has("--clear") {
            // DELETE clears every finding of the project: a filter would promise a partial clear it cannot make.
            guard filters.isEmpty else {
                throw ControlUsageError(description: "--clear deletes every finding of the project; drop \(filters.joined(separator: ", "))")
            }
            return .clearFindings(project: project)
        }
        if let severity = parsed.value("--severity"), !severities.contains(severity) {
            throw ControlUsageError(description: "--severity must be error, warning or info, not `\(severity)`")
        }
        let query = FindingQuery(
            platform: parsed.value("--platform"), severity: parsed.value("--severity"), rule: parsed.value("--rule"),
            device: parsed.value("--device"), since: parsed.value("--since"))
        return .findings(project: project, query: query)
    }
}
