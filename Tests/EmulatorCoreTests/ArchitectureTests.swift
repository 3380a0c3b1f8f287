import Foundation
import Testing

/// Checks on the source tree that keep the layering honest.
@Suite("Architecture")
struct ArchitectureTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Paths of every Swift file under `folder`, subfolders included, relative to it and sorted.
    static func swiftFiles(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The modules under `Sources`.
    static func modules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Sources").path).sorted()
    }

    /// Every platform name declared in a platform module (`PlatformID("…")`).
    static func declaredPlatformNames() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        var names: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) where module.hasSuffix("Emulator") && module != "EmulatorCore" {
            let folder = sources.appendingPathComponent(module)
            for file in swiftFiles(under: folder) {
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
        for file in swiftFiles(under: folder) {
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
        for module in ["EmulatorCore", "HTTPServer", "Storage", "PostgresStore"] {
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
            for file in Self.swiftFiles(under: folder) {
                let name = URL(fileURLWithPath: file).lastPathComponent
                if name == "Store.swift" || name.hasPrefix("Store+") {
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

    /// The files every platform module has, by role (`<Platform>Platform.swift` is checked apart).
    static let templateFiles = [
        "Caller.swift", "Routes.swift", "Wire.swift", "Service.swift", "Store.swift", "Records.swift", "Settings.swift", "Errors.swift",
        "Admin.swift", "OpenAPI.swift",
    ]
    /// The roles whose aspects live in `Role+Aspect.swift` files.
    static let aspectRoles = ["Routes", "Wire", "Service", "Store", "Records", "Admin", "OpenAPI"]

    /// What keeps `module` (a platform module with `files`) from the template: a missing role
    /// file, or a role's aspect file named with a type prefix (`AsleepService+Users.swift`).
    static func templateProblems(module: String, files: [String]) -> [String] {
        let platform = String(module.dropLast("Emulator".count))
        var problems: [String] = []
        for required in templateFiles + ["\(platform)Platform.swift"] where !files.contains(required) {
            problems.append("\(module): no \(required)")
        }
        for file in files {
            guard let plus = file.firstIndex(of: "+") else { continue }
            let type = String(file[..<plus])
            for role in aspectRoles where type != role && type.hasSuffix(role) && type.dropLast(role.count) == platform {
                problems.append("\(module)/\(file): name it \(role)+\(file[file.index(after: plus)...])")
            }
        }
        return problems
    }

    @Test("every platform module follows the template: one file per role, aspects as Role+Aspect.swift")
    func platformTemplate() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        var problems: [String] = []
        var platforms = 0
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where module.hasSuffix("Emulator") && module != "EmulatorCore" {
            platforms += 1
            let files = Self.swiftFiles(under: sources.appendingPathComponent(module)).map { URL(fileURLWithPath: $0).lastPathComponent }
            problems += Self.templateProblems(module: module, files: files)
        }
        #expect(platforms == 4)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the template check names a missing role file and a type-prefixed aspect file")
    func templateScanner() {
        let problems = Self.templateProblems(
            module: "DemoEmulator", files: Self.templateFiles.filter { $0 != "Caller.swift" } + ["DemoPlatform.swift", "DemoService+Users.swift", "Service+Users.swift"])
        #expect(problems == ["DemoEmulator: no Caller.swift", "DemoEmulator/DemoService+Users.swift: name it Service+Users.swift"])
    }

    @Test("no file under Sources is longer than 400 lines")
    func fileLength() throws {
        var long: [String] = []
        var files = 0
        for module in try Self.modules() {
            let folder = Self.repository.appendingPathComponent("Sources").appendingPathComponent(module)
            for file in Self.swiftFiles(under: folder) {
                files += 1
                let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n").count - 1
                if lines > 400 { long.append("\(module)/\(file): \(lines) lines") }
            }
        }
        #expect(files > 300, "the walk found only \(files) files")
        #expect(long.isEmpty, "split these by aspect (Type+Aspect.swift):\n\(long.joined(separator: "\n"))")
    }

    /// `file:line` of every public initializer of a class whose own stored properties hold a
    /// `Mutex` or an `Atomic`, when its attributes lack `@inline(never)`. Lexical: a class body is
    /// what its braces enclose, and its members are the lines one level inside.
    static func inlinableLockInitializers(in text: String, file: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        func isClass(_ line: String) -> Bool {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ").prefix(4)
            return words.contains("class") && !line.contains("func ") && !line.contains("class var") && !line.contains("class func")
        }
        func holdsLock(_ line: String) -> Bool {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let stored = ["let ", "var ", "private let ", "private var ", "fileprivate let ", "public let ", "internal let ", "package let "]
            return stored.contains { trimmed.hasPrefix($0) } && ["Mutex<", "Mutex(", "Atomic<", "Atomic("].contains { trimmed.contains($0) }
        }
        var found: [String] = []
        var index = 0
        while index < lines.count {
            guard isClass(lines[index]) else {
                index += 1
                continue
            }
            // The body: from the class's line to where its braces close.
            var depth = 0, started = false, members: [Int] = []
            var line = index
            while line < lines.count {
                let before = depth
                depth += lines[line].filter { $0 == "{" }.count - lines[line].filter { $0 == "}" }.count
                if depth > 0 { started = true }
                if before == 1 && line != index { members.append(line) }
                if started && depth <= 0 { break }
                line += 1
            }
            if members.contains(where: { holdsLock(lines[$0]) }) {
                for member in members
                where lines[member].trimmingCharacters(in: .whitespaces).hasPrefix("public init")
                    || lines[member].trimmingCharacters(in: .whitespaces).hasPrefix("public convenience init")
                {
                    var above = member - 1
                    var attributes = ""
                    while above > index {
                        let trimmed = lines[above].trimmingCharacters(in: .whitespaces)
                        guard trimmed.hasPrefix("@") || trimmed.hasPrefix("//") else { break }
                        attributes += trimmed
                        above -= 1
                    }
                    if !attributes.contains("@inline(never)") {
                        found.append("\(file):\(member + 1): \(lines[member].trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
            index = line + 1
        }
        return found
    }

    @Test("public initializers of classes holding a Mutex or an Atomic are @inline(never)")
    func lockHoldingInitializers() throws {
        // docs/notes/release-heap-corruption.md: inlined into another module, such an initializer
        // allocated the instance with the caller's idea of its layout, and release builds corrupted the heap.
        var offenders: [String] = []
        for module in try Self.modules() {
            let folder = Self.repository.appendingPathComponent("Sources").appendingPathComponent(module)
            for file in Self.swiftFiles(under: folder) {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                offenders += Self.inlinableLockInitializers(in: text, file: "\(module)/\(file)")
            }
        }
        #expect(offenders.isEmpty, "add @inline(never):\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the initializer check flags a lock-holding class's bare public init and passes a marked one")
    func initializerScanner() {
        let bare = """
            public final class Counter: Sendable {
                private let value = Mutex(0)
                /// Makes one.
                public init() {}
            }
            """
        #expect(Self.inlinableLockInitializers(in: bare, file: "f").count == 1)
        let marked = bare.replacingOccurrences(of: "    public init() {}", with: "    @inline(never) // see the note\n    public init() {}")
        #expect(Self.inlinableLockInitializers(in: marked, file: "f").isEmpty)
        let noLock = bare.replacingOccurrences(of: "Mutex(0)", with: "0")
        #expect(Self.inlinableLockInitializers(in: noLock, file: "f").isEmpty)
        let nestedStruct = marked.replacingOccurrences(of: "    private let value", with: "    public struct Part {\n        public init() {}\n    }\n    private let value")
        #expect(Self.inlinableLockInitializers(in: nestedStruct, file: "f").isEmpty, "a nested struct's init is not the class's")
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
