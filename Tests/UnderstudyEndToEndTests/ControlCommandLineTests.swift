import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer

/// The control commands' parser: pure, no server.
@Suite("Control command line parsing")
struct ControlCommandLineTests {
    private func parse(_ line: String, _ environment: [String: String] = [:]) throws -> ControlInvocation {
        try ControlCommandLine.parse(line.split(separator: " ").map(String.init), environment: environment)
    }

    private func usageError(_ line: String) -> String? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return (error as? ControlUsageError)?.description
        }
    }

    @Test("the server: --server, then --port, then UNDERSTUDY_SERVER, then UNDERSTUDY_PORT, then 8080 on loopback")
    func serverPrecedence() throws {
        #expect(try parse("projects list").server.absoluteString == "http://127.0.0.1:8080")
        #expect(try parse("projects list", ["UNDERSTUDY_PORT": "9001"]).server.absoluteString == "http://127.0.0.1:9001")
        #expect(try parse("projects list", ["UNDERSTUDY_PORT": "9001", "UNDERSTUDY_SERVER": "http://box:7000/"]).server.absoluteString == "http://box:7000")
        #expect(try parse("projects list --port 9002", ["UNDERSTUDY_SERVER": "http://box:7000"]).server.absoluteString == "http://127.0.0.1:9002")
        #expect(try parse("projects list --port 9002 --server https://ci.example:8443").server.absoluteString == "https://ci.example:8443")
        #expect(try parse("projects list --server=http://h:1").server.absoluteString == "http://h:1")
        #expect(usageError("projects list --server ftp://h") != nil)
        #expect(usageError("projects list --port 70000") != nil)
        #expect(usageError("projects list --server") == "--server needs a value")
    }

    @Test("the admin token comes from the flag, else the environment; --json is a switch anywhere")
    func tokenAndFormat() throws {
        #expect(try parse("projects list").adminToken == nil)
        #expect(try parse("projects list", ["UNDERSTUDY_ADMIN_TOKEN": "env"]).adminToken == "env")
        #expect(try parse("projects list --admin-token flag", ["UNDERSTUDY_ADMIN_TOKEN": "env"]).adminToken == "flag")
        #expect(try parse("projects list --json").json && !(try parse("projects list").json))
        #expect(usageError("projects list --json=yes") == "--json takes no value")
    }

    @Test("each verb's arguments")
    func verbs() throws {
        #expect(try parse("projects create --name shop --seed 42").action == .createProject(name: "shop", id: nil, seed: 42))
        #expect(try parse("projects delete prj_1").action == .deleteProject("prj_1"))
        #expect(try parse("projects export prj_1 --output b.json").action == .exportProject("prj_1", output: "b.json"))
        #expect(try parse("projects import b.json --replace prj_1").action == .importProject(file: "b.json", id: nil, replacing: "prj_1"))
        #expect(try parse("projects import - --id shop").action == .importProject(file: "-", id: "shop", replacing: nil))
        #expect(try parse("clock advance --project p 2h").action == .advanceClock(project: "p", seconds: 7_200))
        #expect(try parse("clock freeze --project p --at 2030-01-01T00:00:00Z").action == .freezeClock(project: "p", at: "2030-01-01T00:00:00Z"))
        #expect(
            try parse("journal --project p -f --status 5xx --platform asleep --limit 5").action
                == .journal(project: "p", query: JournalQuery(platform: "asleep", limit: 5, statusClass: 5), follow: true))
        #expect(try parse("journal --status 404 --method post").action == .journal(project: nil, query: JournalQuery(method: "POST", status: 404), follow: false))
        #expect(try parse("faults clear --rule flt_1").action == .clearFaults(project: nil, rule: "flt_1"))
        #expect(try parse("devices --project p --platform asleep").action == .listDevices(project: "p", platform: "asleep"))
        #expect(
            try parse("devices --project p asleep SERIAL:SN-0001 --limit 5").action
                == .showDevice(project: "p", platform: "asleep", device: "SERIAL:SN-0001", limit: 5))
        #expect(try parse("devices --project p --forget asleep SERIAL:SN-0001").action == .forgetDevice(project: "p", platform: "asleep", device: "SERIAL:SN-0001"))
        #expect(try parse("projects --help").action == .help && (try parse("faults add --help").action == .help))
    }

    @Test("durations: seconds or a number with s, m, h, d")
    func durations() {
        #expect(ControlCommandLine.duration("3600") == 3_600)
        #expect(ControlCommandLine.duration("90s") == 90 && ControlCommandLine.duration("15m") == 900)
        #expect(ControlCommandLine.duration("1.5d") == 129_600)
        for bad in ["", "h", "-5", "2w", "1e3", "nan"] { #expect(ControlCommandLine.duration(bad) == nil, "\(bad)") }
    }

    @Test("faults add: one action from flags with match and schedule, or the whole rule as --json-rule")
    func faultRules() throws {
        let parsed = try parse(
            "faults add --project p --status 503 --retry-after 2 --platform asleep --method post --path /asleep/** "
                + "--header x-user-id=u1 --times 2 --after 1 --ttl 60")
        let expected = FaultRule(
            match: .init(platform: "asleep", method: "POST", path: "/asleep/**", headers: ["x-user-id": "u1"]),
            action: .status(503, retryAfter: 2), times: 2, after: 1, ttlSeconds: 60)
        #expect(parsed.action == .addFault(project: "p", rule: .rule(expected)))
        #expect(try parse("faults add --hang --hold 500").action == .addFault(project: nil, rule: .rule(FaultRule(match: .init(), action: .hang(500)))))
        #expect(try parse("faults add --truncate").action == .addFault(project: nil, rule: .rule(FaultRule(match: .init(), action: .truncate()))))
        #expect(try parse("faults add --reset").action == .addFault(project: nil, rule: .rule(FaultRule(match: .init(), action: .reset))))
        let json = try ControlCommandLine.parse(["faults", "add", "--json-rule", #"{"match": {}, "action": {"type": "reset"}}"#], environment: [:])
        #expect(json.action == .addFault(project: nil, rule: .json(["match": .object([:]), "action": ["type": "reset"]])))
        #expect(usageError("faults add --platform asleep")?.contains("exactly one of") == true)
        #expect(usageError("faults add --reset --delay 5")?.contains("exactly one of") == true)
        #expect(usageError("faults add --delay 5 --retry-after 2") == "--retry-after goes with --status")
        #expect(usageError("faults add --status 99") == "--status must be 100–599")
        #expect(usageError("faults add --status 503 --header novalue")?.contains("name=value") == true)
        #expect(throws: ControlUsageError.self) {
            try ControlCommandLine.parse(["faults", "add", "--json-rule", "{}", "--status", "503"], environment: [:])
        }
        #expect(throws: ControlUsageError.self) { try ControlCommandLine.parse(["faults", "add", "--json-rule", "[1]"], environment: [:]) }
    }

    @Test("unknown verbs, flags and arguments, and missing ones, are usage errors")
    func usageErrors() {
        #expect(usageError("projects frobnicate") == "unknown verb `projects frobnicate`")
        #expect(usageError("projects") == "`projects` needs a verb")
        #expect(usageError("projects list --frobnicate") == "unknown option --frobnicate")
        #expect(usageError("journal --follow=1") == "--follow takes no value")
        #expect(usageError("journal --status 7zz")?.contains("--status") == true)
        #expect(usageError("journal --limit 0") == "--limit must be 1–1000")
        #expect(usageError("journal extra")?.contains("takes no argument") == true)
        #expect(usageError("devices") == "`devices` needs --project ID")
        #expect(usageError("devices --project p --forget")?.contains("PLATFORM DEVICE") == true)
        #expect(usageError("devices --project p asleep")?.contains("PLATFORM DEVICE") == true)
        #expect(usageError("projects delete") == "`projects delete` needs ID")
        #expect(usageError("projects delete a b")?.contains("one ID") == true)
        #expect(usageError("clock show") == "`clock show` needs --project ID")
        #expect(usageError("clock advance --project p soon")?.contains("not a duration") == true)
        #expect(usageError("projects create --seed many") == "--seed must be a number, not `many`")
    }

    @Test("through `understudy`: a usage error is exit 2 with the usage text on stderr; --help is exit 0")
    func exitCodes() async {
        let captured = CapturedOutput()
        #expect(await ControlCommand.run(["journal", "--frobnicate"], environment: [:], output: captured.output) == 2)
        #expect(captured.error.hasPrefix("understudy: unknown option --frobnicate\n") && captured.error.contains("Usage: understudy projects"))
        #expect(captured.standard.isEmpty)
        let help = CapturedOutput()
        #expect(await ControlCommand.run(["clock", "--help"], environment: [:], output: help.output) == 0)
        #expect(help.standard.contains("Exit codes:") && help.error.isEmpty)
    }
}
