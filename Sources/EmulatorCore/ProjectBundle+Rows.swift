import Foundation
import Storage

extension ProjectBundle {
    /// SQLite's type affinity of a declared column type (its documented rules, in order).
    enum Affinity {
        case integer, text, blob, real, numeric

        init(declared type: String) {
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.isEmpty || type.contains("BLOB") {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }

        /// What a value of this column must be, for the error message.
        var expected: String {
            switch self {
            case .integer: return "an integer"
            case .text: return "a string (or a {\"blob\": base64} object)"
            case .blob: return "a string, a number or a {\"blob\": base64} object"
            case .real, .numeric: return "a number"
            }
        }
    }

    /// Checks one table's rows against the live schema and returns the columns and rows to insert
    /// (with `project_id` set to `project`). Every problem is a 400 naming the table, row and column.
    static func checkedRows(
        _ table: Table, name: String, sourceProject: ProjectID?, project: ProjectID,
        connection: any StoreConnection
    ) throws -> (columns: [String], rows: [[JSONValue]]) {
        let schema = try TableRows.columns(of: name, connection: connection)
        var affinities: [Affinity] = []
        var projectColumn: Int?
        for (index, column) in table.columns.enumerated() {
            guard let live = schema.first(where: { $0.name == column }) else {
                throw invalid("Unknown column `\(column)` in table `\(name)`; its columns are \(schema.map(\.name).filter { $0 != "project_id" }.joined(separator: ", ")).")
            }
            if column == "project_id" { projectColumn = index }
            affinities.append(Affinity(declared: live.declaredType))
        }
        // A rowid alias (INTEGER PRIMARY KEY) may be left out: SQLite numbers the row.
        let rowidAlias = schema.filter { $0.primaryKey > 0 }.count == 1 ? schema.first { $0.primaryKey == 1 && $0.declaredType == "INTEGER" }?.name : nil
        for column in schema where column.notNull && !column.hasDefault && column.name != "project_id" && column.name != rowidAlias {
            if !table.columns.contains(column.name), !table.rows.isEmpty {
                throw invalid("Table `\(name)` leaves out column `\(column.name)`, which must have a value.")
            }
        }
        let notNull = table.columns.map { column in schema.first { $0.name == column }.map { $0.notNull && $0.name != rowidAlias } ?? false }
        var rows: [[JSONValue]] = []
        rows.reserveCapacity(table.rows.count)
        for (rowIndex, row) in table.rows.enumerated() {
            var values = row
            for (index, value) in row.enumerated() {
                let column = table.columns[index]
                if index == projectColumn {
                    // Rows claiming another project are refused rather than silently moved.
                    guard value.stringValue == sourceProject || value.stringValue == project else {
                        throw invalid("Row \(rowIndex) of table `\(name)` claims project_id \(String(decoding: value.encoded(), as: UTF8.self)), not the bundle's project.")
                    }
                    values[index] = .string(project)
                    continue
                }
                if value == .null {
                    if notNull[index] { throw invalid("Row \(rowIndex) of table `\(name)`: `\(column)` must not be null.") }
                    continue
                }
                guard accepts(value, affinities[index]) else {
                    throw invalid(
                        "Row \(rowIndex) of table `\(name)`: `\(column)` must be \(affinities[index].expected); got \(String(decoding: value.encoded(), as: UTF8.self).prefix(80))."
                    )
                }
                if let problem = timeProblem(column: column, value: value) {
                    throw invalid("Row \(rowIndex) of table `\(name)`: `\(column)` \(problem); got \(String(decoding: value.encoded(), as: UTF8.self).prefix(80)).")
                }
            }
            if projectColumn == nil { values.append(.string(project)) }
            rows.append(values)
        }
        return (projectColumn == nil ? table.columns + ["project_id"] : table.columns, rows)
    }

    /// Whether `value` is a faithful value of a column with `affinity` (what an export of such a
    /// column can contain; never a value SQLite would silently turn into something else).
    static func accepts(_ value: JSONValue, _ affinity: Affinity) -> Bool {
        switch value {
        case .null: return true
        case .array: return false
        case .object(let members):
            guard members.count == 1, let text = members["blob"]?.stringValue, Data(base64Encoded: text) != nil else { return false }
            return affinity == .text || affinity == .blob
        case .bool: return affinity == .integer || affinity == .numeric
        case .int: return affinity != .text
        // A non-integral REAL stays REAL even in an INTEGER column, so exports can hold one there.
        case .double(let number): return number.isFinite && affinity != .text
        case .string: return affinity == .text || affinity == .blob
        }
    }
}
