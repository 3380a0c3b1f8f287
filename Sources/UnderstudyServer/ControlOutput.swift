import Foundation
import UnderstudyClient

/// Where a control command writes: standard output and standard error by default, a capture in tests.
public struct ControlOutput: Sendable {
    /// Writes text to standard output (the command's result).
    public let standard: @Sendable (String) -> Void
    /// Writes text to standard error (headers, errors).
    public let error: @Sendable (String) -> Void

    /// An output from two writers.
    public init(standard: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.standard = standard
        self.error = error
    }

    /// The process's own streams, written unbuffered so `journal --follow | grep` sees each line as it comes.
    public static let process = ControlOutput(
        standard: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) })

    func line(_ text: String) { standard(text + "\n") }

    /// One JSON document, keys sorted so output is stable across runs.
    func json<T: Encodable>(_ value: T, pretty: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        standard(String(decoding: try encoder.encode(value), as: UTF8.self) + "\n")
    }
}

/// Text for people: aligned columns and one line per journal entry.
enum ControlText {
    /// Rows padded into columns two spaces apart; the last column is not padded.
    static func columns(_ rows: [[String]]) -> String {
        guard let width = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: width)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// One journal entry as one line, in fixed-width fields so lines printed one by one still line up.
    static func journalLine(_ entry: JournalEntry) -> String {
        let status = entry.status == 0 ? "---" : String(entry.status)
        let duration = String(format: "%.1fms", entry.durationMs)
        var target = entry.path + (entry.query.isEmpty ? "" : "?" + entry.query)
        if let host = entry.proxyHost, entry.platform != "proxy" { target += "  via proxy \(host)" }
        if let fault = entry.fault { target += "  fault: \(fault)" }
        if let unmatched = entry.unmatched { target += "  unmatched: " + unmatchedText(unmatched) }
        return [
            pad(String(entry.id), 6, right: true), entry.time, status, pad(duration, 9, right: true),
            pad(entry.projectID ?? "-", 12), pad(entry.platform, 12), pad(entry.method, 7), target,
        ].joined(separator: " ")
    }

    /// `unknown_credential Authorization [redacted …9f3a]`, `host_not_emulated example.com`: the reason and what it names.
    static func unmatchedText(_ unmatched: UnmatchedRequest) -> String {
        let carrier = unmatched.header ?? unmatched.field.map { "body field " + $0 } ?? unmatched.credential
        return ([unmatched.reason] + [carrier, unmatched.value, unmatched.host].compactMap { $0 }).joined(separator: " ")
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return right ? fill + text : text + fill
    }

    static func clock(_ clock: ClockState) -> String {
        switch clock.mode {
        case "frozen": return "frozen at \(clock.frozenAt ?? clock.now)"
        case "offset": return "offset \(seconds(clock.offsetSeconds)) (now \(clock.now))"
        default: return "real (now \(clock.now))"
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? "\(Int64(value))s" : "\(value)s" // checked: whole and below 1e15
    }

    /// The project as key/value lines: what a person pastes into an app.
    static func project(_ project: Project) -> String {
        var rows: [[String]] = [["id", project.id], ["name", project.name], ["created", project.createdAt], ["clock", clock(project.clock)]]
        for platform in project.credentials.keys.sorted() {
            let credentials = (project.credentials[platform] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            rows.append([platform, ([project.baseURLs[platform] ?? ""] + credentials).joined(separator: "  ")])
        }
        return columns(rows)
    }

    static func faultRows(_ rules: [FaultRule]) -> [[String]] {
        [["ID", "SCOPE", "MATCH", "ACTION", "SCHEDULE", "HITS/MATCHED", "EXPIRES"]]
            + rules.map { rule in
                [
                    rule.id ?? "", rule.projectID ?? "global", match(rule.match), action(rule.action), schedule(rule),
                    "\(rule.hits ?? 0)/\(rule.matched ?? 0)", rule.expiresAt ?? "",
                ]
            }
    }

    static func match(_ match: FaultRule.Match) -> String {
        var parts = [match.platform ?? "*", match.method ?? "*", match.path ?? "**"]
        for (name, value) in (match.headers ?? [:]).sorted(by: { $0.key < $1.key }) { parts.append("\(name)=\(value)") }
        return parts.joined(separator: " ")
    }

    static func action(_ action: FaultRule.Action) -> String {
        var text = action.type
        if let status = action.status { text += " \(status)" }
        if let delay = action.delayMs { text += " \(delay)ms" }
        if let bytes = action.bytes { text += " \(bytes)B" }
        if let retry = action.retryAfter { text += " retry-after \(retry)s" }
        return text
    }

    private static func schedule(_ rule: FaultRule) -> String {
        var parts: [String] = []
        if let times = rule.times { parts.append("times \(times)") }
        if let after = rule.after { parts.append("after \(after)") }
        if let probability = rule.probability { parts.append("p \(probability)") }
        return parts.isEmpty ? "always" : parts.joined(separator: ", ")
    }
}
