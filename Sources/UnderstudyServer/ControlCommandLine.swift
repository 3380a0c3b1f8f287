import Foundation
import UnderstudyClient

/// Parses `understudy projects|journal|devices|faults|clock|findings …` into a `ControlInvocation`. Pure: no I/O,
/// the environment passed in, so every rule is a unit test.
public enum ControlCommandLine {
    /// The first words that name a control command.
    public static let groups: Set<String> = ["projects", "journal", "devices", "faults", "clock", "findings"]

    private static let sharedValues: Set<String> = ["--server", "--port", "--admin-token"]
    private static let sharedSwitches: Set<String> = ["--json", "--help", "-h"]

    /// Parses `arguments`, which start with the group (`["projects", "list", "--json"]`).
    public static func parse(_ arguments: [String], environment: [String: String]) throws(ControlUsageError) -> ControlInvocation {
        guard let group = arguments.first, groups.contains(group) else {
            throw ControlUsageError(description: "unknown command `\(arguments.first ?? "")`")
        }
        var rest = Array(arguments.dropFirst())
        // `journal`, `devices` and `findings` have no verb; the others take one before their flags.
        var verb = ""
        if group != "journal" && group != "devices" && group != "findings" {
            if let first = rest.first, !first.hasPrefix("-") { verb = first; rest.removeFirst() }
        }
        let spec = try flagSpec(group: group, verb: verb, help: rest.contains("--help") || rest.contains("-h"))
        let parsed = try ParsedFlags(rest, values: spec.values.union(sharedValues), switches: spec.switches.union(sharedSwitches))
        let server = try serverURL(parsed, environment: environment)
        let token = parsed.value("--admin-token") ?? environment["UNDERSTUDY_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var invocation = ControlInvocation(action: .help, server: server, adminToken: token, json: parsed.has("--json"))
        if parsed.has("--help") || parsed.has("-h") { return invocation }
        switch group {
        case "projects": invocation.action = try projects(verb, parsed)
        case "journal": invocation.action = try journal(parsed)
        case "devices": invocation.action = try devices(parsed)
        case "faults": invocation.action = try faults(verb, parsed)
        case "findings": invocation.action = try findings(parsed)
        default: invocation.action = try clock(verb, parsed)
        }
        return invocation
    }

    /// The flags each verb takes beyond the shared ones; an unknown verb is a usage error.
    private static func flagSpec(group: String, verb: String, help: Bool) throws(ControlUsageError) -> (values: Set<String>, switches: Set<String>) {
        switch (group, verb) {
        case ("projects", "list"), ("projects", "show"), ("projects", "delete"), ("projects", "reset"): return ([], [])
        case ("projects", "create"): return (["--name", "--id", "--seed"], [])
        case ("projects", "export"): return (["--output"], [])
        case ("projects", "import"): return (["--id", "--replace"], [])
        case ("journal", _): return (["--project", "--platform", "--status", "--limit", "--method", "--path"], ["--follow", "-f", "--unmatched"])
        case ("findings", _): return (["--project", "--platform", "--severity", "--rule", "--device", "--since"], ["--clear"])
        case ("devices", _): return (["--project", "--platform", "--limit"], ["--forget"])
        case ("faults", "list"): return (["--project"], [])
        case ("faults", "clear"): return (["--project", "--rule"], [])
        case ("faults", "add"):
            return (
                [
                    "--project", "--platform", "--method", "--path", "--header", "--status", "--retry-after", "--body", "--delay",
                    "--hold", "--bytes", "--times", "--after", "--probability", "--seed", "--ttl", "--json-rule",
                ],
                ["--hang", "--reset", "--close-after-headers", "--truncate", "--malformed-json"]
            )
        case ("clock", "show"), ("clock", "real"), ("clock", "advance"): return (["--project"], [])
        case ("clock", "freeze"): return (["--project", "--at"], [])
        case (_, "") where help: return ([], [])
        case (_, ""): throw ControlUsageError(description: "`\(group)` needs a verb")
        default: throw ControlUsageError(description: "unknown verb `\(group) \(verb)`")
        }
    }

    /// `--server`, else `http://127.0.0.1:<port>` from `--port`, else `UNDERSTUDY_SERVER`, else `UNDERSTUDY_PORT`, else 8080.
    static func serverURL(_ parsed: ParsedFlags, environment: [String: String]) throws(ControlUsageError) -> URL {
        let text: String
        if let server = parsed.value("--server") {
            text = server
        } else if let port = parsed.value("--port") {
            text = try localURL(port: port, source: "--port")
        } else if let server = environment["UNDERSTUDY_SERVER"], !server.isEmpty {
            text = server
        } else if let port = environment["UNDERSTUDY_PORT"], !port.isEmpty {
            text = try localURL(port: port, source: "UNDERSTUDY_PORT")
        } else {
            text = "http://127.0.0.1:8080"
        }
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
            url.query == nil
        else {
            throw ControlUsageError(description: "the server must be an http:// or https:// URL such as http://127.0.0.1:8080, not `\(text)`")
        }
        return url
    }

    private static func localURL(port: String, source: String) throws(ControlUsageError) -> String {
        guard let number = Int(port), (1...65_535).contains(number) else {
            throw ControlUsageError(description: "\(source) must be a port number 1–65535, not `\(port)`")
        }
        return "http://127.0.0.1:\(number)"
    }

    private static func projects(_ verb: String, _ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        switch verb {
        case "list":
            try parsed.expectPositionals(0, "projects list")
            return .listProjects
        case "show": return .showProject(try parsed.single("projects show", "ID"))
        case "delete": return .deleteProject(try parsed.single("projects delete", "ID"))
        case "reset": return .resetProject(try parsed.single("projects reset", "ID"))
        case "create":
            try parsed.expectPositionals(0, "projects create")
            return .createProject(
                name: parsed.value("--name"), id: parsed.value("--id"),
                seed: try parsed.number("--seed", UInt64.self))
        case "export": return .exportProject(try parsed.single("projects export", "ID"), output: parsed.value("--output"))
        default:
            return .importProject(file: try parsed.single("projects import", "FILE"), id: parsed.value("--id"), replacing: parsed.value("--replace"))
        }
    }

    private static func journal(_ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        try parsed.expectPositionals(0, "journal")
        var query = JournalQuery(platform: parsed.value("--platform"), method: parsed.value("--method")?.uppercased(), path: parsed.value("--path"))
        if let status = parsed.value("--status") {
            let lowered = status.lowercased()
            if lowered.count == 3, lowered.hasSuffix("xx"), let hundreds = Int(lowered.prefix(1)), (0...5).contains(hundreds) {
                query.statusClass = hundreds
            } else if let exact = Int(status), (0...999).contains(exact) {
                query.status = exact
            } else {
                throw ControlUsageError(description: "--status takes a status such as 404 or a class such as 5xx, not `\(status)`")
            }
        }
        if let limit = try parsed.number("--limit", Int.self) {
            guard (1...1000).contains(limit) else { throw ControlUsageError(description: "--limit must be 1–1000") }
            query.limit = limit
        }
        if parsed.has("--unmatched") {
            guard parsed.value("--project") == nil else {
                throw ControlUsageError(description: "--unmatched lists requests that matched no project; it takes no --project")
            }
            query.unmatched = true
        }
        return .journal(project: parsed.value("--project"), query: query, follow: parsed.has("--follow") || parsed.has("-f"))
    }

    /// `devices --project P [--platform X]`, `devices --project P PLATFORM DEVICE [--limit N]` (its
    /// timeline) and `devices --project P --forget PLATFORM DEVICE`.
    private static func devices(_ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        guard let project = parsed.value("--project") else { throw ControlUsageError(description: "`devices` needs --project ID") }
        let limit = try parsed.number("--limit", Int.self)
        if let limit, !(1...1000).contains(limit) { throw ControlUsageError(description: "--limit must be 1–1000") }
        switch parsed.positionals.count {
        case 0 where !parsed.has("--forget"):
            return .listDevices(project: project, platform: parsed.value("--platform"))
        case 2 where parsed.value("--platform") == nil:
            let (platform, device) = (parsed.positionals[0], parsed.positionals[1])
            if parsed.has("--forget") { return .forgetDevice(project: project, platform: platform, device: device) }
            return .showDevice(project: project, platform: platform, device: device, limit: limit)
        default:
            throw ControlUsageError(description: "`devices` takes PLATFORM DEVICE (a timeline, or with --forget the device to forget), or neither (the list)")
        }
    }

    private static func clock(_ verb: String, _ parsed: ParsedFlags) throws(ControlUsageError) -> ControlAction {
        guard let project = parsed.value("--project") else { throw ControlUsageError(description: "`clock \(verb)` needs --project ID") }
        switch verb {
        case "show":
            try parsed.expectPositionals(0, "clock show")
            return .showClock(project: project)
        case "real":
            try parsed.expectPositionals(0, "clock real")
            return .realClock(project: project)
        case "freeze":
            try parsed.expectPositionals(0, "clock freeze")
            return .freezeClock(project: project, at: parsed.value("--at"))
        default:
            let text = try parsed.single("clock advance", "DURATION")
            guard let seconds = duration(text) else {
                throw ControlUsageError(description: "`\(text)` is not a duration: give seconds (3600) or a number with s, m, h or d (90m, 2h, 1.5d)")
            }
            return .advanceClock(project: project, seconds: seconds)
        }
    }

    /// Seconds in `3600`, `90s`, `15m`, `2h` or `1.5d`; nil for anything else, negatives included.
    public static func duration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var number = Substring(text)
        var scale = 1.0
        if let last = text.last, let unit = units[last] { scale = unit; number = number.dropLast() }
        guard !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }), let value = Double(number), value.isFinite else { return nil }
        return value * scale
    }
}
