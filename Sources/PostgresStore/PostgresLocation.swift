import Foundation

/// Where a PostgreSQL database is: a `postgres://` / `postgresql://` URL or a libpq keyword
/// string (`host=… port=… dbname=…`), parsed into libpq's connection keywords.
public struct PostgresLocation: Sendable, Equatable {
    /// How the location was written, so the redacted form reads like what the operator typed.
    public enum Form: Sendable, Equatable {
        /// `postgres://…` or `postgresql://…`.
        case url
        /// `key=value key='value' …`.
        case keywords
    }

    /// How the location was written.
    public let form: Form
    /// libpq keyword/value pairs in the order given (`host`, `port`, `dbname`, `user`, `password`, …).
    public let parameters: [(key: String, value: String)]

    /// Parses a URL or keyword string; throws a `PostgresLocationError` naming what is wrong.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let scheme = ["postgresql://", "postgres://"].first(where: { trimmed.lowercased().hasPrefix($0) }) {
            form = .url
            parameters = try Self.parseURL(String(trimmed.dropFirst(scheme.count)))
        } else {
            form = .keywords
            parameters = try Self.parseKeywords(trimmed)
        }
    }

    /// A location from keyword/value pairs, rendered (when redacted) in `form`.
    public init(form: Form, parameters: [(key: String, value: String)]) {
        self.form = form
        self.parameters = parameters
    }

    /// This location with `key` set to `value` (another database on the same server, say).
    public func setting(_ key: String, to value: String) -> PostgresLocation {
        PostgresLocation(form: form, parameters: parameters.filter { $0.key != key } + [(key, value)])
    }

    /// The last value given for `key` (libpq lets a later one win).
    public func value(_ key: String) -> String? { parameters.last { $0.key == key }?.value }

    /// The host (or socket directory) for messages; libpq's default is a local socket.
    public var host: String { value("host").flatMap { $0.isEmpty ? nil : $0 } ?? value("hostaddr") ?? "localhost" }
    /// The port for messages.
    public var port: String { value("port").flatMap { $0.isEmpty ? nil : $0 } ?? "5432" }
    /// The database name for messages; libpq defaults it to the user name.
    public var database: String { value("dbname").flatMap { $0.isEmpty ? nil : $0 } ?? user }
    /// The user for messages.
    public var user: String { value("user") ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres" }

    /// The password, if one was given (never printed; see `redactedDescription`).
    var password: String? { value("password") }

    /// The location as written but with any password replaced by `***`, for logs and errors.
    public var redactedDescription: String {
        switch form {
        case .url:
            var text = "postgres://"
            if let user = value("user") {
                text += Self.percentEncoded(user)
                if password != nil { text += ":***" }
                text += "@"
            }
            if let host = value("host") { text += host.contains(":") && !host.contains(",") ? "[\(host)]" : host }
            if let port = value("port") { text += ":" + port }
            if let database = value("dbname") { text += "/" + Self.percentEncoded(database) }
            let query = parameters.filter { !["user", "password", "host", "port", "dbname"].contains($0.key) }
            if !query.isEmpty { text += "?" + query.map { "\($0.key)=\(Self.percentEncoded($0.value))" }.joined(separator: "&") }
            return text
        case .keywords:
            return parameters.map { pair in
                let value = pair.key == "password" ? "***" : pair.value
                let plain = !value.isEmpty && value.allSatisfy { !$0.isWhitespace && $0 != "'" && $0 != "\\" }
                return "\(pair.key)="
                    + (plain
                        ? value
                        : "'"
                            + value.replacingOccurrences(of: "\\", with: "\\\\")
                            .replacingOccurrences(of: "'", with: "\\'") + "'")
            }.joined(separator: " ")
        }
    }

    /// Removes `secret` (and its percent-encoded form) from a message that might echo it.
    func redacting(_ message: String) -> String {
        guard let secret = password, !secret.isEmpty else { return message }
        return message.replacingOccurrences(of: secret, with: "***").replacingOccurrences(of: Self.percentEncoded(secret), with: "***")
    }

    // Everything that might be confused with a separator is escaped; letters, digits and -._~ stay.
    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? text
    }

    private static func decoded(_ text: Substring, _ what: String) throws -> String {
        guard let value = String(text).removingPercentEncoding else { throw PostgresLocationError("the URL's \(what) has a bad %-escape") }
        return value
    }

    // postgres://[user[:password]@][host][:port][,host[:port]…][/dbname][?key=value&…]
    private static func parseURL(_ rest: String) throws -> [(key: String, value: String)] {
        var rest = Substring(rest)
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") { query = rest[rest.index(after: mark)...]; rest = rest[..<mark] }
        // The last `@` ends the credentials, so a password with a raw `@` still parses as intended.
        var pairs: [(key: String, value: String)] = []
        let slash = rest.lastIndex(of: "@").map { at in rest[at...].firstIndex(of: "/") } ?? rest.firstIndex(of: "/")
        var authority = slash.map { rest[..<$0] } ?? rest
        let path = slash.map { rest[rest.index(after: $0)...] } ?? ""
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                pairs.append(("user", try decoded(credentials[..<colon], "user")))
                pairs.append(("password", try decoded(credentials[credentials.index(after: colon)...], "password")))
            } else if !credentials.isEmpty {
                pairs.append(("user", try decoded(credentials, "user")))
            }
        }
        var hosts: [String] = [], ports: [String] = []
        for entry in authority.split(separator: ",", omittingEmptySubsequences: false) where !authority.isEmpty {
            var host = entry, port: Substring = ""
            if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
                let after = host[host.index(after: close)...]
                guard after.isEmpty || after.hasPrefix(":") else { throw PostgresLocationError("the URL's host \(entry) is malformed") }
                port = after.dropFirst()
                host = host[host.index(after: host.startIndex)..<close]
            } else if let colon = host.lastIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            guard port.isEmpty || (port.allSatisfy(\.isNumber) && Int(port).map { (1...65_535).contains($0) } == true) else {
                throw PostgresLocationError("the URL's port \(port) is not a number from 1 to 65535")
            }
            hosts.append(try decoded(host, "host"))
            ports.append(String(port))
        }
        if hosts.contains(where: { !$0.isEmpty }) { pairs.append(("host", hosts.joined(separator: ","))) }
        if ports.contains(where: { !$0.isEmpty }) { pairs.append(("port", ports.joined(separator: ","))) }
        if !path.isEmpty { pairs.append(("dbname", try decoded(path, "database name"))) }
        for item in query.split(separator: "&") {
            guard let equals = item.firstIndex(of: "=") else { throw PostgresLocationError("the URL parameter \(item) has no value") }
            let key = try decoded(item[..<equals], "parameter name")
            guard PostgresKeywords.known.contains(key) else { throw PostgresLocationError("unknown connection parameter \(key)") }
            pairs.append((key, try decoded(item[item.index(after: equals)...], "parameter \(key)")))
        }
        return pairs
    }

    // key = value | key = 'quoted \' value', separated by whitespace (libpq's conninfo syntax).
    private static func parseKeywords(_ text: String) throws -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var characters = Substring(text)
        func skipSpaces() { characters = characters.drop { $0.isWhitespace } }
        skipSpaces()
        while !characters.isEmpty {
            let key = String(characters.prefix { !$0.isWhitespace && $0 != "=" })
            characters = characters.dropFirst(key.count)
            skipSpaces()
            guard characters.first == "=" else { throw PostgresLocationError("connection keyword \(key) is not followed by =") }
            guard PostgresKeywords.known.contains(key) else { throw PostgresLocationError("unknown connection keyword \(key)") }
            characters = characters.dropFirst()
            skipSpaces()
            var value = ""
            if characters.first == "'" {
                characters = characters.dropFirst()
                var closed = false
                while let character = characters.popFirst() {
                    if character == "\\", let next = characters.popFirst() { value.append(next); continue }
                    if character == "'" { closed = true; break }
                    value.append(character)
                }
                guard closed else { throw PostgresLocationError("the value of \(key) has no closing quote") }
            } else {
                while let character = characters.first, !character.isWhitespace {
                    characters = characters.dropFirst()
                    if character == "\\", let next = characters.popFirst() { value.append(next) } else { value.append(character) }
                }
            }
            pairs.append((key, value))
            skipSpaces()
        }
        guard !pairs.isEmpty else { throw PostgresLocationError("the connection string is empty") }
        return pairs
    }

    /// Pairs compare in order, key and value.
    public static func == (lhs: PostgresLocation, rhs: PostgresLocation) -> Bool {
        lhs.form == rhs.form && lhs.parameters.map(\.key) == rhs.parameters.map(\.key) && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }
}

/// A PostgreSQL location that cannot be parsed; the message never includes the password.
public struct PostgresLocationError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, for the operator.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// The connection keywords libpq understands (PostgreSQL 15–17); the first token of a keyword
/// string must be one of them for the value to be read as PostgreSQL rather than a file path.
enum PostgresKeywords {
    static let known: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
        "replication", "gssencmode", "sslmode", "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword",
        "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
        "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts",
    ]
}
