import Foundation
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Foundation's `Process.run()` on Linux can segfault a test process that holds many descriptors
/// (it over-reads a `/proc/self/fd` entry); one such crash ended a whole CI run. Children are
/// started through TestProcesses instead, and this keeps it that way in tests and sources alike.
@Suite("no Foundation Process")
struct NoFoundationProcessTests {
    @Test("no file under Sources/ or Tests/ makes a Foundation Process")
    func noProcess() throws {
        let root = LogFormatTests.repository
        let pattern = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])(Foundation\.)?Process\(\)"#)
        var offenders: [String] = []
        var scanned = 0
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let relative = walker.nextObject() as? String {
                guard relative.hasSuffix(".swift"), !relative.hasSuffix("NoFoundationProcessTests.swift") else { continue }
                let text = try String(contentsOfFile: base.appendingPathComponent(relative).path, encoding: .utf8)
                scanned += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let string = String(line)
                    if pattern.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil {
                        offenders.append("\(folder)/\(relative):\(number + 1)")
                    }
                }
            }
        }
        #expect(scanned > 100, "the walk found the sources")
        #expect(offenders.isEmpty, "use SpawnedProcess/ChildProcess from TestProcesses: \(offenders)")
    }

    #if os(Linux)
    @Test("a spawned child holds only its standard descriptors, not the sockets the suites left inheritable")
    func childInheritsNothing() throws {
        // A socket without close-on-exec, as the raw test clients open them.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        let child = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"], environment: [:])
        #expect(child.status == 0, "\(child.error)")
        let held = child.standard.split(separator: "\n").map(String.init).sorted()
        #expect(held == ["0", "1", "2"], "the child also held \(held); the parent's socket was \(socket)")
    }
    #endif
}
