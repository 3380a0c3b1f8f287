import Foundation
import Testing

/// Checks on the source tree that keep the layering honest.
@Suite("Architecture")
struct ArchitectureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every platform name declared in a platform module (`PlatformID("…")`).
    static func declaredPlatformNames() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        var names: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where module.hasSuffix("Emulator") && module != "EmulatorCore" {
            let folder = sources.appendingPathComponent(module)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: /PlatformID\("([a-z0-9]+)"\)/) { names.append(String(match.1)) }
            }
        }
        return names
    }

    /// (file, line number, line) of every line in `module`'s sources that mentions one of `words`.
    static func mentions(of words: [String], in module: String) throws -> [String] {
        let folder = repository.appendingPathComponent("Sources").appendingPathComponent(module)
        var found: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where words.contains(where: { line.lowercased().contains($0) }) {
                found.append("\(module)/\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test("the platform modules declare their names, and the core, HTTP and storage layers name none of them")
    func coreNamesNoPlatform() throws {
        let names = try Self.declaredPlatformNames()
        #expect(names.count >= 4, "found platform names: \(names)")
        for module in ["EmulatorCore", "HTTPServer", "SQLiteStore"] {
            let lines = try Self.mentions(of: names, in: module)
            #expect(lines.isEmpty, "\(module) names a platform:\n\(lines.joined(separator: "\n"))")
        }
    }
}
