import EmulatorCore
import Foundation
import Testing

@testable import UnderstudyServer

/// `--allowed-host`, `UNDERSTUDY_ALLOWED_HOSTS` and the configuration file's `allowedHosts`.
@Suite("Configuration: allowed host names")
struct AllowedHostConfigurationTests {
    private func configFile(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-hosts-\(UUID().uuidString).json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the file, the environment (comma-separated) and repeated flags add up, in that order")
    func sourcesAddUp() throws {
        let file = try configFile(#"{"allowedHosts": ["phone.local", ".ngrok.example"]}"#)
        let configuration = try UnderstudyCommand.parse(
            ["--config", file, "--allowed-host", "c.test", "--allowed-host", "*.d.test"],
            environment: ["UNDERSTUDY_ALLOWED_HOSTS": " a.test, b.test ,,"])
        #expect(configuration.allowedHosts == ["phone.local", ".ngrok.example", "a.test", "b.test", "c.test", "*.d.test"])
        let names = try configuration.allowedHostNames()
        #expect(names.map(\.description) == ["phone.local", ".ngrok.example", "a.test", "b.test", "c.test", ".d.test"])
        #expect(try UnderstudyCommand.parse(["--config", try configFile("{}")], environment: [:]).allowedHosts.isEmpty)
    }

    @Test("a value that is not a host name is a usage error naming it; the file's key must be an array of strings")
    func badValues() async throws {
        let empty = try configFile("{}")
        for bad in ["http://phone.local", "phone.local:8080", "phone.local/x", "a b"] {
            let configuration = try UnderstudyCommand.parse(["--config", empty, "--allowed-host", bad], environment: [:])
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
            #expect(await UnderstudyCommand.main(["understudy", "--config", empty, "--allowed-host", bad, "--port", "0"], environment: [:]) == 2)
        }
        #expect(throws: ConfigurationError.self) { try UnderstudyCommand.parse(["--allowed-host"], environment: [:]) }
        for json in [#"{"allowedHosts": "phone.local"}"#, #"{"allowedHosts": [1]}"#] {
            #expect(throws: ConfigurationError.self) { _ = try UnderstudyCommand.parse(["--config", try configFile(json)], environment: [:]) }
        }
        let fromEnvironment = try UnderstudyCommand.parse(["--config", empty], environment: ["UNDERSTUDY_ALLOWED_HOSTS": "ok.test,https://x"])
        #expect(throws: ConfigurationError.self) { try fromEnvironment.validate() }
    }

    @Test("`understudy serve --help` names the flag and its variable")
    func help() {
        #expect(UnderstudyCommand.usage.contains("--allowed-host NAME") && UnderstudyCommand.usage.contains("UNDERSTUDY_ALLOWED_HOSTS"))
    }
}
