import Foundation
import UnderstudyClient

/// `understudy projects|journal|faults|clock|findings …`: the control plane of a running server,
/// through `UnderstudyClient` like any other client. Exit codes: 0 done, 1 server unreachable or
/// failed, 2 usage, 3 not found, 4 admin token missing or refused; `findings` alone: 1 error-level
/// findings listed, 5 server unreachable or failed.
public enum ControlCommand {
    /// Exit status: the command did what it said.
    public static let success: Int32 = 0
    /// Exit status: the server could not be reached, or failed the request (or a local file could not be used).
    public static let failure: Int32 = 1
    /// Exit status: the command line is wrong; the usage text is on stderr.
    public static let usageError: Int32 = 2
    /// Exit status: the project, rule or document named does not exist on the server.
    public static let notFound: Int32 = 3
    /// Exit status: the server requires an admin token and none, or another one, was given.
    public static let unauthorized: Int32 = 4
    /// Exit status of `findings`: it listed an error-level finding (a CI step fails on it).
    public static let findingsErrors: Int32 = 1
    /// Exit status of `findings`: the server could not be reached, or failed the request (1 is taken by error-level findings).
    public static let findingsFailure: Int32 = 5

    static let usage = """
        Usage: understudy projects list | show ID | create [--name N] [--id ID] [--seed S] | delete ID | reset ID
               understudy projects export ID [--output FILE] | import FILE|- [--id ID] [--replace ID]
               understudy journal [--project P | --unmatched] [--follow] [--platform X] [--status 404|5xx] [--method M] [--path GLOB] [--limit N]
               understudy devices --project P [--platform X] | --project P PLATFORM DEVICE [--limit N] | --project P --forget PLATFORM DEVICE
               understudy faults list [--project P] | clear [--project P] [--rule ID]
               understudy faults add [--project P] ACTION [--platform X] [--method M] [--path GLOB] [--header NAME=VALUE]
                                     [--times N] [--after N] [--probability P --seed S] [--ttl SECS]
                      ACTION: --status CODE [--retry-after S] [--body JSON] | --delay MS | --hang [--hold MS] | --reset
                              | --close-after-headers | --truncate [--bytes N] | --malformed-json
               understudy faults add [--project P] --json-rule '{"match": {…}, "action": {…}, …}'
               understudy clock show|real --project P | freeze --project P [--at ISO8601] | advance --project P DURATION (3600, 90m, 2h, 1d)
               understudy findings --project P [--platform X] [--severity error|warning|info] [--rule ID] [--device D] [--since ISO8601]
               understudy findings --project P --clear

        Each takes:
          --server URL         the server (default http://127.0.0.1:PORT)     UNDERSTUDY_SERVER
          --port PORT          a local server's port (default 8080)           UNDERSTUDY_PORT
          --admin-token TOKEN  the control-plane token                        UNDERSTUDY_ADMIN_TOKEN
          --json               one JSON document (journal --follow: one JSON object per line)
        Without --project, `journal` lists every project's requests and `faults` the global rules;
        `journal --unmatched` only the requests that matched no project, each with the reason.
        Exit codes: 0 done, 1 server unreachable or failed, 2 usage error, 3 not found, 4 admin token missing or refused;
        `findings`: 0 no error-level finding, 1 error-level findings, 2 usage error, 3 not found, 4 token, 5 server unreachable or failed.
        """

    /// Runs the command in `arguments` (starting with its group, e.g. `["projects", "list"]`) and returns its exit code.
    public static func run(_ arguments: [String], environment: [String: String], output: ControlOutput = .process) async -> Int32 {
        // Help is the group's own, whatever else the line says (an unknown verb included).
        if arguments.contains("--help") || arguments.contains("-h"), let group = arguments.first, let help = CommandHelp.text(for: group) {
            output.line(help)
            return success
        }
        let invocation: ControlInvocation
        do {
            invocation = try ControlCommandLine.parse(arguments, environment: environment)
        } catch {
            output.error("understudy: \(error.description)\n\n\(usage)\n")
            return usageError
        }
        return await run(invocation, output: output)
    }

    /// Runs a parsed command and returns its exit code.
    public static func run(_ invocation: ControlInvocation, output: ControlOutput) async -> Int32 {
        if invocation.action == .help {
            output.line(usage)
            return success
        }
        let client = Understudy(baseURL: invocation.server, adminToken: invocation.adminToken)
        let failed = invocation.action.isFindings ? findingsFailure : failure
        do {
            if case .findings(let project, let query) = invocation.action {
                return try await ControlFindings(admin: client.admin, project: project, json: invocation.json, output: output).list(query)
            }
            try await perform(invocation, client: client, output: output)
            return success
        } catch let error as UnderstudyClientError {
            let status = report(error, invocation: invocation, output: output)
            guard invocation.action.isFindings else { return status }
            // The server refuses only a bad filter (an unknown rule or platform, a `since` that is no date): the command line's mistake.
            if case .unexpectedStatus(400, _) = error { return usageError }
            return status == failure ? findingsFailure : status
        } catch let error as ControlLocalError {
            output.error("understudy: \(error.description)\n")
            return failed
        } catch {
            output.error("understudy: \(UnderstudyCommand.text(of: error))\n")
            return failed
        }
    }

    private static func perform(_ invocation: ControlInvocation, client: Understudy, output: ControlOutput) async throws {
        let admin = client.admin
        let json = invocation.json
        switch invocation.action {
        case .help: break
        case .listProjects:
            let projects = try await admin.projects()
            if json { return try output.json(["projects": projects]) }
            output.line(
                ControlText.columns(
                    [["ID", "NAME", "CLOCK", "CREATED"]]
                        + projects.map {
                            [$0.id, $0.name + ($0.isDemo ? " (demo)" : ""), ControlText.clock($0.clock), $0.createdAt]
                        }))
        case .showProject(let id): try show(try await admin.project(id).get(), json: json, output: output)
        case .createProject(let name, let id, let seed):
            try show(try await admin.createProject(name: name, id: id, seed: seed), json: json, output: output)
        case .deleteProject(let id):
            try await admin.project(id).delete()
            if json { return try output.json(["deleted": id]) }
            output.line("deleted project \(id)")
        case .resetProject(let id):
            let project = try await admin.project(id).reset()
            if json { return try output.json(project) }
            output.line("reset project \(id)")
        case .exportProject(let id, let file):
            try await exportProject(id, to: file, admin: admin, output: output)
        case .importProject(let file, let id, let replacing):
            let bundle = try ControlFiles.read(file)
            let project = try await admin.importProject(bundle, id: id, replacing: replacing)
            if json { return try output.json(project) }
            output.line((replacing == nil ? "imported project " : "replaced project ") + project.id)
        case .journal(let project, let query, let follow):
            let journal = ControlJournal(admin: admin, project: project, query: query, json: json, output: output)
            if follow { try await journal.follow(server: invocation.server) } else { try await journal.list() }
        case .listDevices(let project, let platform):
            let devices = try await admin.project(project).devices(platform: platform)
            if json { return try output.json(["devices": devices]) }
            output.line(
                devices.isEmpty
                    ? "no devices"
                    : ControlText.columns(
                        [["PLATFORM", "DEVICE", "REQUESTS", "FINDINGS", "LAST SEEN"]]
                            + devices.map { [$0.platform, $0.device, String($0.requests), String($0.findings), $0.lastSeen] }))
        case .showDevice(let project, let platform, let device, let limit):
            let shown = try await admin.project(project).device(platform: platform, id: device, limit: limit)
            if json { return try output.json(shown) }
            output.line("\(shown.platform) \(shown.device): \(shown.requests) requests, \(shown.findings) findings")
            for entry in shown.timeline { output.line(ControlText.journalLine(entry)) }
        case .forgetDevice(let project, let platform, let device):
            let forgotten = try await admin.project(project).forgetDevice(platform: platform, id: device)
            struct Forgotten: Encodable { var platform: String, device: String, forgotten: Int }
            if json { return try output.json(Forgotten(platform: platform, device: device, forgotten: forgotten)) }
            output.line("forgot \(platform) device \(device) (\(forgotten) records)")
        case .listFaults(let project):
            let rules: [FaultRule]
            if let project { rules = try await admin.project(project).faults() } else { rules = try await admin.globalFaults() }
            if json { return try output.json(["rules": rules]) }
            output.line(rules.isEmpty ? "no fault rules" : ControlText.columns(ControlText.faultRows(rules)))
        case .addFault(let project, let rule):
            let added: FaultRule
            switch (rule, project) {
            case (.rule(let rule), let project?): added = try await admin.project(project).addFault(rule)
            case (.rule(let rule), nil): added = try await admin.addGlobalFault(rule)
            case (.json(let rule), let project?): added = try await admin.project(project).addFault(json: rule)
            case (.json(let rule), nil): added = try await admin.addGlobalFault(json: rule)
            }
            if json { return try output.json(added) }
            output.line("added \(added.id ?? "rule"): \(ControlText.action(added.action)) for \(ControlText.match(added.match))")
        case .clearFaults(let project, let rule):
            switch (project, rule) {
            case (let project?, let rule?): try await admin.project(project).removeFault(rule)
            case (let project?, nil): try await admin.project(project).removeFaults()
            case (nil, let rule?): try await admin.removeGlobalFault(rule)
            case (nil, nil): try await admin.removeGlobalFaults()
            }
            let what = rule.map { "fault rule \($0)" } ?? (project.map { "every fault rule of project \($0)" } ?? "every global fault rule")
            if json { return try output.json(["removed": rule ?? "all"]) }
            output.line("removed \(what)")
        case .showClock(let project): try show(try await admin.project(project).clock(), json: json, output: output)
        case .freezeClock(let project, let at): try show(try await admin.project(project).freezeClock(at: at), json: json, output: output)
        case .advanceClock(let project, let seconds):
            try show(try await admin.project(project).advanceClock(by: seconds), json: json, output: output)
        case .realClock(let project): try show(try await admin.project(project).realClock(), json: json, output: output)
        case .findings: break // `run` lists them, for their exit status
        case .clearFindings(let project): try await ControlFindings(admin: admin, project: project, json: json, output: output).clear()
        }
    }

    private static func show(_ project: Project, json: Bool, output: ControlOutput) throws {
        if json { return try output.json(project) }
        output.line(ControlText.project(project))
    }

    private static func show(_ clock: ClockState, json: Bool, output: ControlOutput) throws {
        if json { return try output.json(clock) }
        output.line(ControlText.clock(clock))
    }

    private static func exportProject(_ id: String, to file: String?, admin: AdminClient, output: ControlOutput) async throws {
        let bundle = try await admin.project(id).export()
        guard let file, file != "-" else {
            output.standard(String(decoding: bundle, as: UTF8.self) + (bundle.last == UInt8(ascii: "\n") ? "" : "\n"))
            return
        }
        try ControlFiles.write(bundle, to: file)
        output.error("exported project \(id) to \(file)\n")
    }

    /// A server message in this command's own spelling: the control plane's remedies name query
    /// parameters (`?replace=prj_1`, `?id=`), which a command-line user passes as flags.
    static func commandLineSpelling(_ message: String) -> String {
        message
            .replacingOccurrences(of: #"`\?replace=([^`]*)`"#, with: "`--replace $1`", options: .regularExpression)
            .replacingOccurrences(of: #"`\?id=([^`]*)`"#, with: "`--id ID`", options: .regularExpression)
    }

    /// One line on stderr naming the server, and the exit code for what went wrong.
    static func report(_ error: UnderstudyClientError, invocation: ControlInvocation, output: ControlOutput) -> Int32 {
        let server = invocation.server.absoluteString
        switch error {
        case .transport(_, let message):
            output.error("understudy: cannot reach \(server): \(message)\n")
            return failure
        case .unexpectedStatus(401, _):
            output.error(
                invocation.adminToken == nil
                    ? "understudy: \(server) requires an admin token: pass --admin-token TOKEN or set UNDERSTUDY_ADMIN_TOKEN\n"
                    : "understudy: \(server) refused the admin token given\n")
            return unauthorized
        case .unexpectedStatus(let status, let body):
            let detail =
                (try? JSONDecoder().decode(AdminErrorBody.self, from: Data(body.utf8)))?.error.message
                ?? String(body.prefix(200)).replacingOccurrences(of: "\n", with: " ")
            output.error("understudy: \(server) answered \(status): \(commandLineSpelling(detail))\n")
            return status == 404 ? notFound : failure
        case .decoding(let type, let status, _, _):
            output.error("understudy: \(server) answered \(status) with something that is not a \(type); is it an Understudy server?\n")
            return failure
        case .encoding(let reason):
            output.error("understudy: \(reason)\n")
            return failure
        }
    }
}
