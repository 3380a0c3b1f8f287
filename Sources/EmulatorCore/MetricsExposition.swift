import Foundation

/// Writes the Prometheus text exposition format, version 0.0.4: a `# HELP` and a `# TYPE` line
/// per family, then its samples, label values and help text escaped as the format requires.
public struct MetricsExposition: Sendable {
    /// The `Content-Type` of a scrape answer.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A family's type.
    public enum Kind: String, Sendable {
        /// Only goes up (restarts at zero with the process).
        case counter
        /// Goes up and down.
        case gauge
        /// Cumulative buckets with `_sum` and `_count`.
        case histogram
    }

    /// The text written so far.
    public private(set) var text = ""

    /// An empty exposition.
    public init() {}

    /// Starts the family `name`.
    public mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample of the current family.
    public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Double) {
        sample(name, Array(labels), Self.format(value))
    }

    /// One integer sample of the current family.
    public mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Int) {
        sample(name, Array(labels), String(value))
    }

    /// One unlabelled sample of the current family.
    public mutating func sample(_ name: String, _ value: Double) { sample(name, [], Self.format(value)) }

    /// One unlabelled integer sample of the current family.
    public mutating func sample(_ name: String, _ value: Int) { sample(name, [], String(value)) }

    private mutating func sample(_ name: String, _ labels: [(key: String, value: String)], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.key)=\"\(Self.escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// A label value as the format writes it: backslash, double quote and line feed escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Help text as the format writes it: backslash and line feed escaped (quotes stay).
    public static func escapeHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A float as the format writes it (`+Inf`, `-Inf`, `NaN`, else Swift's shortest round-trip form).
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return value.description
    }
}
