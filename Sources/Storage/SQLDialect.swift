/// The SQL dialect a store speaks. The stores are written in SQLite's; `translate` turns that
/// into PostgreSQL's where the difference is mechanical, and refuses (naming the construct) where
/// a hand-written PostgreSQL variant is needed, so nothing is silently mistranslated.
public enum SQLDialect: Sendable, Equatable {
    /// SQLite: the SQL as written.
    case sqlite
    /// PostgreSQL 15 or later.
    case postgres

    /// `sql` (written for SQLite) in this dialect. For `.postgres`:
    /// - `?` and `?NNN` placeholders → `$1, $2 …` (never inside strings, quoted names or comments);
    /// - `INSERT OR IGNORE INTO …` → `INSERT INTO … ON CONFLICT DO NOTHING`;
    /// - `IFNULL(` → `COALESCE(`; two-argument `MIN(a, b)` / `MAX(a, b)` → `LEAST` / `GREATEST`;
    /// - `x IS ?` → `x IS NOT DISTINCT FROM $n`, `x IS NOT ?` → `x IS DISTINCT FROM $n`;
    /// - `? IS NULL` → `$n::text IS NULL` (the server cannot infer a bare parameter's type there);
    /// - `LIKE` → `ILIKE` (SQLite's LIKE ignores ASCII case); `BEGIN IMMEDIATE` → `BEGIN`.
    /// `COLLATE NOCASE` and `excluded.col` pass through: the PostgreSQL migrations create a `nocase` collation.
    public func translate(_ sql: String) throws -> String {
        guard self == .postgres else { return sql }
        return try PostgresTranslation(tokens: SQLTokenizer.tokens(sql)).output()
    }

    /// A PostgreSQL regular expression (for `~`) matching exactly what SQLite's `GLOB pattern`
    /// matches: `*`, `?`, `[…]` and `[^…]`, case-sensitive, the whole string (`(?!)`, matching
    /// nothing, for a pattern with an unclosed `[`).
    public static func postgresRegex(fromGlob glob: String) -> String {
        var regex = "^"
        var characters = Array(glob)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*": regex += ".*"
            case "?": regex += "."
            case "[":
                // A class runs to the next `]` that is not its first member; SQLite matches nothing
                // once it meets an unclosed one, so neither does the regex.
                var members = characters
                var negated = false
                if members.first == "^" { negated = true; members = members.dropFirst() }
                var body = ""
                if members.first == "]" { body += "\\]"; members = members.dropFirst() }
                guard let close = members.firstIndex(of: "]") else { return "(?!)" }
                for member in members[..<close] { body += member == "\\" ? "\\\\" : String(member) }
                regex += "[" + (negated ? "^" : "") + body + "]"
                characters = members[members.index(after: close)...]
            default:
                regex += "\\^$.|()+{}[]\\".contains(character) ? "\\" + String(character) : String(character)
            }
        }
        return regex + "$"
    }
}

/// A construct with no mechanical PostgreSQL equivalent: the store needs a hand-written variant.
public struct SQLDialectError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The SQLite construct found (`GLOB`, `rowid`, `INSERT OR REPLACE` …).
    public let construct: String
    /// What the PostgreSQL variant should use instead.
    public let advice: String

    /// The construct and the advice, as one sentence.
    public var description: String { "\(construct) has no mechanical PostgreSQL translation: \(advice)" }
}

/// One lexical piece of SQL.
struct SQLToken: Equatable {
    enum Kind: Equatable { case word, placeholder, string, quoted, space, comment, symbol }
    let kind: Kind
    let text: String
    /// For a word, its upper-cased text, for keyword comparisons.
    var upper: String { text.uppercased() }
}

/// Splits SQL into tokens, keeping `'…'` strings, `"…"` / `` `…` `` names and comments whole.
enum SQLTokenizer {
    static func tokens(_ sql: String) -> [SQLToken] {
        let characters = Array(sql)
        var tokens: [SQLToken] = []
        var index = 0
        func take(_ kind: SQLToken.Kind, while predicate: (Character) -> Bool, from start: Int) {
            var end = start
            while end < characters.count, predicate(characters[end]) { end += 1 }
            tokens.append(SQLToken(kind: kind, text: String(characters[index..<end])))
            index = end
        }
        func takeQuoted(_ kind: SQLToken.Kind, closing: Character) {
            var end = index + 1
            while end < characters.count {
                if characters[end] == closing {
                    // A doubled quote is an escaped quote inside the literal.
                    if end + 1 < characters.count, characters[end + 1] == closing, closing != "]" { end += 2; continue }
                    end += 1
                    break
                }
                end += 1
            }
            tokens.append(SQLToken(kind: kind, text: String(characters[index..<min(end, characters.count)])))
            index = end
        }
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "'": takeQuoted(.string, closing: "'")
            case "\"": takeQuoted(.quoted, closing: "\"")
            case "`": takeQuoted(.quoted, closing: "`")
            case "-" where next == "-": take(.comment, while: { $0 != "\n" }, from: index)
            case "/" where next == "*":
                var end = index + 2
                while end < characters.count, !(characters[end] == "*" && end + 1 < characters.count && characters[end + 1] == "/") { end += 1 }
                end = min(end + 2, characters.count)
                tokens.append(SQLToken(kind: .comment, text: String(characters[index..<end])))
                index = end
            case "?": take(.placeholder, while: { $0.isNumber }, from: index + 1)
            case _ where character.isWhitespace: take(.space, while: \.isWhitespace, from: index)
            case _ where character.isLetter || character == "_" || character.isNumber:
                take(.word, while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }, from: index)
            default:
                tokens.append(SQLToken(kind: .symbol, text: String(character)))
                index += 1
            }
        }
        return tokens
    }
}
