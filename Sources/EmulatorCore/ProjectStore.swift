import Foundation
import Storage
import Synchronization

/// A project (tenant) as stored.
public struct ProjectRecord: Sendable, Equatable {
    /// The id, e.g. `prj_k3v9x0a1b2c3` or `demo`.
    public var id: ProjectID
    /// A human name.
    public var name: String
    /// The seed that makes the project's ids repeatable, if one was given.
    public var seed: UInt64?
    /// When it was created (real time).
    public var createdAt: Date
    /// Its clock.
    public var clock: ClockSettings
    /// Credentials per platform, by the platform's own names.
    public var credentials: [PlatformID: [String: String]]
    /// Whether this is the demo project loaded from fixtures.
    public var isDemo: Bool
}

/// Creates, finds, resets and deletes projects, and provisions each platform's credentials.
public final class ProjectStore: Sendable {
    let services: EmulatorServices
    private let platforms: [any Platform]
    private let known = Mutex<Set<ProjectID>>([])

    /// Creates the store; call `loadAll()` before serving.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(services: EmulatorServices, platforms: [any Platform]) {
        self.services = services
        self.platforms = platforms
    }

    /// Tables the core keeps per project that reset and snapshots cover besides the platforms'.
    static let coreProjectTables = ["outbox", "findings", "check_settings"]

    /// Fills the in-memory caches (known ids, clocks, seeded generators) from the database.
    public func loadAll() async throws {
        let rows = try await services.database.read { try $0.query("SELECT * FROM projects") }
        for row in rows {
            guard let id = row.string("id") else { continue }
            known.withLock { _ = $0.insert(id) }
            services.clocks.update(id, try ClockStore.settings(from: row))
            if let seed = row["seed"].int { services.setGenerator(IDGenerator(seed: UInt64(bitPattern: Int64(seed)) &+ 1), for: id) }
        }
        for set in ProjectConflicts.idsDifferingOnlyInCase(rows.compactMap { $0.string("id") }) {
            services.logger.warning(
                "project ids differ only in case",
                [
                    ("ids", set.joined(separator: ", ")),
                    (
                        "effect",
                        "they were made before ids were unique ignoring case; each is still served by its exact id, but export on exit writes only the oldest of them (rename the others)"
                    ),
                ])
        }
    }

    /// Re-reads every project, for a database another instance shares: learns the projects it
    /// made, forgets those it deleted, takes its clock changes. Returns the ids that appeared or
    /// went. A known project keeps its id generator (re-seeding would repeat ids already drawn).
    public func refresh() async throws -> [ProjectID] {
        let rows = try await services.database.read { try $0.query("SELECT * FROM projects") }
        var ids = Set<ProjectID>()
        let before = known.withLock { $0 }
        for row in rows {
            let id: ProjectID = try row.decode("id")
            ids.insert(id)
            services.clocks.update(id, try ClockStore.settings(from: row))
            if !before.contains(id), let seed = row["seed"].int { services.setGenerator(IDGenerator(seed: UInt64(bitPattern: Int64(seed)) &+ 1), for: id) }
        }
        known.withLock { $0 = ids }
        for gone in before.subtracting(ids) { services.clocks.remove(gone) }
        return Array(before.symmetricDifference(ids))
    }

    /// Looks one project up in the database and, when it is there, caches it as `refresh` would:
    /// for a shared database, where another instance may have made it before its announcement
    /// arrived. Only ever adds, so it cannot undo what a concurrent resync learned.
    public func learn(_ id: ProjectID) async throws -> Bool {
        guard let row = try await services.database.read({ try $0.queryOne("SELECT * FROM projects WHERE id = ?", id) }) else { return false }
        let isNew = known.withLock { $0.insert(id).inserted }
        services.clocks.update(id, try ClockStore.settings(from: row))
        if isNew, let seed = row["seed"].int { services.setGenerator(IDGenerator(seed: UInt64(bitPattern: Int64(seed)) &+ 1), for: id) }
        return true
    }

    /// Whether a project exists (from the in-memory cache; no database access).
    public func exists(_ id: ProjectID) -> Bool { known.withLock { $0.contains(id) } }

    /// Creates a project with fresh credentials for every platform (overridable per name).
    public func create(
        id requestedID: ProjectID? = nil, name: String? = nil, seed: UInt64? = nil,
        credentialOverrides: [PlatformID: [String: String]] = [:], isDemo: Bool = false
    ) async throws -> ProjectRecord {
        var generator = IDGenerator(seed: seed)
        let id = requestedID ?? "prj_" + generator.lowerAlphanumeric(12)
        guard Self.isValidID(id) else {
            throw AdminError.badRequest("Project id `\(id)` must be 1–64 characters of a–z, A–Z, 0–9, `_` and `-`.")
        }
        var credentials: [PlatformID: [String: String]] = [:]
        for platform in platforms {
            var values = platform.makeCredentials(using: &generator)
            for (name, value) in credentialOverrides[platform.id] ?? [:] { values[name] = value }
            credentials[platform.id] = values
        }
        // Millisecond precision, as stored, so the returned record equals the one read back later.
        let createdAt = Timestamp.parse(Timestamp.format(Date())) ?? Date()
        let record = ProjectRecord(id: id, name: name ?? id, seed: seed, createdAt: createdAt, clock: .real, credentials: credentials, isDemo: isDemo)
        let platforms = self.platforms
        let allCredentials = credentials
        do {
            try await services.database.write { connection in
                try Self.checkConflicts(id, credentials: allCredentials, platforms: platforms, connection: connection)
                try connection.run(
                    "INSERT INTO projects (id, name, seed, created_at, is_demo) VALUES (?, ?, ?, ?, ?)",
                    record.id, record.name, seed.map { Int64(bitPattern: $0) }, Timestamp.format(record.createdAt), isDemo)
                try Self.provision(record.id, credentials: allCredentials, platforms: platforms, connection: connection, now: record.createdAt)
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            // The checks saw nothing, so another instance on a shared database wrote meanwhile: what
            // it wrote is committed now, and reading it names it instead of showing the database's text.
            let found = try await services.database.read { connection -> AdminError? in
                do {
                    try Self.checkConflicts(id, credentials: allCredentials, platforms: platforms, connection: connection)
                    return nil
                } catch let conflict as AdminError {
                    return conflict
                }
            }
            throw found
                ?? AdminError(
                    status: 409, code: "conflict",
                    message: "The project's credentials collide with records another project holds; choose other credential values.")
        }
        known.withLock { _ = $0.insert(id) }
        services.clocks.update(id, .real)
        // The project's own id stream starts after the draws used for its id and credentials.
        services.setGenerator(seed.map { IDGenerator(seed: $0 &+ 1) }, for: id)
        return record
    }

    /// 409 when the id is taken (ignoring case) or a credential belongs to another project.
    private static func checkConflicts(
        _ id: ProjectID, credentials: [PlatformID: [String: String]], platforms: [any Platform],
        connection: any StoreConnection
    ) throws {
        try ProjectConflicts.checkID(id, remedy: { _ in nil }, connection: connection)
        try ProjectConflicts.checkCredentials(credentials, platforms: platforms, owner: id, remedy: { _ in nil }, connection: connection)
    }

    private static func provision(
        _ project: ProjectID, credentials: [PlatformID: [String: String]], platforms: [any Platform],
        connection: any StoreConnection, now: Date
    ) throws {
        for platform in platforms {
            let values = credentials[platform.id] ?? [:]
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                try connection.run(
                    "INSERT INTO project_credentials (project_id, platform, name, value) VALUES (?, ?, ?, ?)",
                    project, platform.id.rawValue, name, value)
            }
            try platform.provision(project: project, credentials: values, connection: connection, now: now)
        }
    }

    /// All projects, oldest first.
    public func list() async throws -> [ProjectRecord] {
        try await services.database.read { connection in
            let rows = try connection.query("SELECT * FROM projects ORDER BY created_at, id")
            return try rows.map { try Self.record($0, connection: connection) }
        }
    }

    /// One project, or nil.
    public func get(_ id: ProjectID) async throws -> ProjectRecord? {
        try await services.database.read { connection in
            try connection.queryOne("SELECT * FROM projects WHERE id = ?", id).map { try Self.record($0, connection: connection) }
        }
    }

    private static func record(_ row: Row, connection: any StoreConnection) throws -> ProjectRecord {
        let id: String = try row.decode("id")
        var credentials: [PlatformID: [String: String]] = [:]
        for credential in try connection.query("SELECT platform, name, value FROM project_credentials WHERE project_id = ?", id) {
            let platform = PlatformID(try credential.decode("platform", as: String.self))
            credentials[platform, default: [:]][try credential.decode("name", as: String.self)] = try credential.decode("value", as: String.self)
        }
        let createdText: String = try row.decode("created_at")
        guard let createdAt = Timestamp.parse(createdText) else {
            throw RowDecodingError.wrongType(column: "created_at", expected: "an ISO 8601 time", found: createdText)
        }
        return ProjectRecord(
            id: id, name: try row.decode("name"), seed: try row.decodeIfPresent("seed", as: Int64.self).map { UInt64(bitPattern: $0) },
            createdAt: createdAt, clock: try ClockStore.settings(from: row), credentials: credentials, isDemo: try row.decode("is_demo"))
    }

    /// Deletes a project and everything it owns but its journal entries, which live in the
    /// journal's own database (`Journal.clear(project:)`). Returns false when it did not exist.
    public func delete(_ id: ProjectID) async throws -> Bool {
        let tables = allProjectTables
        let deleted = try await services.database.write { connection -> Bool in
            for table in tables.reversed() { try connection.run("DELETE FROM \(table) WHERE project_id = ?", id) }
            return try connection.run("DELETE FROM projects WHERE id = ?", id) > 0
        }
        known.withLock { _ = $0.remove(id) }
        services.clocks.remove(id)
        services.setGenerator(nil, for: id)
        return deleted
    }

    /// Clears a project's state (platform data, outbox, clock; the journal and faults are the
    /// caller's: `Journal.clear(project:)`, `FaultEngine.removeAll(project:)`) but keeps its
    /// credentials working, as if it had just been created. Snapshots are kept. The demo project
    /// gets its fixtures back, in the same transaction, so a reset never leaves it empty for good.
    public func reset(_ id: ProjectID) async throws {
        let tables = allProjectTables
        let platforms = self.platforms
        let now = Date()
        let isDemo = try await get(id)?.isDemo ?? false
        let fixtures = isDemo ? services.settings.fixturesDirectory : nil
        try await services.database.write { connection in
            for table in tables.reversed() { try connection.run("DELETE FROM \(table) WHERE project_id = ?", id) }
            try ClockStore.save(.real, project: id, connection: connection)
            try Self.reprovision(id, platforms: platforms, connection: connection, now: now)
            if let fixtures { try Self.loadFixtureFiles(from: fixtures, project: id, platforms: platforms, connection: connection, now: now) }
        }
        services.clocks.update(id, .real)
    }

    /// Re-creates each platform's credential rows from `project_credentials` (after a reset or restore).
    static func reprovision(_ id: ProjectID, platforms: [any Platform], connection: any StoreConnection, now: Date) throws {
        var credentials: [PlatformID: [String: String]] = [:]
        for row in try connection.query("SELECT platform, name, value FROM project_credentials WHERE project_id = ?", id) {
            let platform = PlatformID(try row.decode("platform", as: String.self))
            credentials[platform, default: [:]][try row.decode("name", as: String.self)] = try row.decode("value", as: String.self)
        }
        for platform in platforms {
            try platform.provision(project: id, credentials: credentials[platform.id] ?? [:], connection: connection, now: now)
        }
    }

    /// Makes a project written straight to the database (a bundle import) known to the caches,
    /// as `create` does for the projects it writes.
    func adopt(_ record: ProjectRecord) {
        known.withLock { _ = $0.insert(record.id) }
        services.clocks.update(record.id, record.clock)
        services.setGenerator(record.seed.map { IDGenerator(seed: $0 &+ 1) }, for: record.id)
    }

    /// Every per-project table, parents first: core tables, then each platform's.
    public var allProjectTables: [String] {
        Self.coreProjectTables + platforms.flatMap(\.projectTables)
    }

    /// Changes a project's clock and returns the new settings.
    public func setClock(_ id: ProjectID, _ settings: ClockSettings) async throws {
        try await services.database.write { connection in
            try ClockStore.save(settings, project: id, connection: connection)
        }
        services.clocks.update(id, settings)
    }

    /// Creates the demo project from `project.json` and each `<platform>.json` in `directory`,
    /// unless it already exists. Returns the demo project.
    public func loadDemo(from directory: String) async throws -> ProjectRecord? {
        let projectFile = URL(fileURLWithPath: directory).appendingPathComponent("project.json")
        guard let data = try? Data(contentsOf: projectFile) else { return nil } // no project.json: no demo project, by design
        let fixture = try JSONValue.parse(data)
        let id = fixture["id"]?.stringValue ?? "demo"
        if let existing = try await get(id) { return existing }
        var overrides: [PlatformID: [String: String]] = [:]
        for platform in platforms {
            if case .object(let members)? = fixture["credentials"]?[platform.id.rawValue] {
                overrides[platform.id] = members.compactMapValues(\.stringValue)
            }
        }
        let record: ProjectRecord
        do {
            record = try await create(id: id, name: fixture["name"]?.stringValue ?? "Demo", credentialOverrides: overrides, isDemo: true)
        } catch let error as AdminError {
            // At start this is all a user reads: say which project could not be made, and from what.
            throw AdminError(
                status: error.status, code: error.code, message: "The demo project (\(projectFile.path)) cannot be created: \(error.message)",
                details: error.details)
        }
        let platforms = self.platforms
        let now = Date()
        try await services.database.write { connection in
            try Self.loadFixtureFiles(from: directory, project: id, platforms: platforms, connection: connection, now: now)
        }
        return record
    }

    /// Loads each `<platform>.json` of `directory` into `project`.
    static func loadFixtureFiles(from directory: String, project: ProjectID, platforms: [any Platform], connection: any StoreConnection, now: Date) throws {
        for platform in platforms {
            let file = URL(fileURLWithPath: directory).appendingPathComponent("\(platform.id.rawValue).json")
            guard let data = try? Data(contentsOf: file) else { continue } // a platform without a fixtures file seeds nothing
            try platform.loadFixtures(try JSONValue.parse(data), project: project, connection: connection, now: now)
        }
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 || $0 == 45
            }
    }
}
