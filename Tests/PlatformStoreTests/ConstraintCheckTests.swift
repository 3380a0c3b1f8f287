import Foundation
import Storage
import Testing

/// SQLite 3.40 checks a constraint `x IN ('a', 'b', 'c')` of three or more constants by building a
/// temporary B-tree of the list, on every insert and on every update of `x`: that more than doubled
/// what a plain insert costs (a WarpLink resolve paid it for each click). `x = 'a' OR x = 'b' OR
/// x = 'c'` compares in place. Read from the programs SQLite compiles (`EXPLAIN`), not timed.
@Suite("Constraint checks build no temporary tables")
struct ConstraintCheckTests {
    /// Whether SQLite's program for `sql` opens a temporary B-tree.
    static func opensTemporaryTable(_ sql: String, on connection: SQLiteConnection) throws -> Bool {
        try connection.query("EXPLAIN " + sql, bindings: []).contains { $0.string("opcode") == "OpenEphemeral" }
    }

    @Test("no insert into a table, and no update of any of its columns, opens a temporary B-tree")
    func noTemporaryTables() throws {
        let file = try MigratedSQLiteFile(name: "checks")
        let connection = file.connection
        let tables = try connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            bindings: []
        ).compactMap { $0.string("name") }
        #expect(tables.count > 30 && tables.contains("warplink_clicks"))
        var offenders: [String] = []
        for table in tables where table != "projects" {
            let insert = "INSERT INTO \"\(table)\" DEFAULT VALUES"
            if try Self.opensTemporaryTable(insert, on: connection) { offenders.append(insert) }
            // Keys and references are left out: changing those in every row needs a temporary
            // table of its own, whatever the checks.
            let columns = try connection.query(
                """
                SELECT name FROM pragma_table_info(?) WHERE pk = 0 AND name NOT IN (SELECT "from" FROM pragma_foreign_key_list(?))
                """, bindings: [table, table]
            ).compactMap { $0.string("name") }
            for column in columns {
                let update = "UPDATE \"\(table)\" SET \"\(column)\" = NULL"
                if try Self.opensTemporaryTable(update, on: connection) { offenders.append(update) }
            }
        }
        #expect(offenders == [])
        // `projects` keeps its three-value list (every table references it, so it is not rebuilt):
        // it shows the check above sees what it looks for.
        #expect(try Self.opensTemporaryTable("INSERT INTO projects DEFAULT VALUES", on: connection))
        #expect(try Self.opensTemporaryTable("UPDATE projects SET clock_mode = NULL", on: connection))
    }
}
