import Foundation
import PostgresStore
import Storage
import TestPostgres
import Testing

/// Every complete SQL statement written as a literal in Sources/, translated and PREPAREd on a
/// database built by the PostgreSQL migrations: the server checks syntax, tables, columns and
/// types. What cannot be translated or prepared must be on the known list below — the list of
/// statements that need a hand-written PostgreSQL variant — and nothing on the list may pass
/// silently (a fixed one comes off the list).
@Suite("The stores' SQL on PostgreSQL")
struct StoreSQLInventoryTests {
    /// One SQL literal found in the sources.
    struct Statement: CustomStringConvertible {
        let file: String
        let line: Int
        let sql: String
        var description: String { "\(file):\(line)" }
    }

    /// Complete statements: string literals (single-line or `"""` blocks) that start with a DML
    /// keyword and hold no interpolation (those are assembled at run time and checked elsewhere).
    static func statements() throws -> [Statement] {
        let sources = TestPostgres.repository.appendingPathComponent("Sources")
        var found: [Statement] = []
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files.sorted() where !file.hasPrefix("Storage/") && !file.hasPrefix("PostgresStore/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                let line = lines[index]
                if line.hasSuffix("\"\"\""), !line.trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") || line.trimmingCharacters(in: .whitespaces) == "\"\"\"" {
                    // A block literal opens at the end of this line and closes at a line starting with """.
                    var body: [String] = []
                    var end = index + 1
                    while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") { body.append(lines[end]); end += 1 }
                    found.append(Statement(file: file, line: index + 2, sql: body.joined(separator: "\n")))
                    index = end + 1
                    continue
                }
                var rest = Substring(line)
                while let open = rest.firstIndex(of: "\"") {
                    var cursor = rest.index(after: open), literal = ""
                    while cursor < rest.endIndex, rest[cursor] != "\"" {
                        if rest[cursor] == "\\", rest.index(after: cursor) < rest.endIndex {
                            cursor = rest.index(after: cursor)
                            literal += rest[cursor] == "(" ? "\\(" : String(rest[cursor])
                        } else {
                            literal.append(rest[cursor])
                        }
                        cursor = rest.index(after: cursor)
                    }
                    rest = cursor < rest.endIndex ? rest[rest.index(after: cursor)...] : ""
                    // A literal continued with `+` (here or at the start of the next line) is a fragment.
                    let after = rest.trimmingCharacters(in: .whitespaces)
                    let continued =
                        after.hasPrefix("+")
                        || (after.isEmpty && index + 1 < lines.count
                            && lines[index + 1].trimmingCharacters(in: .whitespaces).hasPrefix("+"))
                    if !continued { found.append(Statement(file: file, line: index + 1, sql: literal)) }
                }
                index += 1
            }
        }
        let keywords = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "]
        return found.filter { statement in
            let head = statement.sql.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            return keywords.contains { head.hasPrefix($0) } && !statement.sql.contains("\\(") && head.contains(" FROM ")
                || head.hasPrefix("INSERT ") && !statement.sql.contains("\\(")
        }
    }

    @Test("the inventory finds the stores' statements")
    func inventoryIsNotEmpty() throws {
        let statements = try Self.statements()
        #expect(statements.count > 100, "found only \(statements.count)")
        #expect(statements.contains { $0.sql.contains("INSERT OR IGNORE INTO asleep_chunks") })
    }

    @Test("each statement translates and prepares on PostgreSQL, or is a known hand-written variant")
    func prepareAll() throws {
        let statements = try Self.statements()
        var refused: [String] = [], rejected: [String] = []
        try TestPostgres.withConnection { connection in
            try Migrator(directory: Migrator.postgresDirectory(inside: TestPostgres.repository.appendingPathComponent("Migrations"))).migrate(connection)
            for (number, statement) in statements.enumerated() {
                let translated: String
                do { translated = try SQLDialect.postgres.translate(statement.sql) } catch let error as SQLDialectError {
                    refused.append("\(statement) \(error.construct)")
                    continue
                }
                do {
                    try connection.executeScript("PREPARE inventory_\(number) AS \(translated)")
                    try connection.executeScript("DEALLOCATE inventory_\(number)")
                } catch let error as PostgresError {
                    rejected.append("\(statement) \(error.message)")
                }
            }
        }
        print("SQL inventory: \(statements.count) statements, \(refused.count) need a variant, \(rejected.count) rejected by PostgreSQL")
        for line in refused + rejected { print("  \(line)") }
        // File and construct (or the server's complaint), without line numbers, so edits elsewhere
        // in a file do not churn the list.
        func key(_ line: String) -> String {
            let parts = line.split(separator: " ", maxSplits: 1)
            return String(parts[0].split(separator: ":")[0]) + " " + (parts.count > 1 ? parts[1].prefix(40).trimmingCharacters(in: .whitespaces) : "")
        }
        let found = (refused + rejected).map(key).sorted()
        #expect(found == Self.knownVariants.sorted(), "update knownVariants: a statement needs a new variant, or one was fixed")
    }

    /// Statements that need a hand-written PostgreSQL variant (or a rewrite valid in both dialects).
    static let knownVariants: [String] = []
}
