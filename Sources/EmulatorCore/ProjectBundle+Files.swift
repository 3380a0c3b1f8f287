import Foundation
import HTTPServer
import Storage

/// A bundle file that could not be read, imported or written, and why.
public struct BundleFileError: Error, CustomStringConvertible, Sendable {
    /// The file's path.
    public var file: String
    /// What was wrong with it.
    public var reason: String

    /// `file: reason`.
    public var description: String { "\(file): \(reason)" }
}

/// What loading a seed directory did.
public struct SeedReport: Sendable, Equatable {
    /// Projects imported, by id, in file-name order.
    public var imported: [ProjectID] = []
    /// Of those, the ones that replaced a project already in the database.
    public var replaced: [ProjectID] = []
    /// Files skipped as invalid (with `skipInvalid`), as `file: reason`.
    public var skipped: [String] = []
    /// The file each imported project came from, by id.
    public var files: [ProjectID: String] = [:]

    /// Creates a report.
    public init(imported: [ProjectID] = [], replaced: [ProjectID] = [], skipped: [String] = [], files: [ProjectID: String] = [:]) {
        self.imported = imported
        self.replaced = replaced
        self.skipped = skipped
        self.files = files
    }
}

/// What `exportAll` wrote, and the files it could not write.
public struct BundleExportReport: Sendable {
    /// The paths written.
    public var written: [String] = []
    /// The files not written, each naming its path and why (a link in the way, an id that
    /// differs only in case from one already written).
    public var failures: [BundleFileError] = []
}

extension ProjectBundleStore {
    /// Imports every `*.json` of `directory`, sorted by name, as a project (id from the bundle, else
    /// the file name); a project of that id already in the database is replaced, so restarts are
    /// idempotent. All files go in one transaction: a bad file throws `BundleFileError` and nothing
    /// is imported, unless `skipInvalid`, which leaves that file out and imports the rest.
    public func seed(from directory: String, skipInvalid: Bool, now: Date = Date()) async throws -> SeedReport {
        let base = URL(fileURLWithPath: directory)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        } catch {
            throw BundleFileError(file: directory, reason: "the seed directory cannot be read (\(error.localizedDescription))")
        }
        var report = SeedReport()
        var parsed: [(file: String, bundle: ProjectBundle, id: ProjectID)] = []
        let (platformIDs, tables) = (platforms.map(\.id), projects.allProjectTables)
        for name in names {
            let path = base.appendingPathComponent(name).path
            do {
                // Read and parsed off the caller's thread, as an import through the control plane is.
                let bundle = try await Self.onParsingQueue { () throws -> ProjectBundle in
                    guard let data = FileManager.default.contents(atPath: path) else { throw ProjectBundle.invalid("the file cannot be read") }
                    return try ProjectBundle.parse(data, platforms: platformIDs, tables: tables)
                }
                let id = try resolvedID(bundle.projectID, requested: bundle.projectID ?? String(name.dropLast(5)))
                if let earlier = parsed.first(where: { $0.id.lowercased() == id.lowercased() }) {
                    let same = earlier.id == id ? "project `\(id)`" : "project `\(id)` (the same id ignoring case as `\(earlier.id)`)"
                    throw ProjectBundle.invalid("\(same) is also seeded by \(earlier.file)")
                }
                parsed.append((path, bundle, id))
            } catch {
                guard skipInvalid else { throw BundleFileError(file: path, reason: Self.reason(error)) }
                report.skipped.append("\(path): \(Self.reason(error))")
            }
        }
        try await journal.flush()
        let context = ImportContext(tables: projects.allProjectTables, platforms: platforms, services: services, fromSeedDirectory: true)
        let files = parsed
        let outcome = try await services.database.writeQueued { connection -> (records: [ProjectRecord], replaced: [ProjectID], skipped: [String]) in
            var records: [ProjectRecord] = [], replaced: [ProjectID] = [], skipped: [String] = []
            for file in files {
                let exists = try connection.queryOne("SELECT id FROM projects WHERE id = ?", file.id) != nil
                try connection.execute("SAVEPOINT seed_file")
                do {
                    records.append(try Self.apply(file.bundle, id: file.id, replacing: exists ? file.id : nil, context: context, connection: connection, now: now))
                    try connection.execute("RELEASE seed_file")
                    if exists { replaced.append(file.id) }
                } catch {
                    try connection.execute("ROLLBACK TO seed_file")
                    try connection.execute("RELEASE seed_file")
                    guard skipInvalid else { throw BundleFileError(file: file.file, reason: Self.reason(error)) }
                    skipped.append("\(file.file): \(Self.reason(error))")
                }
            }
            return (records, replaced, skipped)
        }
        try await adopt(outcome.records, replaced: outcome.replaced)
        report.imported = outcome.records.map(\.id)
        report.replaced = outcome.replaced
        report.skipped += outcome.skipped
        for file in files where report.imported.contains(file.id) { report.files[file.id] = file.file }
        return report
    }

    private static func reason(_ error: any Error) -> String { ErrorText.of(error) }

    /// Writes every project's bundle to `directory/<id>.json`, each atomically and never through
    /// or over a link (`AtomicFile`). A file that cannot be written is reported and the others
    /// are still written. Of ids that differ only in case (a database from before they had to
    /// differ otherwise) only the oldest project is written: on a case-insensitive file system
    /// (macOS's) the others would overwrite its file. `midWrite` runs halfway through each file
    /// (a test seam).
    public func exportAll(to directory: String, midWrite: (@Sendable () -> Void)? = nil) async throws -> BundleExportReport {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var report = BundleExportReport()
        var names: [String: ProjectID] = [:]
        for record in try await projects.list() {
            let path = URL(fileURLWithPath: directory).appendingPathComponent("\(record.id).json").path
            if let first = names[record.id.lowercased()] {
                report.failures.append(
                    BundleFileError(
                        file: path,
                        reason: "not written: project `\(record.id)` differs only in case from project `\(first)`, "
                            + "whose bundle a case-insensitive file system would store under the same name; rename one of them"))
                continue
            }
            names[record.id.lowercased()] = record.id
            guard let bundle = try await export(record.id) else { continue } // deleted meanwhile
            do {
                try AtomicFile.write(bundle, to: path, midWrite: midWrite)
                report.written.append(path)
            } catch {
                report.failures.append(BundleFileError(file: error.path, reason: error.reason))
            }
        }
        return report
    }
}
