import Foundation
import TestProcesses
import Testing
import UnderstudyServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `understudy <command> --help`, `-h` and `understudy help <command>` through the real binary:
/// each command's own help, and never the command itself.
@Suite("Help for each command")
struct CommandHelpTests {
    private static let binary = LogFormatTests.repository.appendingPathComponent(".build/debug/understudy").path

    /// Runs the binary to its end; one that is still running after 30 s (a server started instead
    /// of printing help) is killed, and reads as signalled.
    private static func run(_ arguments: [String]) async throws -> ChildProcess {
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the package first: \(binary)")
        // The developer's own UNDERSTUDY_* variables must not steer the test.
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        let process = try SpawnedProcess.start(binary, arguments, environment: environment)
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            if process.isRunning { process.send(SIGKILL) }
        }
        defer { watchdog.cancel() }
        return await process.collected()
    }

    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("help-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("every command the dispatcher runs has help of its own, naming it, with its flags and an example")
    func eachCommand() async throws {
        var texts: [String: String] = [:]
        for command in CommandHelp.commands {
            for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
                let child = try await Self.run(arguments)
                #expect(child.status == 0 && child.error.isEmpty, "\(arguments): \(child.error)")
                let text = child.standard
                #expect(text.contains("understudy \(command)"), "\(arguments) does not name the command")
                #expect(text.contains("Example"), "\(arguments) has no example")
                #expect(!text.contains("Serves local stand-ins"), "\(arguments) printed the overview")
                if let first = texts[command] { #expect(text == first, "\(arguments) differs from `\(command) --help`") } else { texts[command] = text }
            }
        }
        #expect(Set(texts.values).count == CommandHelp.commands.count, "each command's help is its own")
        #expect(texts["journal"]?.contains("--follow") == true && texts["faults"]?.contains("--json-rule") == true)
        #expect(texts["serve"]?.contains("--allowed-host NAME") == true && texts["ca"]?.contains("ca reset") == true)
        #expect(texts["migrate"]?.contains("--migrations PATH") == true && texts["healthcheck"]?.contains("--port PORT") == true)
        #expect(texts["clock"]?.contains("Exit codes:") == true && texts["projects"]?.contains("--replace ID") == true)
        #expect(texts["findings"]?.contains("1 error-level findings") == true && texts["findings"]?.contains("--clear") == true)

        let overview = try await Self.run(["--help"])
        #expect(overview.status == 0 && overview.standard.contains("Serves local stand-ins") && overview.standard.contains("understudy help COMMAND"))
        #expect(try await Self.run(["help"]).standard == overview.standard)
    }

    @Test("--help runs nothing: no CA reset or made, no database migrated or served, no server asked")
    func helpRunsNothing() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ca = folder.appendingPathComponent("ca").path
        let database = folder.appendingPathComponent("db.sqlite").path
        let closed = try ReservedClosedPort()
        defer { closed.release() }
        let port = String(closed.port)
        let lines: [[String]] = [
            ["ca", "reset", "--ca-dir", ca, "--help"], ["ca", "export", "-h", "--ca-dir", ca, "--output", ca + "/x.pem"],
            ["ca", "path", "--ca-dir", ca, "--help"], ["migrate", "--database", database, "--help"],
            ["serve", "--port", "0", "--https-port", "0", "--proxy-port", "0", "--database", database, "--ca-dir", ca, "--help"],
            ["healthcheck", "--port", port, "-h"], ["projects", "delete", "demo", "--port", port, "--help"],
            ["faults", "clear", "--port", port, "--help"], ["clock", "advance", "--project", "demo", "2h", "--port", port, "-h"],
            ["journal", "--follow", "--port", port, "--help"], ["version", "--help"], ["help", "--help"],
        ]
        for arguments in lines {
            let child = try await Self.run(arguments)
            #expect(child.status == 0 && child.error.isEmpty, "\(arguments) ran: \(child.ending) \(child.error)")
            #expect(child.standard.contains("understudy \(arguments[0])") && child.standard.contains("Example"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: ca), "a CA was made or reset")
        #expect(!FileManager.default.fileExists(atPath: database), "a database was made")
    }

    @Test("help for a command there is none of is a usage error")
    func unknownCommand() async throws {
        for arguments in [["help", "frobnicate"], ["frobnicate", "--help"], ["help", "ca", "reset"]] {
            let child = try await Self.run(arguments)
            #expect(child.status == 2 && child.standard.isEmpty, "\(arguments)")
            #expect(child.error.contains("frobnicate") || child.error.contains("one command name"), "\(arguments): \(child.error)")
        }
    }
}
