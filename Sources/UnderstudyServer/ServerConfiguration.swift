import EmulatorCore
import Foundation
import HTTPServer
import PostgresStore

/// Everything `understudy serve` can be told, with its defaults.
///
/// Precedence: command-line flags beat `UNDERSTUDY_*` environment variables, which beat the
/// configuration file, which beats the defaults.
public struct ServerConfiguration: Sendable, Equatable {
    /// Listen address.
    public var host = "127.0.0.1"
    /// Listen port (0 picks a free one).
    public var port = 8080
    /// SQLite file; its folder is created.
    public var databasePath = "data/understudy.sqlite"
    /// Configuration file (JSON).
    public var configPath = "Config/understudy.json"
    /// Whether `configPath` was given explicitly (then it must exist).
    public var configPathExplicit = false
    /// Migrations folder; nil searches the working directory, then the source checkout.
    public var migrationsPath: String?
    /// Fixtures folder for the demo project; nil searches `Config/fixtures`, "" disables the demo.
    public var fixturesPath: String?
    /// Folder of project bundles (`*.json`) imported at start, replacing projects of the same id.
    public var seedDirectory: String?
    /// Whether a bad seed bundle is logged and skipped instead of stopping the start.
    public var seedSkipInvalid = false
    /// Folder each project's bundle is written to (atomically) on a clean shutdown.
    public var exportOnExitDirectory: String?
    /// File written (atomically) once this server is ready, naming its process and ports, and
    /// removed at a clean exit: a script waits for it instead of probing a port another server may hold.
    public var readyFile: String?
    /// `text` or `json` log lines.
    public var logFormat = Logger.Format.text
    /// Whether a line is logged per request.
    public var logRequests = true
    /// Token for `/__admin` (required when listening off loopback).
    public var adminToken: String?
    /// Seconds allowed for a request head.
    public var headerTimeout = 10.0
    /// Seconds an idle keep-alive connection is kept.
    public var idleTimeout = 75.0
    /// Largest request body in bytes.
    public var maxBodyBytes = 32 * 1024 * 1024
    /// Journal bounds.
    public var journal = JournalLimits()
    /// Each platform's configuration section.
    public var platforms: [PlatformID: JSONValue] = [:]
    /// HTTPS listen port (0 picks a free one); nil turns the TLS listener off.
    public var httpsPort: Int? = 8443
    /// Intercepting HTTP proxy port (0 picks a free one); nil turns the proxy off.
    public var proxyPort: Int? = 8888
    /// What the proxy does with `CONNECT` to a host no platform emulates.
    public var proxyMode = ProxyMode.passthrough
    /// Whether passthrough may reach loopback, private and link-local addresses (off: public only).
    public var proxyAllowPrivate = false
    /// Password every proxy request must carry (`Proxy-Authorization: Basic`): a password with any
    /// user name, or `user:password`; nil for none. Beyond loopback, passthrough needs it.
    public var proxyPassword: String?
    /// The base URL devices and containers reach Understudy under (`http://192.168.1.50:8080`);
    /// nil derives it from the `Host` of each control-plane request, or the listen address.
    public var publicURL: String?
    /// Folder holding the local certificate authority; nil chooses one (`caLocation`).
    public var caDirectory: String?
    /// Understudy's per-user data folder, from the environment (`HOME`, `XDG_DATA_HOME`); nil
    /// keeps the CA beside the database (a configuration built in code, such as a test server's).
    public var userDataDirectory: String?
    /// Which event loop serves connections.
    public var eventLoop = EventLoopKind.platformDefault
    /// Host names answered besides the built-in ones (`--allowed-host`, `allowedHosts`,
    /// `UNDERSTUDY_ALLOWED_HOSTS`; the three add up): `name`, or `.domain` / `*.domain` for a
    /// domain and every name under it. See `AllowedHostName`.
    public var allowedHosts: [String] = []
    /// Whether the integration checks run (`--no-checks`, `checks`, `UNDERSTUDY_CHECKS`).
    public var checks = true

    /// The defaults.
    public init() {}

    /// Whether the listen address is a loopback address.
    public var isLoopback: Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
    }
}

/// What the intercepting proxy does with a `CONNECT` to a host that no platform emulates.
public enum ProxyMode: String, Sendable, Equatable, CaseIterable {
    /// Tunnel the bytes unchanged to the real destination, so the app's other traffic works.
    case passthrough
    /// Answer `403` naming the host: nothing leaves the machine (hermetic CI).
    case refuse
}

/// Why the local CA lives where it does.
public enum CALocationSource: String, Sendable, Equatable {
    /// `--ca-dir`, `UNDERSTUDY_CA_DIR` or the configuration file's `caDirectory`.
    case configured = "set by --ca-dir"
    /// A CA made by an earlier version beside the database, kept so devices that trust it still do.
    case besideDatabase = "beside the database"
    /// The per-user data folder: one CA for every checkout and project on this machine.
    case perUser = "per-user default"
}

extension ServerConfiguration {
    /// The folder the local certificate authority lives in, and why: `caDirectory` when set;
    /// else a CA that already exists beside the database (`data/` for PostgreSQL); else the
    /// per-user data folder, so one CA installed on a device serves every checkout, as
    /// mitmproxy's `~/.mitmproxy` does; else (no home folder) beside the database.
    public var caLocation: (path: String, source: CALocationSource) {
        if let caDirectory { return (caDirectory, .configured) }
        let beside: String
        if DatabaseLocation.namesPostgres(databasePath) {
            beside = "data"
        } else {
            let folder = (databasePath as NSString).deletingLastPathComponent
            beside = folder.isEmpty ? "." : folder
        }
        let existing = LocalCertificateAuthority.certificatePath(in: beside)
        if FileManager.default.fileExists(atPath: existing) { return (beside, .besideDatabase) }
        if let userDataDirectory { return ((userDataDirectory as NSString).appendingPathComponent("ca"), .perUser) }
        return (beside, .besideDatabase)
    }

    /// The folder the local certificate authority lives in (`caLocation`'s path).
    public var resolvedCADirectory: String { caLocation.path }

    /// Understudy's per-user data folder for `environment`: `$XDG_DATA_HOME/understudy` or
    /// `~/.local/share/understudy` on Linux, `~/Library/Application Support/Understudy` on macOS;
    /// nil without a home folder.
    static func userDataDirectory(environment: [String: String]) -> String? {
        #if os(macOS)
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/Library/Application Support/Understudy"
        #else
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/understudy" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/understudy"
        #endif
    }
}

/// Why the configuration could not be built.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, for the operator.
    public let description: String
}

extension ServerConfiguration {
    /// Applies a configuration file's JSON object.
    mutating func apply(file json: JSONValue) throws {
        guard case .object(let members) = json else { throw ConfigurationError(description: "\(configPath): the top level must be a JSON object") }
        for (key, value) in members {
            switch key {
            case "host": host = try string(value, key)
            case "port": port = try int(value, key)
            case "database": databasePath = try string(value, key)
            case "migrations": migrationsPath = try string(value, key)
            case "fixtures": fixturesPath = try string(value, key)
            case "seedDir": seedDirectory = value == .null ? nil : try string(value, key)
            case "seedSkipInvalid": seedSkipInvalid = try bool(value, key)
            case "exportOnExit": exportOnExitDirectory = value == .null ? nil : try string(value, key)
            case "readyFile": readyFile = value == .null ? nil : try string(value, key)
            case "logFormat": logFormat = try logFormatValue(try string(value, key))
            case "logRequests": logRequests = try bool(value, key)
            case "headerTimeoutSeconds": headerTimeout = try double(value, key)
            case "idleTimeoutSeconds": idleTimeout = try double(value, key)
            case "maxBodyBytes": maxBodyBytes = try int(value, key)
            case "httpsPort": httpsPort = value == .null ? nil : try int(value, key)
            case "proxyPort": proxyPort = value == .null ? nil : try int(value, key)
            case "proxyMode": proxyMode = try proxyModeValue(try string(value, key))
            case "proxyAllowPrivate": proxyAllowPrivate = try bool(value, key)
            case "proxyPassword": proxyPassword = value == .null ? nil : try string(value, key)
            case "publicURL": publicURL = value == .null ? nil : try string(value, key)
            case "caDirectory": caDirectory = try string(value, key)
            case "eventLoop": eventLoop = try eventLoopValue(try string(value, key))
            case "allowedHosts": allowedHosts += try allowedHostList(value, key)
            case "checks": checks = try bool(value, key)
            case "admin":
                if let token = value["token"], token != .null { adminToken = try string(token, "admin.token") }
            case "journal":
                guard case .object(let journalMembers) = value else { throw ConfigurationError(description: "journal must be an object") }
                for (name, setting) in journalMembers {
                    switch name {
                    case "maxEntries": journal.maxEntries = try int(setting, "journal.maxEntries")
                    case "maxBytes": journal.maxBytes = try int(setting, "journal.maxBytes")
                    case "bodyCaptureBytes": journal.bodyCaptureBytes = try int(setting, "journal.bodyCaptureBytes")
                    case "backlogBytes": journal.backlogBytes = try int(setting, "journal.backlogBytes")
                    case "enabled": journal.enabled = try bool(setting, "journal.enabled")
                    default: throw ConfigurationError(description: "unknown setting journal.\(name)")
                    }
                }
            case "$comment": break
            default:
                guard PlatformRegistry.isRegistered(key) else { throw ConfigurationError(description: "unknown setting `\(key)` in \(configPath)") }
                platforms[PlatformID(key)] = value
            }
        }
    }

    /// Applies `UNDERSTUDY_*` environment variables.
    mutating func apply(environment: [String: String]) throws {
        userDataDirectory = Self.userDataDirectory(environment: environment)
        for (key, value) in environment where key.hasPrefix("UNDERSTUDY_") {
            switch key {
            case "UNDERSTUDY_HOST": host = value
            case "UNDERSTUDY_PORT": port = try parseInt(value, key)
            case "UNDERSTUDY_DATABASE": databasePath = value
            case "UNDERSTUDY_CONFIG": configPath = value; configPathExplicit = true
            case "UNDERSTUDY_MIGRATIONS": migrationsPath = value
            case "UNDERSTUDY_FIXTURES": fixturesPath = value
            case "UNDERSTUDY_SEED_DIR": seedDirectory = value.isEmpty ? nil : value
            case "UNDERSTUDY_SEED_SKIP_INVALID": seedSkipInvalid = try parseBool(value, key)
            case "UNDERSTUDY_EXPORT_ON_EXIT": exportOnExitDirectory = value.isEmpty ? nil : value
            case "UNDERSTUDY_READY_FILE": readyFile = value.isEmpty ? nil : value
            case "UNDERSTUDY_LOG_FORMAT": logFormat = try logFormatValue(value)
            case "UNDERSTUDY_LOG_REQUESTS": logRequests = try parseBool(value, key)
            case "UNDERSTUDY_ADMIN_TOKEN": adminToken = value.isEmpty ? nil : value
            case "UNDERSTUDY_HEADER_TIMEOUT": headerTimeout = try parseDouble(value, key)
            case "UNDERSTUDY_IDLE_TIMEOUT": idleTimeout = try parseDouble(value, key)
            case "UNDERSTUDY_MAX_BODY_BYTES": maxBodyBytes = try parseInt(value, key)
            case "UNDERSTUDY_HTTPS_PORT": httpsPort = try parseInt(value, key)
            case "UNDERSTUDY_PROXY_PORT": proxyPort = try parseInt(value, key)
            case "UNDERSTUDY_PROXY_MODE": proxyMode = try proxyModeValue(value)
            case "UNDERSTUDY_PROXY_ALLOW_PRIVATE": proxyAllowPrivate = try parseBool(value, key)
            case "UNDERSTUDY_PROXY_PASSWORD": proxyPassword = value.isEmpty ? nil : value
            case "UNDERSTUDY_PUBLIC_URL": publicURL = value.isEmpty ? nil : value
            case "UNDERSTUDY_CA_DIR": caDirectory = value.isEmpty ? nil : value
            case "UNDERSTUDY_EVENT_LOOP": eventLoop = try eventLoopValue(value)
            case "UNDERSTUDY_ALLOWED_HOSTS": allowedHosts += Self.commaSeparated(value)
            case "UNDERSTUDY_JOURNAL": journal.enabled = try parseBool(value, key)
            case "UNDERSTUDY_CHECKS": checks = try parseBool(value, key)
            case "UNDERSTUDY_JOURNAL_MAX_ENTRIES": journal.maxEntries = try parseInt(value, key)
            case "UNDERSTUDY_JOURNAL_MAX_BYTES": journal.maxBytes = try parseInt(value, key)
            default: break // other tools may share the prefix; unknown names are not fatal here
            }
        }
    }

    /// Checks combinations that make no sense.
    func validate() throws {
        guard (0...65535).contains(port) else { throw ConfigurationError(description: "port must be 0–65535") }
        guard headerTimeout > 0, idleTimeout > 0 else { throw ConfigurationError(description: "timeouts must be positive") }
        for (name, value) in [("httpsPort", httpsPort), ("proxyPort", proxyPort)] {
            if let value, !(0...65535).contains(value) { throw ConfigurationError(description: "\(name) must be 0–65535") }
        }
        if let publicURL {
            // The same parser that builds every advertised URL, so what validates is what is advertised.
            guard PublicURL(publicURL) != nil else {
                throw ConfigurationError(
                    description:
                        "public URL must be http:// or https:// with a host (a name, an IPv4 address or an [IPv6] address), an optional port, and no path, query or user info, like http://192.168.1.50:8080; got `\(publicURL)`"
                )
            }
        }
        _ = try allowedHostNames()
        guard maxBodyBytes > 0 else { throw ConfigurationError(description: "maxBodyBytes must be positive") }
        if let token = adminToken, !token.isEmpty, token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ConfigurationError(description: "the admin token is blank (white space only); give a real token or none")
        }
        if let password = proxyPassword, password.isEmpty || password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || password.hasPrefix(":") || password.hasSuffix(":")
        {
            throw ConfigurationError(description: "the proxy password is blank or has an empty user or password part; give a password, or user:password")
        }
        if !isLoopback && (adminToken ?? "").isEmpty {
            throw ConfigurationError(description: "listening on \(host) (not loopback) needs an admin token: set admin.token, UNDERSTUDY_ADMIN_TOKEN or --admin-token")
        }
    }

    private func string(_ value: JSONValue, _ key: String) throws -> String {
        guard let text = value.stringValue else { throw ConfigurationError(description: "\(key) must be a string") }
        return text
    }
    private func int(_ value: JSONValue, _ key: String) throws -> Int {
        guard let number = value.intValue else { throw ConfigurationError(description: "\(key) must be an integer") }
        return number
    }
    private func double(_ value: JSONValue, _ key: String) throws -> Double {
        guard let number = value.doubleValue else { throw ConfigurationError(description: "\(key) must be a number") }
        return number
    }
    private func bool(_ value: JSONValue, _ key: String) throws -> Bool {
        guard let flag = value.boolValue else { throw ConfigurationError(description: "\(key) must be true or false") }
        return flag
    }
    func parseInt(_ value: String, _ key: String) throws -> Int {
        guard let number = Int(value) else { throw ConfigurationError(description: "\(key) must be an integer, got `\(value)`") }
        return number
    }
    func parseDouble(_ value: String, _ key: String) throws -> Double {
        guard let number = Double(value) else { throw ConfigurationError(description: "\(key) must be a number, got `\(value)`") }
        return number
    }
    func parseBool(_ value: String, _ key: String) throws -> Bool {
        switch value.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError(description: "\(key) must be true or false, got `\(value)`")
        }
    }
    func proxyModeValue(_ value: String) throws -> ProxyMode {
        guard let mode = ProxyMode(rawValue: value) else {
            throw ConfigurationError(description: "proxy mode must be \(ProxyMode.allCases.map(\.rawValue).joined(separator: " or ")), got `\(value)`")
        }
        return mode
    }
    func eventLoopValue(_ value: String) throws -> EventLoopKind {
        guard let kind = EventLoopKind(rawValue: value), EventLoopKind.available.contains(kind) else {
            let names = EventLoopKind.available.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(description: "unknown event loop `\(value)`; this build supports: \(names)")
        }
        return kind
    }
    func logFormatValue(_ value: String) throws -> Logger.Format {
        guard let format = Logger.Format(rawValue: value) else { throw ConfigurationError(description: "log format must be text or json, got `\(value)`") }
        return format
    }
}

extension ServerConfiguration {
    /// `allowedHosts` parsed; throws naming the first entry that is not a host name.
    public func allowedHostNames() throws -> [AllowedHostName] {
        try allowedHosts.map { text in
            guard let name = AllowedHostName(text) else {
                throw ConfigurationError(
                    description: "allowed host `\(text)` is not a host name: give a name like phone.local, or .example.com "
                        + "for a domain and every name under it (no scheme, port or path)")
            }
            return name
        }
    }

    /// The entries of a comma-separated list (`UNDERSTUDY_ALLOWED_HOSTS`), trimmed, empty ones dropped.
    static func commaSeparated(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The configuration file's `allowedHosts`: an array of strings.
    func allowedHostList(_ value: JSONValue, _ key: String) throws -> [String] {
        guard case .array(let items) = value else { throw ConfigurationError(description: "\(key) must be an array of host names") }
        return try items.map { item in
            guard let text = item.stringValue else { throw ConfigurationError(description: "\(key) must be an array of host names") }
            return text
        }
    }
}
