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

    /// Lines of string literals (one-line or multi-line) in `file` that hold SQL.
    static func sqlLines(in text: String) -> [(Int, String)] {
        let keywords = /\b(SELECT|INSERT INTO|INSERT OR|UPDATE [a-z_]+ SET|DELETE FROM|CREATE TABLE|CREATE INDEX| WHERE |JOIN [a-z_]+)\b/
        var found: [(Int, String)] = []
        var inMultiline = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let delimiters = line.components(separatedBy: "\"\"\"").count - 1
            let inString = inMultiline || (!trimmed.hasPrefix("//") && line.contains("\""))
            if inString, line.contains(keywords) { found.append((index + 1, trimmed)) }
            if delimiters % 2 == 1 { inMultiline.toggle() }
        }
        return found
    }

    @Test("a platform's SQL lives only in its Store files")
    func sqlOnlyInStores() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        var offenders: [String] = []
        var storeFiles = 0
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where module.hasSuffix("Emulator") && module != "EmulatorCore" {
            let folder = sources.appendingPathComponent(module)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
                if file == "Store.swift" || file.hasPrefix("Store+") {
                    storeFiles += 1
                    continue
                }
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (line, content) in Self.sqlLines(in: text) { offenders.append("\(module)/\(file):\(line): \(content)") }
            }
        }
        #expect(storeFiles >= 4)
        #expect(offenders.isEmpty, "SQL outside Store files:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the SQL scan sees one-line and multi-line literals and ignores comments")
    func sqlScanner() {
        let text = """
            // SELECT in a comment is fine
            let a = "SELECT id FROM t WHERE x = ?"
            let b = \"\"\"
                UPDATE links SET a = 1
                \"\"\"
            let c = "no sql here"
            """
        #expect(Self.sqlLines(in: text).map(\.0) == [2, 4])
    }
}
