import Foundation
import Glibc

/// Line-oriented logging to standard error, as text or JSON lines.
public struct Logger: Sendable {
    /// Output format.
    public enum Format: String, Sendable { case text, json }
    /// Severity.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        /// Orders levels by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        var name: String { ["debug", "info", "warning", "error"][rawValue] }
    }

    /// The format in use.
    public let format: Format
    /// Messages below this level are dropped.
    public let minimumLevel: Level
    /// Whether per-request lines are written.
    public let logsRequests: Bool

    /// Creates a logger.
    public init(format: Format = .text, minimumLevel: Level = .info, logsRequests: Bool = true) {
        self.format = format
        self.minimumLevel = minimumLevel
        self.logsRequests = logsRequests
    }

    /// A logger that writes nothing (tests).
    public static let silent = Logger(minimumLevel: .error, logsRequests: false)

    /// Logs a message with optional fields.
    public func log(_ level: Level, _ message: String, _ fields: [(String, String)] = []) {
        guard level >= minimumLevel else { return }
        let time = Timestamp.format(Date())
        var line: String
        switch format {
        case .text:
            line = "\(time) \(level.name.uppercased()) \(message)"
            for (key, value) in fields { line += " \(key)=\(value)" }
        case .json:
            var object: [String: JSONValue] = ["time": .string(time), "level": .string(level.name), "message": .string(message)]
            for (key, value) in fields { object[key] = .string(value) }
            line = String(decoding: JSONValue.object(object).encoded(), as: UTF8.self)
        }
        line += "\n"
        // One write per line, so lines from concurrent requests never interleave mid-line.
        _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    }

    /// Logs at info.
    public func info(_ message: String, _ fields: [(String, String)] = []) { log(.info, message, fields) }
    /// Logs at warning.
    public func warning(_ message: String, _ fields: [(String, String)] = []) { log(.warning, message, fields) }
    /// Logs at error.
    public func error(_ message: String, _ fields: [(String, String)] = []) { log(.error, message, fields) }

    /// The per-request line: method, path, status, duration and bytes.
    public func request(method: String, path: String, status: Int, durationMs: Double, bytes: Int, platform: String, project: String?) {
        guard logsRequests else { return }
        let duration = String(format: "%.2f", durationMs)
        switch format {
        case .text:
            var line = "\(Timestamp.format(Date())) \(method) \(path) \(status) \(duration)ms \(bytes)B \(platform)"
            if let project { line += " project=\(project)" }
            line += "\n"
            _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
        case .json:
            var object: [String: JSONValue] = [
                "time": .string(Timestamp.format(Date())), "level": "info", "message": "request",
                "method": .string(method), "path": .string(path), "status": .int(Int64(status)),
                "durationMs": .double((durationMs * 100).rounded() / 100), "bytes": .int(Int64(bytes)), "platform": .string(platform),
            ]
            if let project { object["project"] = .string(project) }
            let line = String(decoding: JSONValue.object(object).encoded(), as: UTF8.self) + "\n"
            _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
        }
    }
}
