import Foundation
import Storage
import Synchronization

/// Each project's clock settings, cached in memory for the request path and persisted in `projects`.
public final class ClockStore: Sendable {
    private let cache = Mutex<[ProjectID: ClockSettings]>([:])

    /// An empty store; `ProjectStore` fills it as projects are loaded or created.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init() {}

    /// The project's current time (real time for an unknown or nil project).
    public func now(for project: ProjectID?) -> Date {
        let real = Date()
        guard let project else { return real }
        return cache.withLock { $0[project] }?.now(real: real) ?? real
    }

    /// The project's settings (real when unknown).
    public func settings(for project: ProjectID) -> ClockSettings {
        cache.withLock { $0[project] } ?? .real
    }

    /// Replaces the cached settings (after they were written to the database).
    public func update(_ project: ProjectID, _ settings: ClockSettings) {
        cache.withLock { $0[project] = settings }
    }

    /// Forgets a deleted project.
    public func remove(_ project: ProjectID) {
        _ = cache.withLock { $0.removeValue(forKey: project) }
    }

    /// The settings stored for `project` (nil for an unknown project): for a database other
    /// instances share, where the cache learns their changes only when an announcement arrives.
    public static func stored(_ project: ProjectID, connection: any StoreConnection) throws -> ClockSettings? {
        try connection.queryOne("SELECT * FROM projects WHERE id = ?", project).map(settings(from:))
    }

    /// Persists settings for `project` on `connection` (inside the caller's transaction).
    public static func save(_ settings: ClockSettings, project: ProjectID, connection: any StoreConnection) throws {
        try connection.run(
            "UPDATE projects SET clock_mode = ?, clock_frozen_at = ?, clock_offset_seconds = ? WHERE id = ?",
            settings.mode.rawValue, settings.frozenAt?.timeIntervalSince1970, settings.offsetSeconds, project)
    }

    /// Why `project`'s clock is outside `ClockSettings.maximumShiftSeconds` (a stored value from
    /// before the bound, or a doctored database), nil when it is inside or the project is unknown.
    public func rangeProblem(for project: ProjectID?) -> String? {
        guard let project, let settings = cache.withLock({ $0[project] }) else { return nil }
        return settings.rangeProblem()
    }

    /// Reads settings from a `projects` row; a missing, mistyped or unknown mode throws. Numbers
    /// are taken as stored, however large (a NULL offset, which SQLite makes of NaN, reads as
    /// NaN): loading never fails on them, and `rangeProblem` makes the project's routes answer a
    /// 409 until its clock is set again.
    public static func settings(from row: Row) throws -> ClockSettings {
        let modeText: String = try row.decode("clock_mode")
        guard let mode = ClockSettings.Mode(rawValue: modeText) else {
            throw RowDecodingError.wrongType(column: "clock_mode", expected: "real, frozen or offset", found: modeText)
        }
        let frozen = try row.decodeIfPresent("clock_frozen_at", as: Double.self)
        let offset = try row.decodeIfPresent("clock_offset_seconds", as: Double.self) ?? .nan
        return ClockSettings(mode: mode, frozenAt: frozen.map(Date.init(timeIntervalSince1970:)), offsetSeconds: mode == .offset ? offset : 0)
    }
}
