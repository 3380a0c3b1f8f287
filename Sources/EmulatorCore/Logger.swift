import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Line-oriented logging to standard error, as text or JSON lines.
public struct Logger: Sendable {
    /// Output format.
    public enum Format: String, Sendable {
        /// Human-readable lines.
        case text
        /// One JSON object per line, for log collectors.
        case json
    }
    /// Severity.
    public enum Level: Int, Sendable, Comparable {
        /// Detail for diagnosing the emulator itself.
        case debug
        /// Routine events: startup and shutdown, webhook attempts, tolerated client mistakes.
        case info
        /// Something unexpected that the server carried on past.
        case warning
        /// A failure: a request or background task could not complete.
        case error
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

    /// Logs a message with optional text fields.
    public func log(_ level: Level, _ message: String, _ fields: [(String, String)] = []) {
        log(level, message, values: fields.map { ($0.0, JSONValue.string($0.1)) })
    }

    /// Logs a message with typed fields: in JSON lines numbers stay numbers and objects stay objects.
    public func log(_ level: Level, _ message: String, values fields: [(String, JSONValue)]) {
        guard level >= minimumLevel else { return }
        let time = Timestamp.format(Date())
        var line: String
        switch format {
        case .text:
            line = "\(time) \(level.name.uppercased()) \(message)"
            for (key, value) in fields { line += " \(key)=\(Self.text(value))" }
        case .json:
            var object: [String: JSONValue] = ["time": .string(time), "level": .string(level.name), "message": .string(message)]
            for (key, value) in fields { object[key] = value }
            line = String(decoding: JSONValue.object(object).encoded(), as: UTF8.self)
        }
        Self.writeLine(line)
    }

    private static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return String(decoding: value.encoded(), as: UTF8.self)
    }

    /// One write per line, so lines from concurrent requests never interleave mid-line.
    private static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
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
            Self.writeLine(line)
        case .json:
            var object: [String: JSONValue] = [
                "time": .string(Timestamp.format(Date())), "level": "info", "message": "request",
                "method": .string(method), "path": .string(path), "status": .int(Int64(status)),
                "durationMs": .double((durationMs * 100).rounded() / 100), "bytes": .int(Int64(bytes)), "platform": .string(platform), // checked: `bytes` is an Int
            ]
            if let project { object["project"] = .string(project) }
            Self.writeLine(String(decoding: JSONValue.object(object).encoded(), as: UTF8.self))
        }
    }
}
