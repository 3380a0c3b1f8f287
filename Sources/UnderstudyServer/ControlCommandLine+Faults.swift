import Foundation
import UnderstudyClient

extension ControlCommandLine {
    private static let actionSwitches: [String: FaultRule.Action] = [
        "--reset": .reset, "--close-after-headers": .closeAfterHeaders, "--malformed-json": .malformedJSON,
    ]

    static func faults(_ verb: String, _ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        let project = parsed.value("--project")
        switch verb {
        case "list":
            try parsed.expectPositionals(0, "faults list")
            return .listFaults(project: project)
        case "clear":
            try parsed.expectPositionals(0, "faults clear")
            return .clearFaults(project: project, rule: parsed.value("--rule"))
        default:
            try parsed.expectPositionals(0, "faults add")
            return .addFault(project: project, rule: try faultRule(parsed))
        }
    }

    /// The rule `faults add` describes: `--json-rule` alone, or exactly one action flag with match and schedule flags.
    private static func faultRule(_ parsed: ParsedFlags) throws(ControlUsageError) -> ControlFaultRule {
        if let text = parsed.value("--json-rule") {
            let others = parsed.given.subtracting(["--json-rule", "--project", "--server", "--port", "--admin-token", "--json"])
            guard others.isEmpty else {
                throw ControlUsageError(description: "--json-rule holds the whole rule; drop \(others.sorted().joined(separator: ", "))")
            }
            guard let rule = try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)), rule.object != nil else {
                throw ControlUsageError(description: "--json-rule must be a JSON object such as '{\"match\": {…}, \"action\": {…}}'")
            }
            return .json(rule)
        }
        var actions: [FaultRule.Action] = []
        if let status = try parsed.number("--status", Int.self) {
            guard (100...599).contains(status) else { throw ControlUsageError(description: "--status must be 100–599") }
            var body: AnyJSON?
            if let text = parsed.value("--body") {
                guard let json = try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)) else {
                    throw ControlUsageError(description: "--body must be JSON")
                }
                body = json
            }
            actions.append(.status(status, body: body, retryAfter: try parsed.number("--retry-after", Int.self)))
        }
        if let delay = try parsed.number("--delay", Int.self) { actions.append(.delay(delay)) }
        if parsed.has("--hang") { actions.append(.hang(try parsed.number("--hold", Int.self))) }
        if parsed.has("--truncate") { actions.append(.truncate(try parsed.number("--bytes", Int.self))) }
        for (flag, action) in actionSwitches.sorted(by: { $0.key < $1.key }) where parsed.has(flag) { actions.append(action) }
        guard actions.count == 1, let action = actions.first else {
            throw ControlUsageError(
                description: "`faults add` needs exactly one of --status CODE, --delay MS, --hang, --reset, "
                    + "--close-after-headers, --truncate, --malformed-json (or the whole rule as --json-rule)")
        }
        for (flag, needs) in [("--retry-after", "--status"), ("--body", "--status"), ("--hold", "--hang"), ("--bytes", "--truncate")]
        where parsed.has(flag) && !parsed.has(needs) {
            throw ControlUsageError(description: "\(flag) goes with \(needs)")
        }
        var headers: [String: String] = [:]
        for header in parsed.values("--header") {
            guard let equals = header.firstIndex(of: "="), equals != header.startIndex else {
                throw ControlUsageError(description: "--header takes name=value, not `\(header)`")
            }
            headers[String(header[..<equals]).lowercased()] = String(header[header.index(after: equals)...])
        }
        let match = FaultRule.Match(
            platform: parsed.value("--platform"), method: parsed.value("--method")?.uppercased(),
            path: parsed.value("--path"), headers: headers.isEmpty ? nil : headers)
        return .rule(
            FaultRule(
                match: match, action: action, times: try parsed.number("--times", Int.self),
                after: try parsed.number("--after", Int.self), probability: try parsed.number("--probability", Double.self),
                seed: try parsed.number("--seed", UInt64.self), ttlSeconds: try parsed.number("--ttl", Double.self)))
    }
}

/// Flags and positional arguments after the verb: `--flag value`, `--flag=value`, switches, and
/// `--` before positionals that start with a dash.
struct ParsedFlags {
    private var valuesByFlag: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    /// Every flag given, values and switches alike.
    var given: Set<String> { Set(valuesByFlag.keys) }

    init(_ arguments: [String], values: Set<String>, switches: Set<String>) throws(ControlUsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" { positionals.append(argument); continue }
            if argument == "--" { onlyPositionals = true; continue }
            var flag = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if switches.contains(flag) {
                guard inline == nil else { throw ControlUsageError(description: "\(flag) takes no value") }
                valuesByFlag[flag, default: []].append("")
            } else if values.contains(flag) {
                if let inline {
                    valuesByFlag[flag, default: []].append(inline)
                } else {
                    guard index < arguments.count else { throw ControlUsageError(description: "\(flag) needs a value") }
                    valuesByFlag[flag, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw ControlUsageError(description: "unknown option \(flag)")
            }
        }
    }

    func has(_ flag: String) -> Bool { valuesByFlag[flag] != nil }

    /// The last value given for `flag` (a later flag beats an earlier one, as for `serve`).
    func value(_ flag: String) -> String? { valuesByFlag[flag]?.last }

    func values(_ flag: String) -> [String] { valuesByFlag[flag] ?? [] }

    func number<T: LosslessStringConvertible>(_ flag: String, _ type: T.Type) throws(ControlUsageError) -> T? {
        guard let text = value(flag) else { return nil }
        guard let number = T(text) else { throw ControlUsageError(description: "\(flag) must be a number, not `\(text)`") }
        return number
    }

    func expectPositionals(_ count: Int, _ command: String) throws(ControlUsageError) {
        guard positionals.count == count else {
            throw ControlUsageError(
                description: count == 0
                    ? "`\(command)` takes no argument `\(positionals[0])`"
                    : "`\(command)` takes \(count) argument(s), got \(positionals.count)")
        }
    }

    func single(_ command: String, _ name: String) throws(ControlUsageError) -> String {
        guard positionals.count == 1 else {
            throw ControlUsageError(description: positionals.isEmpty ? "`\(command)` needs \(name)" : "`\(command)` takes one \(name), got \(positionals.count)")
        }
        return positionals[0]
    }
}
