import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// An image part of a diagnostic upload, checked and fingerprinted before it is stored.
struct ImageUpload: Sendable, Equatable {
    var filename: String?
    var contentType: String
    var data: Data
    var sha256: String
}

/// A `COUNT(*) AS count` result.
struct CountRecord: RowDecodable, Sendable {
    var count: Int

    init(row: Row) throws { count = try row.decode("count") }
}

/// A JSON `document` column (content and insights).
struct DocumentRecord: RowDecodable, Sendable {
    var document: JSONValue

    init(row: Row) throws { document = try row.json("document") }
}

/// The control plane's read-only views of what the SDK uploaded.
enum InspectionTable: String, CaseIterable, Sendable {
    case sensorEvents, readings, audioClips, diagnostics, images, fcmTokens, optIns, submissions

    /// The control-plane path, relative to the platform's admin prefix.
    var path: String {
        switch self {
        case .sensorEvents: return "/sensor-events"
        case .readings: return "/readings"
        case .audioClips: return "/audio-clips"
        case .diagnostics: return "/diagnostics"
        case .images: return "/images"
        case .fcmTokens: return "/fcm-tokens"
        case .optIns: return "/opt-ins"
        case .submissions: return "/submissions"
        }
    }

    /// Whether the view can be filtered by `itemId` (submissions belong to users, not items).
    var hasItems: Bool { self != .submissions }
}

/// How a readings batch is kept: the gzip stream the SDK sent when it came compressed, its JSON
/// text otherwise. A 1,000-sample batch is about 330 KB of JSON and a fifth of that as gzip, and
/// every stored byte is written into SQLite's log, copied into the database file and kept: as
/// text, readings ingest wrote the log faster than checkpoints could copy it, and the writer then
/// stopped for 90–310 ms to copy what had piled up.
enum StoredReadings: Sendable {
    /// The batch's JSON, as it arrived uncompressed.
    case json(String)
    /// The gzip stream as it arrived, already checked to inflate to a valid batch.
    case gzip(Data)
}

/// One row of an inspection table, as the control plane shows it: columns in camelCase, flags as
/// booleans, JSON bodies parsed, blobs as their length, numeric row ids as strings (the SDK's ids
/// are strings everywhere).
struct InspectedRow: RowDecodable, Sendable {
    /// Columns holding 0/1 flags.
    static let flagColumns: Set = ["gzipped", "duplicate", "opted_in"]
    /// Columns holding JSON text.
    static let jsonColumns: Set = ["body", "readings"]

    var members: [String: JSONValue]

    init(row: Row) throws {
        var members: [String: JSONValue] = [:]
        for (index, column) in row.columns.enumerated() {
            let key = Self.camelCase(column)
            switch row.values[index] {
            case .null where column == "readings_gzip": continue // the batch is in `readings`
            case .null: members[key] = .null
            case .integer(let value): members[key] = Self.flagColumns.contains(column) ? .bool(value != 0) : .int(value)
            case .real(let value): members[key] = .double(value)
            case .text(let text) where column == "readings" && text.isEmpty:
                continue // kept compressed in `readings_gzip`, read below
            case .text(let text): members[key] = Self.jsonColumns.contains(column) ? try row.json(column) : .string(text)
            case .blob(let data) where column == "readings_gzip":
                members["readings"] = try Self.inflatedJSON(data, column: column)
            case .blob(let data): members[key] = .int(Int64(data.count))
            }
        }
        if row.columns.first == "id", case .int(let id)? = members["id"] { members["id"] = .string(String(id)) }
        self.members = members
    }

    /// A stored gzip stream's JSON; bytes that do not inflate to JSON throw like a mistyped column.
    static func inflatedJSON(_ stream: Data, column: String) throws -> JSONValue {
        guard let json = try? Gzip.decompress(stream, limit: Int.max), let value = try? JSONValue.parse(json) else {
            throw RowDecodingError.wrongType(column: column, expected: "gzip JSON", found: "BLOB")
        }
        return value
    }

    /// `sensor_event_id` → `sensorEventId`.
    static func camelCase(_ column: String) -> String {
        let parts = column.split(separator: "_")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }
}
