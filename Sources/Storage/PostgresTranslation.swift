/// The token rewrites behind `SQLDialect.postgres.translate`.
struct PostgresTranslation {
    let tokens: [SQLToken]

    // Constructs that need a hand-written PostgreSQL variant, and what to use there.
    private static let refused: [String: String] = [
        "GLOB": "use `~` with SQLDialect.postgresRegex(fromGlob:) applied to the pattern",
        "LAST_INSERT_ROWID": "use INSERT … RETURNING id",
        "STRFTIME": "use to_char / extract(epoch FROM …), or compute the time in Swift",
        "JULIANDAY": "use extract(epoch FROM …) / 86400 + 2440587.5, or compute the time in Swift",
        "DATETIME": "use to_char(… AT TIME ZONE 'UTC', …), or compute the time in Swift",
        "UNIXEPOCH": "use extract(epoch FROM now())",
        "PRAGMA": "read information_schema / pg_catalog instead",
        "SQLITE_MASTER": "read information_schema.tables instead",
        "SQLITE_SCHEMA": "read information_schema.tables instead",
        "GROUP_CONCAT": "use string_agg(expr::text, ',')",
        "ATTACH": "PostgreSQL has no attached databases; use a schema or a second connection",
        "DETACH": "PostgreSQL has no attached databases",
        "TYPEOF": "use pg_typeof (different type names)",
        "CHANGES": "use the statement's affected-row count",
    ]

    // These are refused only as calls: `datetime` or `changes` may well be a column's name.
    private static let functionsOnly: Set<String> = ["LAST_INSERT_ROWID", "STRFTIME", "JULIANDAY", "DATETIME", "UNIXEPOCH", "GROUP_CONCAT", "TYPEOF", "CHANGES"]

    private func nextSignificant(after index: Int) -> Int? {
        var next = index + 1
        while next < tokens.count, tokens[next].kind == .space || tokens[next].kind == .comment { next += 1 }
        return next < tokens.count ? next : nil
    }

    private func isWord(_ index: Int?, _ word: String) -> Bool {
        guard let index else { return false }
        return tokens[index].kind == .word && tokens[index].upper == word
    }

    private func isSymbol(_ index: Int?, _ symbol: String) -> Bool {
        guard let index else { return false }
        return tokens[index].kind == .symbol && tokens[index].text == symbol
    }

    /// Whether the parenthesised list opening at `open` has a comma at its own depth.
    private func hasTopLevelComma(from open: Int) -> Bool {
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .symbol {
            switch tokens[index].text {
            case "(": depth += 1
            case ")": depth -= 1; if depth == 0 { return false }
            case "," where depth == 1: return true
            default: break
            }
        }
        return false
    }

    func output() throws -> String {
        var out = ""
        var highest = 0 // SQLite numbers a bare `?` one past the highest number so far
        var pendingOnConflict = false // the current statement was INSERT OR IGNORE
        var depth = 0
        var skipUntil = -1
        func closeStatement() {
            guard pendingOnConflict else { return }
            // Before the statement's trailing spaces, so `…)\n;` reads `…) ON CONFLICT DO NOTHING\n;`.
            let trimmed = out.reversed().prefix { $0.isWhitespace }.count
            out.insert(contentsOf: " ON CONFLICT DO NOTHING", at: out.index(out.endIndex, offsetBy: -trimmed))
            pendingOnConflict = false
        }
        for (index, token) in tokens.enumerated() where index > skipUntil {
            switch token.kind {
            case .placeholder:
                let number: Int
                if token.text.count > 1, let explicit = Int(token.text.dropFirst()) { number = explicit } else { number = highest + 1 }
                highest = max(highest, number)
                out += "$\(number)"
                // `? IS [NOT] NULL`: a bare parameter there has no type to infer, so give it one.
                if let next = nextSignificant(after: index), isWord(next, "IS") {
                    let after = nextSignificant(after: next)
                    if isWord(after, "NULL") || (isWord(after, "NOT") && isWord(nextSignificant(after: after!), "NULL")) { out += "::text" }
                }
            case .word:
                let word = token.upper
                let next = nextSignificant(after: index)
                if let advice = Self.refused[word], !Self.functionsOnly.contains(word) || isSymbol(next, "(") {
                    throw SQLDialectError(construct: word, advice: advice)
                }
                switch word {
                case "INSERT" where isWord(next, "OR"):
                    let action = nextSignificant(after: next!)
                    if isWord(action, "IGNORE") {
                        out += token.text
                        pendingOnConflict = true
                        skipUntil = action!
                    } else if let action, tokens[action].kind == .word {
                        throw SQLDialectError(
                            construct: "INSERT OR \(tokens[action].upper)",
                            advice: "write INSERT … ON CONFLICT (key columns) DO UPDATE SET … (the conflict target must be named)")
                    } else {
                        out += token.text
                    }
                case "REPLACE" where isWord(next, "INTO"):
                    throw SQLDialectError(construct: "REPLACE INTO", advice: "write INSERT … ON CONFLICT (key columns) DO UPDATE SET …")
                case "RETURNING" where pendingOnConflict && depth == 0:
                    closeStatement()
                    out += token.text
                case "IFNULL" where isSymbol(next, "("): out += "COALESCE"
                case "MIN" where isSymbol(next, "(") && hasTopLevelComma(from: next!): out += "LEAST"
                case "MAX" where isSymbol(next, "(") && hasTopLevelComma(from: next!): out += "GREATEST"
                case "LIKE": out += "ILIKE"
                case "IS":
                    // `IS ?` / `IS NOT ?`: SQLite's null-safe equality.
                    if let next, tokens[next].kind == .placeholder {
                        out += "IS NOT DISTINCT FROM"
                    } else if isWord(next, "NOT"), let after = nextSignificant(after: next!), tokens[after].kind == .placeholder {
                        out += "IS DISTINCT FROM"
                        skipUntil = next!
                    } else {
                        out += token.text
                    }
                case "BEGIN" where isWord(next, "IMMEDIATE") || isWord(next, "EXCLUSIVE") || isWord(next, "DEFERRED"):
                    out += token.text
                    skipUntil = next!
                default: out += token.text
                }
            case .symbol:
                switch token.text {
                case "(": depth += 1
                case ")": depth -= 1
                case ";" where depth == 0: closeStatement()
                default: break
                }
                out += token.text
            case .string, .quoted, .space, .comment:
                out += token.text
            }
        }
        closeStatement()
        return out
    }
}
