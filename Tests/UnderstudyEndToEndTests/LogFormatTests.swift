import EmulatorCore
import Foundation
import HTTPServer
import TestProcesses
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real binary's output with `--log-format json`: every line a JSON object, numbers as numbers.
@Suite("JSON log format")
struct LogFormatTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("start-up, banner, requests and shutdown are all JSON lines; the banner is one object")
    func onlyJSONLines() async throws {
        let binary = Self.repository.appendingPathComponent(".build/debug/understudy")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "build the package first: \(binary.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logjson-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try await SpawnedServer.freePort()
        let process = try SpawnedProcess.start(
            binary.path,
            [
                "serve", "--port", String(port), "--https-port", "0", "--proxy-port", "0", "--log-format", "json",
                "--database", folder.appendingPathComponent("db.sqlite").path,
            ],
            environment: ProcessInfo.processInfo.environment, directory: Self.repository.path)
        #expect(try await SpawnedServer.waitUntilReady(port: port, process: process))
        _ = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/warplink/v1/sdk/validate")!) // any status: one request line
        process.send(SIGTERM)
        let finished = await process.collected()
        #expect(finished.ending == .exited(0))
        let text = finished.error + finished.standard
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count >= 4, "\(text)")
        var messages: [String] = []
        for line in lines {
            guard let object = try? JSONValue.parse(Data(line.utf8)), case .object(let members) = object else {
                Issue.record("not a JSON object: \(line)")
                continue
            }
            messages.append(members["message"]?.stringValue ?? "")
            if members["message"] == "request" { #expect(members["status"]?.intValue != nil) }
            if let readyMs = members["readyMs"] { #expect(readyMs.doubleValue != nil && readyMs.stringValue == nil) }
        }
        #expect(messages.contains("demo project ready"))
        #expect(messages.contains("HTTPS listening") && messages.contains("local CA"))
        #expect(messages.contains("request"))
    }
}
