/// What `--database` names: a SQLite file (the embedded default) or a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable {
    /// A SQLite file path, as given.
    case sqlite(String)
    /// A PostgreSQL database.
    case postgres(PostgresLocation)

    /// Reads a `--database` value: `postgres://…`, `postgresql://…` or a libpq keyword string
    /// (its first token a libpq keyword followed by `=`) is PostgreSQL; anything else is a file path.
    /// Throws only for a value that is PostgreSQL by that rule but malformed.
    public init(_ value: String) throws {
        if Self.namesPostgres(value) {
            self = .postgres(try PostgresLocation(value))
        } else {
            self = .sqlite(value)
        }
    }

    /// Whether `value` is PostgreSQL by the rule above, without parsing the rest of it.
    public static func namesPostgres(_ value: String) -> Bool {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") { return true }
        // `data/a=b.sqlite` and `./host=x` stay files: their first token is not a bare keyword.
        let key = trimmed.prefix { !$0.isWhitespace && $0 != "=" }
        let after = trimmed.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
        return after.first == "=" && PostgresKeywords.known.contains(String(key))
    }

    /// A description safe for logs: the path, or the PostgreSQL location without its password.
    public var redactedDescription: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let location): return location.redactedDescription
        }
    }
}
