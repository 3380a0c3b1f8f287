import Foundation
import Storage

/// Exports projects as bundles and imports bundles as projects, each import in one transaction.
public final class ProjectBundleStore: Sendable {
    let services: EmulatorServices
    let projects: ProjectStore
    let faults: FaultEngine
    let journal: Journal
    let platforms: [any Platform]

    /// The bundles of `emulator`'s projects.
    public convenience init(emulator: Emulator) {
        self.init(services: emulator.services, projects: emulator.projects, faults: emulator.faults, journal: emulator.journal, platforms: emulator.platforms)
    }

    init(services: EmulatorServices, projects: ProjectStore, faults: FaultEngine, journal: Journal, platforms: [any Platform]) {
        self.services = services
        self.projects = projects
        self.faults = faults
        self.journal = journal
        self.platforms = platforms
    }

    // MARK: Export

    /// The project's bundle (sorted keys, rows in primary-key order), or nil when there is no such project.
    ///
    /// The document is built and encoded on the reader's own queue, and its tree freed there: for a
    /// 30 MB bundle either was a few hundred milliseconds, which the event loop that asked spent.
    public func export(_ project: ProjectID, now: Date = Date()) async throws -> Data? {
        let tables = projects.allProjectTables
        let rules = try await faults.list(project: project).map(Self.portable).map { try JSONValue.from($0) }
        return try await services.database.readOnPool { connection -> Data? in
            guard let row = try connection.queryOne("SELECT * FROM projects WHERE id = ?", project) else { return nil }
            var members: [String: JSONValue] = [:]
            var meta: [String: JSONValue] = ["id": .string(project), "name": TableRows.json(row["name"]), "createdAt": TableRows.json(row["created_at"])]
            if case .integer(let seed) = row["seed"] { meta["seed"] = .int(seed) }
            members["project"] = .object(meta)
            members["clock"] = Self.render(try ClockStore.settings(from: row))
            var credentials: [String: JSONValue] = [:]
            for credential in try connection.query("SELECT platform, name, value FROM project_credentials WHERE project_id = ?", project) {
                let platform: String = try credential.decode("platform")
                var values = credentials[platform]?.objectValue ?? [:]
                values[try credential.decode("name", as: String.self)] = .string(try credential.decode("value"))
                credentials[platform] = .object(values)
            }
            members["credentials"] = .object(credentials)
            var copies: [String: JSONValue] = [:]
            for table in tables {
                let columns = try TableRows.columns(of: table, connection: connection)
                let names = columns.map(\.name).filter { $0 != "project_id" }
                let rows = try connection.query(
                    "SELECT \(names.map { "\"\($0)\"" }.joined(separator: ", ")) FROM \(table) WHERE project_id = ? ORDER BY \(TableRows.primaryKeyOrder(columns))", project)
                guard !rows.isEmpty else { continue } // empty tables are left out: bundles stay small and hand-editable
                copies[table] = ["columns": .array(names.map(JSONValue.string)), "rows": .array(rows.map { .array($0.values.map(TableRows.json)) })]
            }
            members["tables"] = .object(copies)
            members["format"] = .string(ProjectBundle.format)
            members["version"] = .int(Int64(ProjectBundle.currentVersion))
            members["exportedAt"] = .string(Timestamp.format(now))
            members["exportedBy"] = .string("understudy \(ProjectBundle.serverVersion)")
            members["faultRules"] = .array(rules)
            return JSONValue.object(members).encoded()
        }
    }

    /// A rule as a bundle keeps it: what was submitted and its counters, without the server's id,
    /// project and expiry (the lifetime restarts at import, so an old bundle's rules still run).
    static func portable(_ rule: FaultRule) -> FaultRule {
        var copy = rule
        copy.id = nil
        copy.projectID = nil
        copy.expiresAt = nil
        return copy
    }

    static func render(_ clock: ClockSettings) -> JSONValue {
        switch clock.mode {
        case .real: return ["mode": "real"]
        case .frozen: return ["mode": "frozen", "frozenAt": .string(Timestamp.format(clock.frozenAt ?? Date()))]
        case .offset: return ["mode": "offset", "offsetSeconds": .double(clock.offsetSeconds)]
        }
    }

    // MARK: Import

    /// Imports `data` as a project with id `id` (else the bundle's, else a fresh one), or in place
    /// of project `replacing`, in one transaction; throws `AdminError` (4xx) naming any problem.
    ///
    /// Neither the parse nor the write runs on the caller's thread, an event loop's when a request
    /// asks: a 30 MB bundle is most of a second of each, during which that loop's other
    /// connections (health probes among them) would wait unread.
    public func importBundle(_ data: Data, id requestedID: ProjectID? = nil, replacing: ProjectID? = nil, now: Date = Date()) async throws -> ProjectRecord {
        let parsed = try await Self.parse(data, platforms: platforms.map(\.id), tables: projects.allProjectTables)
        if let requestedID, let replacing, requestedID != replacing {
            throw AdminError.badRequest("`id` and `replace` name different projects; a replaced project keeps its id.")
        }
        let id = try resolvedID(parsed.projectID, requested: replacing ?? requestedID)
        try await journal.flush()
        let context = ImportContext(tables: projects.allProjectTables, platforms: platforms, services: services)
        let record = try await services.database.writeQueued { connection in
            let bundle = try parsed.take()
            defer { Self.release(bundle) }
            return try Self.apply(bundle, id: id, replacing: replacing, context: context, connection: connection, now: now)
        }
        try await adopt([record], replaced: replacing.map { [$0] } ?? [])
        return record
    }

    func resolvedID(_ bundleProjectID: ProjectID?, requested: ProjectID?) throws -> ProjectID {
        if let requested {
            guard ProjectStore.isValidID(requested) else {
                throw AdminError.badRequest("Project id `\(requested)` must be 1–64 characters of a–z, A–Z, 0–9, `_` and `-`.")
            }
            return requested
        }
        if let id = bundleProjectID { return id }
        return services.generateIDs(for: nil) { "prj_" + $0.lowerAlphanumeric(12) }
    }

    /// What `apply` needs besides the connection (all `Sendable`, for the writer queue).
    struct ImportContext: Sendable {
        var tables: [String]
        var platforms: [any Platform]
        var services: EmulatorServices
        /// Whether the bundle is a seed directory's file, whose remedies differ from a request's.
        var fromSeedDirectory = false

        /// How to get past an id that `existing` already holds.
        func idRemedy(_ id: ProjectID, existing: ProjectID) -> String {
            if fromSeedDirectory { return "rename the seed file or change the bundle's `project.id`" }
            return existing == id ? "import with `?replace=\(id)` to replace it" : "import with `?id=` to give the bundle's project another id"
        }

        /// How to get past a credential that project `holder` already uses.
        func credentialRemedy(_ holder: ProjectID) -> String {
            fromSeedDirectory ? "delete that project or take the credentials out of the seed file" : "delete that project or import with `?replace=\(holder)`"
        }
    }

    /// Writes the bundle as project `id` on `connection` (inside the caller's transaction).
    static func apply(
        _ bundle: ProjectBundle, id: ProjectID, replacing: ProjectID?, context: ImportContext,
        connection: any StoreConnection, now: Date
    ) throws -> ProjectRecord {
        var credentials = bundle.credentials
        // A project made before ids were unique ignoring case keeps what sets it apart (migration 0300).
        var legacyCaseKey = ""
        if let replacing {
            guard let replaced = try connection.queryOne("SELECT legacy_case_key FROM projects WHERE id = ?", replacing) else {
                throw try notFound(replacing, connection: connection)
            }
            legacyCaseKey = try replaced.decode("legacy_case_key")
            // A bundle without a platform's credentials keeps the replaced project's, so re-seeding a
            // hand-written bundle at each restart does not change the keys an app was configured with.
            for row in try connection.query("SELECT platform, name, value FROM project_credentials WHERE project_id = ?", replacing) {
                let platform = PlatformID(try row.decode("platform", as: String.self))
                guard bundle.credentials[platform] == nil else { continue }
                credentials[platform, default: [:]][try row.decode("name", as: String.self)] = try row.decode("value", as: String.self)
            }
            for table in context.tables.reversed() { try connection.run("DELETE FROM \(table) WHERE project_id = ?", replacing) }
            for table in ["fault_rules", "snapshots", "project_credentials"] {
                try connection.run("DELETE FROM \(table) WHERE project_id = ?", replacing)
            }
            try connection.run("DELETE FROM projects WHERE id = ?", replacing)
        } else {
            try ProjectConflicts.checkID(id, remedy: { context.idRemedy(id, existing: $0) }, connection: connection)
        }
        var generator = IDGenerator(seed: bundle.seed)
        for platform in context.platforms where credentials[platform.id] == nil {
            credentials[platform.id] = platform.makeCredentials(using: &generator)
        }
        try ProjectConflicts.checkCredentials(
            credentials, platforms: context.platforms, owner: id,
            remedy: context.credentialRemedy, connection: connection)
        let createdAt = Timestamp.parse(Timestamp.format(bundle.createdAt ?? now)) ?? now
        let record = ProjectRecord(
            id: id, name: bundle.name ?? id, seed: bundle.seed, createdAt: createdAt, clock: bundle.clock,
            credentials: credentials, isDemo: false)
        try connection.run(
            "INSERT INTO projects (id, name, seed, created_at, is_demo, legacy_case_key) VALUES (?, ?, ?, ?, 0, ?)",
            id, record.name, bundle.seed.map { Int64(bitPattern: $0) }, Timestamp.format(createdAt), legacyCaseKey)
        try ClockStore.save(bundle.clock, project: id, connection: connection)
        for platform in context.platforms {
            for (name, value) in (credentials[platform.id] ?? [:]).sorted(by: { $0.key < $1.key }) {
                try connection.run("INSERT INTO project_credentials (project_id, platform, name, value) VALUES (?, ?, ?, ?)", id, platform.id.rawValue, name, value)
            }
        }
        for table in context.tables {
            guard let copy = bundle.tables[table] else { continue }
            let checked = try ProjectBundle.checkedRows(copy, name: table, sourceProject: bundle.projectID, project: id, connection: connection)
            try insertRows(checked.rows, into: table, columns: checked.columns, project: id, connection: connection)
        }
        do {
            // Credentials whose rows the bundle lacks (a hand-written bundle) get them, as at creation.
            try ProjectStore.reprovision(id, platforms: context.platforms, connection: connection, now: now)
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw credentialRowsConflict(error)
        }
        // PostgreSQL checked every reference as the rows went in (a dangling one failed its insert).
        for table in context.tables where connection.dialect == .sqlite {
            if let dangling = try connection.query("PRAGMA foreign_key_check(\"\(table)\")").first {
                throw ProjectBundle.invalid("Table `\(table)` has a row whose reference to `\(dangling.string("parent") ?? "?")` points at nothing.")
            }
        }
        for rule in bundle.faultRules {
            var stored = rule
            stored.id = "flt_" + context.services.generateIDs(for: nil) { $0.lowerAlphanumeric(12) }
            stored.projectID = id
            let ttl = rule.ttlSeconds ?? FaultEngine.defaultTTL
            let expires = now.addingTimeInterval(ttl)
            stored.ttlSeconds = ttl
            stored.expiresAt = Timestamp.format(expires)
            try connection.run(
                "INSERT INTO fault_rules (id, project_id, rule, created_at, expires_at, matched, hits) VALUES (?, ?, ?, ?, ?, ?, ?)",
                stored.id, id, try JSONEncoder().encode(stored), Timestamp.format(now), expires.timeIntervalSince1970,
                rule.matched ?? 0, rule.hits ?? 0)
        }
        return record
    }

    /// After a committed import: the caches learn the new projects and forget the replaced ones,
    /// exactly as after a snapshot restore.
    func adopt(_ records: [ProjectRecord], replaced: [ProjectID]) async throws {
        for id in replaced {
            faults.forget(project: id)
            services.projectCache.invalidate(project: id)
        }
        for record in records {
            projects.adopt(record)
            services.projectCache.invalidate(project: record.id)
            try await faults.reload(project: record.id)
        }
        // The journal keeps its entries in a database of its own: the replaced projects' go now.
        for id in replaced { try await journal.clear(project: id) }
        for id in Set(replaced + records.map(\.id)) {
            for platform in platforms { await platform.projectStateDidChange(id) }
        }
    }
}
