import EmulatorCore
import Foundation
import Storage
import Testing

@testable import WarpLinkEmulator

@Suite("WarpLink records")
struct RecordDecodingTests {
    private func keyRow(_ overrides: [String: SQLValue] = [:]) -> Row {
        var values: [String: SQLValue] = [
            "project_id": .text("p"), "value": .text("wl_test_abcdefghijklmnopqrstuvwxyz012345"), "kind": .text("sdk"),
            "scopes": .text("links:read attribution:write"), "app_id": .null, "state": .text("revoked"), "name": .null,
            "created_at": .text("2026-11-30T09:50:44.640Z"), "revoked_at": .text("2026-12-01T00:00:00.000Z"),
        ]
        for (name, value) in overrides { values[name] = value }
        let columns = values.keys.sorted()
        return Row(columns: columns, values: columns.map { values[$0] ?? .null })
    }

    @Test("a key row reads into its record, with its kind and state as enums")
    func keyRowReads() throws {
        let key = try KeyRecord(row: keyRow())
        #expect(key.kind == .sdk && key.state == .revoked && key.scopes == KeyRecord.sdkScopes && key.appID == nil)
        #expect(key.revokedAt == Timestamp.parse("2026-12-01T00:00:00.000Z"))
    }

    @Test("a mistyped, unknown-valued, unparsable or missing column throws instead of defaulting")
    func drift() {
        #expect(throws: RowDecodingError.wrongType(column: "scopes", expected: "String", found: "INTEGER")) { try KeyRecord(row: keyRow(["scopes": .integer(1)])) }
        #expect(throws: RowDecodingError.self) { try KeyRecord(row: keyRow(["state": .text("paused")])) }
        #expect(throws: RowDecodingError.self) { try KeyRecord(row: keyRow(["created_at": .text("yesterday")])) }
        #expect(throws: RowDecodingError.unexpectedNull("kind")) { try KeyRecord(row: keyRow(["kind": .null])) }
        let full = keyRow()
        let kept = full.columns.indices.filter { full.columns[$0] != "name" }
        let missing = Row(columns: kept.map { full.columns[$0] }, values: kept.map { full.values[$0] })
        #expect(throws: RowDecodingError.missingColumn("name")) { try KeyRecord(row: missing) }
    }

    @Test("a link row with custom_params that are not JSON throws")
    func linkJSON() {
        let columns = [
            "id", "app_id", "slug", "domain", "destination_url", "ios_url", "ios_fallback_url", "android_url", "android_fallback_url",
            "custom_params", "tags", "password", "expires_at", "is_active", "match_window_hours", "created_at", "updated_at",
        ]
        func row(params: String, active: SQLValue = .integer(1)) -> Row {
            Row(
                columns: columns,
                values: [
                    .text("l"), .null, .text("s"), .text("aplnk.to"), .text("https://example.com"), .null, .null, .null, .null,
                    .text(params), .text("[\"a\"]"), .null, .null, active, .null,
                    .text("2026-01-01T00:00:00.000Z"), .text("2026-01-01T00:00:00.000Z"),
                ])
        }
        #expect((try? LinkRecord(row: row(params: "{\"q\":\"1\"}")))?.tags == ["a"])
        #expect(throws: RowDecodingError.self) { try LinkRecord(row: row(params: "{not json")) }
        #expect(throws: RowDecodingError.self) { try LinkRecord(row: row(params: "{}", active: .text("yes"))) }
    }
}
