import EmulatorCore
import Foundation
import TestProcesses
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// Files the server and the command line write never follow a link placed where they go: the
/// export directory of `--export-on-exit` may be committed to an app's repository, where anyone
/// can add a link to a file the user can write.
@Suite("Written files and links")
struct FileLinkTests {
    private static let victimBytes = Data("the victim's own bytes".utf8)

    /// A fresh folder and, outside it, a file a link may point at.
    private func folders(_ name: String) throws -> (folder: URL, victim: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = folder.path + "-victim"
        try Self.victimBytes.write(to: URL(fileURLWithPath: victim))
        return (folder, victim)
    }

    private func isLink(_ path: String) -> Bool { (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil }

    @Test("export on exit: a link at the old temporary name `.demo.json.partial` is not written through")
    func linkAtPartialName() async throws {
        let (exports, victim) = try folders("export-partial")
        try FileManager.default.createSymbolicLink(atPath: exports.appendingPathComponent(".demo.json.partial").path, withDestinationPath: victim)
        let bundle = try await UnderstudyTestServer.with(demo: true, configure: { $0.exportOnExitDirectory = exports.path }) { server in
            try await server.client.admin.project("demo").export()
        }
        #expect(FileManager.default.contents(atPath: victim) == Self.victimBytes)
        let demo = exports.appendingPathComponent("demo.json").path
        #expect(!isLink(demo))
        #expect(try BundleSupport.comparable(Data(contentsOf: URL(fileURLWithPath: demo))) == BundleSupport.comparable(bundle))
    }

    @Test("export on exit: a link at `demo.json` is refused and named; the other projects are still written")
    func linkAtFinalName() async throws {
        let (exports, victim) = try folders("export-final")
        let demo = exports.appendingPathComponent("demo.json").path
        try FileManager.default.createSymbolicLink(atPath: demo, withDestinationPath: victim)
        try await UnderstudyTestServer.with(demo: true, configure: { $0.exportOnExitDirectory = exports.path }) { server in
            _ = try await server.client.admin.createProject(name: "second", id: "second")
            let report = try await ProjectBundleStore(emulator: server.server.emulator).exportAll(to: exports.path)
            #expect(report.written == [exports.appendingPathComponent("second.json").path])
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.file == demo && report.failures.first?.reason.contains("symbolic link") == true, "\(report.failures)")
        }
        // The stop's own export did the same.
        #expect(isLink(demo) && FileManager.default.contents(atPath: victim) == Self.victimBytes)
        #expect(FileManager.default.fileExists(atPath: exports.appendingPathComponent("second.json").path))
    }

    @Test("`projects export --output` onto a link exits 1 naming the file; the file linked to keeps its bytes")
    func controlExportOntoLink() async throws {
        let (folder, victim) = try folders("control-export")
        let output = folder.appendingPathComponent("bundle.json").path
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: victim)
        try await UnderstudyTestServer.with { server in
            let project = try await server.client.admin.createProject(name: "exported")
            let outcome = await ControlCommandTests.run(["projects", "export", project.id, "--output", output], on: server)
            #expect(outcome.status == 1)
            #expect(outcome.error.contains(output) && outcome.error.contains("symbolic link"), "\(outcome.error)")
        }
        #expect(isLink(output) && FileManager.default.contents(atPath: victim) == Self.victimBytes)
    }

    @Test("`ca export --output` onto a link exits 1 naming the file; the file linked to keeps its bytes")
    func certificateExportOntoLink() async throws {
        let (folder, victim) = try folders("ca-export")
        let output = folder.appendingPathComponent("ca.pem").path
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: victim)
        let binary = LogFormatTests.repository.appendingPathComponent(".build/debug/understudy").path
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        let finished = try await ChildProcess.running(
            binary, ["ca", "export", "--output", output, "--ca-dir", folder.appendingPathComponent("ca").path],
            environment: environment, directory: LogFormatTests.repository.path)
        #expect(finished.status == 1)
        #expect(finished.error.contains(output) && finished.error.contains("symbolic link"), "\(finished.error)")
        #expect(isLink(output) && FileManager.default.contents(atPath: victim) == Self.victimBytes)
    }
}
