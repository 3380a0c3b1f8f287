import Foundation

/// A project bundle: one JSON document holding a project's whole state (its rows in every
/// per-project table, clock, fault rules, credentials), as `GET /__admin/projects/{id}/export`
/// writes it and `POST /__admin/projects/import` and seed directories read it.
public struct ProjectBundle: Sendable {
    /// The `format` member of every bundle.
    public static let format = "understudy-bundle"
    /// The version this server writes.
    public static let currentVersion = 1
    /// The versions this server reads; older ones are migrated to `currentVersion` first.
    public static let supportedVersions = [0, 1]
    /// The server version recorded in `exportedBy` (kept equal to `understudy --version`; a test checks).
    public static let serverVersion = "0.1.0"

    /// One table's rows: values in `columns` order, `project_id` left out.
    struct Table: Sendable {
        var columns: [String]
        var rows: [[JSONValue]]
    }

    /// The exporting project's id (nil in a hand-written bundle that names none).
    var projectID: ProjectID?
    var name: String?
    var seed: UInt64?
    var createdAt: Date?
    var clock: ClockSettings
    /// Credentials per platform; a platform missing here gets fresh ones at import.
    var credentials: [PlatformID: [String: String]]
    var faultRules: [FaultRule]
    /// Tables by name.
    var tables: [String: Table]

    static let topLevelMembers: Set<String> = ["format", "version", "exportedAt", "exportedBy", "project", "clock", "credentials", "faultRules", "tables"]

    /// Parses and checks a bundle's shape (not yet its rows against the schema: that needs the
    /// database). Every problem is a 400 naming it.
    static func parse(_ data: Data, platforms: [PlatformID], tables allowed: [String]) throws -> ProjectBundle {
        let document: JSONValue
        do { document = try JSONValue.parse(data) } catch {
            throw AdminError.badRequest("The bundle is not JSON: \(error).", code: "invalid_bundle")
        }
        let migrated = try migrate(document)
        guard case .object(let members) = migrated else { throw invalid("The bundle must be a JSON object.") }
        if let unknown = members.keys.sorted().first(where: { !topLevelMembers.contains($0) }) {
            throw invalid("Unknown bundle member `\(unknown)`; a bundle has \(topLevelMembers.sorted().joined(separator: ", ")).")
        }
        var bundle = ProjectBundle(clock: .real, credentials: [:], faultRules: [], tables: [:])
        if let project = members["project"] { try bundle.readProject(project) }
        if let clock = members["clock"] { bundle.clock = try readClock(clock) }
        if let credentials = members["credentials"] { bundle.credentials = try readCredentials(credentials, platforms: platforms) }
        if let rules = members["faultRules"] {
            guard case .array(let items) = rules else { throw invalid("`faultRules` must be an array.") }
            bundle.faultRules = try items.enumerated().map { index, item in
                guard let rule = try? item.decode(FaultRule.self) else { throw invalid("`faultRules[\(index)]` is not a fault rule.") }
                if let problem = rule.validationProblem(platforms: platforms) { throw invalid("`faultRules[\(index)]`: \(problem)") }
                return rule
            }
        }
        if let tables = members["tables"] { bundle.tables = try readTables(tables, allowed: allowed) }
        return bundle
    }

    /// Brings a document of any supported version to the current one. Version 0 (the draft
    /// format) named the fault rules `faults`; that rename is its whole migration.
    static func migrate(_ document: JSONValue) throws -> JSONValue {
        guard case .object(var members) = document else { throw invalid("The bundle must be a JSON object.") }
        guard members["format"]?.stringValue == format else {
            throw invalid("`format` must be `\(format)`; got \(members["format"].map { String(decoding: $0.encoded(), as: UTF8.self) } ?? "none").")
        }
        let supported = supportedVersions.map(String.init).joined(separator: ", ")
        guard case .int(let number)? = members["version"] else {
            throw AdminError.badRequest("`version` must be an integer; this server reads versions \(supported).", code: "unsupported_version")
        }
        guard let version = Int(exactly: number), supportedVersions.contains(version) else {
            throw AdminError.badRequest("Bundle version \(number) is not supported; this server reads versions \(supported).", code: "unsupported_version")
        }
        if version == 0 {
            if let rules = members.removeValue(forKey: "faults") { members["faultRules"] = rules }
            members["version"] = .int(1)
        }
        return .object(members)
    }

    private mutating func readProject(_ value: JSONValue) throws {
        guard case .object(let members) = value else { throw Self.invalid("`project` must be an object.") }
        for key in members.keys.sorted() where !["id", "name", "seed", "createdAt"].contains(key) {
            throw Self.invalid("Unknown member `project.\(key)`; it has id, name, seed, createdAt.")
        }
        if let id = members["id"], id != .null {
            guard let text = id.stringValue, ProjectStore.isValidID(text) else {
                throw Self.invalid("`project.id` must be 1–64 characters of a–z, A–Z, 0–9, `_` and `-`.")
            }
            projectID = text
        }
        if let name = members["name"], name != .null {
            guard let text = name.stringValue else { throw Self.invalid("`project.name` must be a string.") }
            self.name = text
        }
        if let seed = members["seed"], seed != .null {
            guard case .int(let number) = seed else { throw Self.invalid("`project.seed` must be an integer.") }
            self.seed = UInt64(bitPattern: number)
        }
        if let created = members["createdAt"], created != .null {
            guard let text = created.stringValue, let date = Timestamp.parse(text) else { throw Self.invalid("`project.createdAt` must be an ISO 8601 date-time.") }
            createdAt = date
        }
    }

    private static func readClock(_ value: JSONValue) throws -> ClockSettings {
        let settings = try readClockMembers(value)
        // The same range as `PUT …/clock`: a bundle's clock is stored and rendered the same way.
        if let problem = settings.rangeProblem() { throw invalid("`clock`: \(problem)") }
        return settings
    }

    private static func readClockMembers(_ value: JSONValue) throws -> ClockSettings {
        guard case .object(let members) = value, let modeText = members["mode"]?.stringValue, let mode = ClockSettings.Mode(rawValue: modeText) else {
            throw invalid("`clock` must be an object whose `mode` is real, frozen or offset.")
        }
        switch mode {
        case .real: return .real
        case .frozen:
            guard let text = members["frozenAt"]?.stringValue, let date = Timestamp.parse(text) else {
                throw invalid("A frozen `clock` needs `frozenAt`, an ISO 8601 date-time.")
            }
            return ClockSettings(mode: .frozen, frozenAt: date, offsetSeconds: 0)
        case .offset:
            guard let seconds = members["offsetSeconds"]?.doubleValue, seconds.isFinite else {
                throw invalid("An offset `clock` needs `offsetSeconds`, a number.")
            }
            return ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: seconds)
        }
    }

    private static func readCredentials(_ value: JSONValue, platforms: [PlatformID]) throws -> [PlatformID: [String: String]] {
        guard case .object(let members) = value else { throw invalid("`credentials` must be an object of platforms.") }
        var credentials: [PlatformID: [String: String]] = [:]
        for (name, values) in members {
            guard platforms.contains(PlatformID(name)) else {
                throw invalid("Unknown platform `\(name)` in credentials; platforms are \(platforms.map(\.rawValue).joined(separator: ", ")).")
            }
            guard case .object(let pairs) = values else { throw invalid("`credentials.\(name)` must be an object of strings.") }
            var strings: [String: String] = [:]
            for (key, value) in pairs {
                guard let text = value.stringValue, !text.isEmpty else { throw invalid("`credentials.\(name).\(key)` must be a non-empty string.") }
                strings[key] = text
            }
            credentials[PlatformID(name)] = strings
        }
        return credentials
    }

    private static func readTables(_ value: JSONValue, allowed: [String]) throws -> [String: Table] {
        guard case .object(let members) = value else { throw invalid("`tables` must be an object of tables.") }
        var tables: [String: Table] = [:]
        for (name, table) in members {
            guard allowed.contains(name) else {
                throw invalid("Unknown table `\(name)`; a bundle's tables are \(allowed.joined(separator: ", ")).")
            }
            guard case .object(let parts) = table, case .array(let columnValues)? = parts["columns"], case .array(let rowValues)? = parts["rows"],
                parts.count == 2
            else {
                throw invalid("Table `\(name)` must be an object with exactly `columns` (names) and `rows` (arrays of values).")
            }
            let columns = try columnValues.map { column -> String in
                guard let text = column.stringValue else { throw invalid("Table `\(name)`: column names must be strings.") }
                return text
            }
            if Set(columns).count != columns.count { throw invalid("Table `\(name)` names a column twice.") }
            let rows = try rowValues.enumerated().map { index, row -> [JSONValue] in
                guard case .array(let values) = row, values.count == columns.count else {
                    throw invalid("Row \(index) of table `\(name)` must be an array of \(columns.count) values (one per column).")
                }
                return values
            }
            tables[name] = Table(columns: columns, rows: rows)
        }
        return tables
    }

    static func invalid(_ message: String) -> AdminError { AdminError.badRequest(message, code: "invalid_bundle") }
}
