import Foundation
import Storage

/// Column reads for what the platforms store besides plain values: JSON text, ISO 8601 text and
/// epoch seconds. One set for every platform, so a doctored or foreign row fails the same way
/// (a `RowDecodingError`, answered as the project's 409) whichever platform reads it.
extension Row {
    /// A text column holding JSON; throws when it is missing, NULL or not JSON.
    public func json(_ name: String) throws(RowDecodingError) -> JSONValue {
        try Self.parsedJSON(column: name, text: decode(name))
    }

    /// A JSON text column that may be NULL.
    public func jsonIfPresent(_ name: String) throws(RowDecodingError) -> JSONValue? {
        guard let text: String = try decodeIfPresent(name) else { return nil }
        return try Self.parsedJSON(column: name, text: text)
    }

    /// A text column holding a JSON object, as its members; with `cache`, a text parsed before
    /// is not parsed again (the same stored text always gives the same members).
    public func jsonObject(_ name: String, cache: DecodedTextCache<[String: JSONValue]>? = nil) throws -> [String: JSONValue] {
        func members(_ text: String) throws(RowDecodingError) -> [String: JSONValue] {
            guard case .object(let members) = try Self.parsedJSON(column: name, text: text) else {
                throw RowDecodingError.wrongType(column: name, expected: "JSON object", found: "TEXT")
            }
            return members
        }
        let text: String = try decode(name)
        guard let cache else { return try members(text) }
        return try cache.value(for: text, decode: members)
    }

    /// A text column holding an ISO 8601 timestamp; throws when it is missing, NULL or unparsable.
    public func timestamp(_ name: String) throws(RowDecodingError) -> Date {
        try Self.parsedTimestamp(column: name, text: decode(name))
    }

    /// An ISO 8601 text column that may be NULL.
    public func timestampIfPresent(_ name: String) throws(RowDecodingError) -> Date? {
        guard let text: String = try decodeIfPresent(name) else { return nil }
        return try Self.parsedTimestamp(column: name, text: text)
    }

    /// A REAL column of Unix epoch seconds.
    public func epochSeconds(_ name: String) throws(RowDecodingError) -> Date {
        Date(timeIntervalSince1970: try decode(name, as: Double.self))
    }

    /// A REAL column of Unix epoch seconds that may be NULL.
    public func epochSecondsIfPresent(_ name: String) throws(RowDecodingError) -> Date? {
        try decodeIfPresent(name, as: Double.self).map(Date.init(timeIntervalSince1970:))
    }

    private static func parsedJSON(column: String, text: String) throws(RowDecodingError) -> JSONValue {
        guard let value = try? JSONValue.parse(Data(text.utf8)) else { throw .wrongType(column: column, expected: "JSON", found: "TEXT") }
        return value
    }

    private static func parsedTimestamp(column: String, text: String) throws(RowDecodingError) -> Date {
        guard let date = Timestamp.parse(text) else { throw .wrongType(column: column, expected: "ISO 8601 timestamp", found: "TEXT") }
        return date
    }
}
