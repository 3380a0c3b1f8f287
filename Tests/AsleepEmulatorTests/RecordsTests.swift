import EmulatorCore
import Foundation
import Storage
import Testing

@testable import AsleepEmulator

@Suite("Asleep records")
struct RecordsTests {
    static let sessionColumns = [
        "session_id", "project_id", "customer", "user_id", "state", "start_time", "end_time", "unexpected_end_time",
        "closed_at", "complete_time", "hold", "created_timezone", "inference_type", "service", "callback_url",
        "api_key", "product_id", "last_seq_num", "overrides", "created_at",
    ]

    static func sessionRow(replacing column: String? = nil, with value: SQLValue = .null, dropping dropped: String? = nil) -> Row {
        var values: [String: SQLValue] = [
            "session_id": .text("s1"), "project_id": .text("p1"), "customer": .text("key:k"), "user_id": .text("G-1"), "state": .text("CLOSED"),
            "start_time": .real(1_000), "end_time": .real(1_300), "unexpected_end_time": .null, "closed_at": .real(1_300), "complete_time": .null,
            "hold": .integer(0), "created_timezone": .text("UTC"), "inference_type": .text("MELSPECTROGRAM"), "service": .text("NOSERVICE"),
            "callback_url": .null, "api_key": .text("k"), "product_id": .null, "last_seq_num": .integer(9), "overrides": .text("{}"),
            "created_at": .real(1_000),
        ]
        if let column { values[column] = value }
        let columns = sessionColumns.filter { $0 != dropped }
        return Row(columns: columns, values: columns.map { values[$0] ?? .null })
    }

    @Test("a session row decodes into typed fields and a state enum")
    func decodes() throws {
        let session = try SessionRecord(row: Self.sessionRow())
        #expect(session.state == .closed && session.end == Date(timeIntervalSince1970: 1_300) && session.lastSeqNum == 9 && session.overrides == [:])
    }

    @Test("a missing, mistyped or unknown column throws instead of defaulting")
    func throwsOnDrift() {
        #expect(throws: RowDecodingError.missingColumn("hold")) { try SessionRecord(row: Self.sessionRow(dropping: "hold")) }
        #expect(throws: RowDecodingError.self) { try SessionRecord(row: Self.sessionRow(replacing: "start_time", with: .text("yesterday"))) }
        #expect(throws: RowDecodingError.self) { try SessionRecord(row: Self.sessionRow(replacing: "state", with: .text("PAUSED"))) }
        #expect(throws: RowDecodingError.unexpectedNull("customer")) { try SessionRecord(row: Self.sessionRow(replacing: "customer", with: .null)) }
        #expect(throws: RowDecodingError.self) { try SessionRecord(row: Self.sessionRow(replacing: "overrides", with: .text("{not json"))) }
        let key = Row(
            columns: ["api_key", "project_id", "customer", "state", "product_billing", "created_at"],
            values: [.text("k"), .text("p"), .text("c"), .text("suspended"), .integer(1), .real(0)])
        #expect(throws: RowDecodingError.self) { try APIKeyRecord(row: key) }
    }
}
