import EmulatorCore
import Foundation
import SQLiteStore

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

    init(row: Row) throws { document = try row.decodeJSON("document") }
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
            case .null: members[key] = .null
            case .integer(let value): members[key] = Self.flagColumns.contains(column) ? .bool(value != 0) : .int(value)
            case .real(let value): members[key] = .double(value)
            case .text(let text): members[key] = Self.jsonColumns.contains(column) ? try row.decodeJSON(column) : .string(text)
            case .blob(let data): members[key] = .int(Int64(data.count))
            }
        }
        if row.columns.first == "id", case .int(let id)? = members["id"] { members["id"] = .string(String(id)) }
        self.members = members
    }

    /// `sensor_event_id` → `sensorEventId`.
    static func camelCase(_ column: String) -> String {
        let parts = column.split(separator: "_")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }
}
