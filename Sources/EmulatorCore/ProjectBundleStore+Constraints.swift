import Foundation
import Storage

/// A bundle's rows that the database's constraints refused, told in the bundle's terms: which row
/// of which table, which key, and whether it repeats a row of the same bundle or one another
/// project holds. The database's own texts (`UNIQUE constraint failed: <table>.<column>`)
/// name its internals and never reach an answer; their column list is only read to find the key.
extension ProjectBundleStore {
    /// Inserts one table's checked rows (values in `columns` order) for `project`.
    static func insertRows(
        _ rows: [[JSONValue]], into table: String, columns: [String], project: ProjectID,
        connection: any StoreConnection
    ) throws {
        guard !rows.isEmpty else { return }
        let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let statement = "INSERT INTO \(table) (\(names)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        var refused: (row: Int, error: SQLiteError)?
        do {
            // In a savepoint of its own, so the transaction can still be read after a refusal:
            // PostgreSQL refuses every further statement of a transaction one has failed in.
            try connection.transaction(immediate: true) {
                for (index, row) in rows.enumerated() {
                    do {
                        try connection.run(statement, bindings: row.map(TableRows.sql))
                    } catch let error as SQLiteError where error.isConstraintViolation {
                        refused = (index, error)
                        throw error
                    }
                }
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            guard let refused else { throw error }
            throw try rowError(refused.error, row: refused.row, rows: rows, table: table, columns: columns, project: project, connection: connection)
        }
    }

    /// The answer for row `row` of `table`, which `error` refused.
    static func rowError(
        _ error: SQLiteError, row: Int, rows: [[JSONValue]], table: String, columns: [String], project: ProjectID,
        connection: any StoreConnection
    ) throws -> AdminError {
        let named = constrainedColumns(error)
        let place = "Row \(row) of table `\(table)`"
        guard error.isUniqueViolation else {
            switch error.code {
            case 1299: // NOT NULL
                return ProjectBundle.invalid("\(place): `\(named.first ?? "a column")` must not be null.")
            case 787: // FOREIGN KEY
                return ProjectBundle.invalid("\(place) refers to a row that is neither in the bundle nor in the project.")
            case 3091: // DATATYPE
                return ProjectBundle.invalid("\(place) has a value of the wrong type for its column.")
            default: // CHECK, and anything else the schema refuses
                return ProjectBundle.invalid("\(place) has a value its table does not allow (one outside a column's allowed values or range).")
            }
        }
        let key = named.filter { $0 != "project_id" }
        let positions = key.compactMap { columns.firstIndex(of: $0) }
        guard !key.isEmpty, positions.count == key.count else {
            return AdminError(
                status: 409, code: "conflict",
                message: "\(place) repeats a key of that table, in the bundle or in another project's rows.",
                details: ["table": .string(table), "row": .int(Int64(row))])
        }
        let values = positions.map { rows[row][$0] }
        let keyText = key.map { "`\($0)`" }.joined(separator: ", ")
        let valueText = values.map(shown).joined(separator: ", ")
        if let earlier = rows[..<row].firstIndex(where: { other in positions.map { other[$0] } == values }) {
            return duplicate(table: table, rows: (earlier, row), key: keyText, values: valueText)
        }
        // Read back who holds the key (the savepoint rolled this table's rows back, so only rows
        // of other projects, or of this project from an earlier table, can hold it).
        let conditions = key.map { "\"\($0)\" = ?" }.joined(separator: " AND ")
        let holder = try connection.query(
            "SELECT project_id FROM \(table) WHERE \(conditions) LIMIT 1",
            bindings: values.map(TableRows.sql)
        ).first?.string("project_id")
        switch holder {
        case let holder? where holder != project:
            return AdminError(
                status: 409, code: "conflict",
                message: "\(place) has the same \(keyText) (\(valueText)) as a row of project `\(holder)`; "
                    + "delete that project or import with `?replace=\(holder)`.",
                details: ["table": .string(table), "row": .int(Int64(row)), "project": .string(holder)])
        case .some:
            // Equal to the database though not to the byte (`1` and `1.0`): still the bundle's own repeat.
            return duplicate(table: table, rows: nil, key: keyText, values: valueText)
        case nil:
            return AdminError(
                status: 409, code: "conflict",
                message: "\(place) has the same \(keyText) (\(valueText)) as a row another project holds.",
                details: ["table": .string(table), "row": .int(Int64(row))])
        }
    }

    /// A key the bundle holds twice in one table: the bundle is wrong, whatever else is stored.
    private static func duplicate(table: String, rows: (Int, Int)?, key: String, values: String) -> AdminError {
        let which = rows.map { " (rows \($0.0) and \($0.1))" } ?? ""
        return ProjectBundle.invalid("Table `\(table)` of the bundle holds two rows with the same \(key) (\(values))\(which); each must be unique within the bundle.")
    }

    /// A constraint failure while giving the imported project its credential rows: a credential
    /// the bundle names is already in another project's records.
    static func credentialRowsConflict(_ error: SQLiteError) -> AdminError {
        AdminError(
            status: 409, code: "credential_conflict",
            message: "A credential of the bundle is already used by another project's records; delete that project or give the bundle other credentials.")
    }

    /// 404 for a `?replace=` naming no project, pointing at one whose id differs only in case.
    static func notFound(_ id: ProjectID, connection: any StoreConnection) throws -> AdminError {
        guard let similar = try ProjectConflicts.project(matching: id, connection: connection) else { return AdminError.notFound("Project `\(id)`") }
        return AdminError(
            status: 404, code: "not_found",
            message: "Project `\(id)` not found; project `\(similar)` differs only in case (ids are matched exactly).")
    }

    /// The columns a constraint failure names, read from the wording both backends share
    /// (`UNIQUE constraint failed: t.a, t.b`, `NOT NULL constraint failed: t.a`); none otherwise.
    static func constrainedColumns(_ error: SQLiteError) -> [String] {
        guard let colon = error.message.range(of: "constraint failed: ") else { return [] }
        let names = error.message[colon.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let columns = names.compactMap { name -> String? in
            let parts = name.split(separator: ".")
            return parts.count == 2 && !name.contains(" ") ? String(parts[1]) : nil
        }
        return columns.count == names.count ? columns : []
    }

    /// A value as a message quotes it, cut short.
    private static func shown(_ value: JSONValue) -> String {
        let text = value.stringValue ?? String(decoding: value.encoded(), as: UTF8.self)
        return "`" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "`"
    }
}
