import EmulatorCore
import Foundation
import Storage

// Warranties, what the SDK uploads, replaceable content and the control plane's inspection tables.
extension WarrantyLifeStore {
    // MARK: Warranties

    /// The warranty with this id.
    func warranty(_ project: ProjectID, id: String) throws -> WarrantyRecord? {
        try connection.fetchOne(WarrantyRecord.self, "SELECT * FROM wl_warranties WHERE project_id = ? AND id = ?", project, id)
    }

    /// Every warranty of the project, oldest first (the control plane).
    func warranties(_ project: ProjectID) throws -> [WarrantyRecord] {
        try connection.fetchAll(WarrantyRecord.self, "SELECT * FROM wl_warranties WHERE project_id = ? ORDER BY created_at, id", project)
    }

    // One query per filter, each led by its index in (…, created_at, id) order: a filter written
    // `(? IS NULL OR item_id = ?)` cannot use an index, and every voucher lookup read and sorted
    // all of the project's warranties to find one device's.

    /// The warranties of one item, oldest first.
    func warranties(_ project: ProjectID, itemID: String) throws -> [WarrantyRecord] {
        try connection.fetchAll(
            WarrantyRecord.self, "SELECT * FROM wl_warranties WHERE project_id = ? AND item_id = ? ORDER BY created_at, id",
            project, itemID)
    }

    /// The warranties of one owner, oldest first.
    func warranties(_ project: ProjectID, userID: String) throws -> [WarrantyRecord] {
        try connection.fetchAll(
            WarrantyRecord.self, "SELECT * FROM wl_warranties WHERE project_id = ? AND user_id = ? ORDER BY created_at, id",
            project, userID)
    }

    /// Inserts or replaces a warranty.
    func saveWarranty(_ project: ProjectID, _ warranty: WarrantyRecord) throws {
        try connection.run(
            """
            INSERT INTO wl_warranties (project_id, id, item_id, user_id, voucher_code, document, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET item_id = excluded.item_id, user_id = excluded.user_id, voucher_code = excluded.voucher_code,
              document = excluded.document
            """, project, warranty.id, warranty.itemID, warranty.userID, warranty.voucherCode, Self.text(.object(warranty.document)),
            warranty.document["createdAt"]?.stringValue ?? "")
    }

    // MARK: Sensor events and uploads

    /// The sensor event with this id.
    func sensorEvent(_ project: ProjectID, id: String) throws -> UploadParentRecord? {
        try connection.fetchOne(UploadParentRecord.self, "SELECT id, item_id FROM wl_sensor_events WHERE project_id = ? AND id = ?", project, id)
    }

    /// Stores a sensor event; returns the id of the first event with the same item, `eventAt` and
    /// type when this one repeats it (the repeat is stored and marked either way).
    func insertSensorEvent(_ project: ProjectID, id: String, itemID: String, eventAt: String?, type: Int?, body: JSONValue, now: String) throws -> String? {
        var duplicateOf: String?
        if let eventAt {
            duplicateOf = try connection.scalar(
                """
                SELECT id FROM wl_sensor_events WHERE project_id = ? AND item_id = ? AND event_at = ? AND sensor_event_type IS ? AND duplicate_of IS NULL
                ORDER BY created_at, rowid LIMIT 1
                """, project, itemID, eventAt, type
            ).string
        }
        try connection.run(
            """
            INSERT INTO wl_sensor_events (project_id, id, item_id, event_at, sensor_event_type, body, duplicate_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, itemID, eventAt, type, Self.text(body), duplicateOf, now)
        return duplicateOf
    }

    /// Stores a readings batch of a sensor event, as `StoredReadings` says.
    func insertReadings(_ project: ProjectID, itemID: String, sensorEventID: String, count: Int, gzipped: Bool, readings: StoredReadings, now: String) throws {
        let text: String, stream: Data?
        switch readings {
        case .json(let json): (text, stream) = (json, nil)
        case .gzip(let data): (text, stream) = ("", data)
        }
        try connection.run(
            """
            INSERT INTO wl_readings (project_id, item_id, sensor_event_id, count, gzipped, readings, readings_gzip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, project, itemID, sensorEventID, count, gzipped, text, stream, now)
    }

    /// Stores a sensor event's audio clip.
    func insertAudioClip(
        _ project: ProjectID, itemID: String, sensorEventID: String, recordedAt: String?, contentType: String?, data: Data,
        sha256: String, now: String
    ) throws {
        try connection.run(
            """
            INSERT INTO wl_audio_clips (project_id, item_id, sensor_event_id, recorded_at, content_type, bytes, sha256, data, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, itemID, sensorEventID, recordedAt, contentType, data.count, sha256, data, now)
    }

    /// The diagnostic report with this id.
    func diagnostic(_ project: ProjectID, id: String) throws -> UploadParentRecord? {
        try connection.fetchOne(UploadParentRecord.self, "SELECT id, item_id FROM wl_diagnostics WHERE project_id = ? AND id = ?", project, id)
    }

    /// The first (unmarked) report of the item with this fingerprint.
    func firstDiagnostic(_ project: ProjectID, itemID: String, requestHash: String) throws -> String? {
        try connection.scalar(
            """
            SELECT id FROM wl_diagnostics WHERE project_id = ? AND item_id = ? AND request_hash = ? AND same_hash_as IS NULL ORDER BY created_at, rowid LIMIT 1
            """, project, itemID, requestHash
        ).string
    }

    /// Stores a diagnostic report, marked `sameHashAs` when it repeats an earlier one.
    func insertDiagnostic(_ project: ProjectID, id: String, itemID: String, body: JSONValue, requestHash: String, sameHashAs: String?, now: String) throws {
        try connection.run(
            """
            INSERT INTO wl_diagnostics (project_id, id, item_id, body, request_hash, same_hash_as, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, id, itemID, Self.text(body), requestHash, sameHashAs, now)
    }

    /// How many images with these bytes the report already has.
    func imageCount(_ project: ProjectID, diagnosticID: String, sha256: String) throws -> Int {
        try connection.fetchOne(
            CountRecord.self, "SELECT COUNT(*) AS count FROM wl_images WHERE project_id = ? AND diagnostic_id = ? AND sha256 = ?",
            project, diagnosticID, sha256)?.count ?? 0
    }

    /// Stores an image of a diagnostic report.
    func insertImage(_ project: ProjectID, itemID: String, diagnosticID: String, kind: String, image: ImageUpload, duplicate: Bool, now: String) throws {
        try connection.run(
            """
            INSERT INTO wl_images (project_id, item_id, diagnostic_id, kind, filename, content_type, bytes, sha256, duplicate, data, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, itemID, diagnosticID, kind, image.filename, image.contentType, image.data.count, image.sha256, duplicate, image.data, now)
    }

    /// Stores a survey answer or feedback the emulator does not interpret.
    func insertSubmission(_ project: ProjectID, id: String, kind: String, userID: String?, body: JSONValue, now: String) throws {
        try connection.run(
            "INSERT INTO wl_submissions (project_id, id, kind, user_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            project, id, kind, userID, Self.text(body), now)
    }

    // MARK: Content and insights

    /// The project's content `name`, or its default until the control plane replaces it.
    func content(_ project: ProjectID, _ name: String) throws -> JSONValue {
        guard let stored = try connection.fetchOne(DocumentRecord.self, "SELECT document FROM wl_content WHERE project_id = ? AND name = ?", project, name) else {
            return DefaultContent.value(name)
        }
        return stored.document
    }

    /// Replaces content `name`.
    func setContent(_ project: ProjectID, _ name: String, _ value: JSONValue) throws {
        try connection.run(
            """
            INSERT INTO wl_content (project_id, name, document) VALUES (?, ?, ?) ON CONFLICT (project_id, name) DO UPDATE SET document = excluded.document
            """, project, name, Self.text(value))
    }

    /// The item's seeded `InsightData`, if any.
    func insight(_ project: ProjectID, itemID: String) throws -> JSONValue? {
        try connection.fetchOne(DocumentRecord.self, "SELECT document FROM wl_insights WHERE project_id = ? AND item_id = ?", project, itemID)?.document
    }

    /// Seeds (or, with nil or `null`, removes) the item's `InsightData`.
    func setInsight(_ project: ProjectID, itemID: String, _ value: JSONValue?) throws {
        guard let value, value != .null else {
            try connection.run("DELETE FROM wl_insights WHERE project_id = ? AND item_id = ?", project, itemID)
            return
        }
        try connection.run(
            """
            INSERT INTO wl_insights (project_id, item_id, document) VALUES (?, ?, ?) ON CONFLICT (project_id, item_id) DO UPDATE SET document = excluded.document
            """, project, itemID, Self.text(value))
    }

    // MARK: Inspection

    /// The rows of an inspection table (of one item, when given and the table has items).
    func inspect(_ table: InspectionTable, _ project: ProjectID, itemID: String?) throws -> [InspectedRow] {
        let select: String, order: String
        switch table {
        case .sensorEvents:
            (select, order) = ("SELECT id, item_id, event_at, sensor_event_type, body, duplicate_of, created_at FROM wl_sensor_events", "created_at, rowid")
        case .readings:
            (select, order) = ("SELECT id, item_id, sensor_event_id, count, gzipped, readings, readings_gzip, created_at FROM wl_readings", "id")
        case .audioClips:
            (select, order) = ("SELECT id, item_id, sensor_event_id, recorded_at, content_type, bytes, sha256, created_at FROM wl_audio_clips", "id")
        case .diagnostics:
            (select, order) = ("SELECT id, item_id, body, request_hash, same_hash_as, created_at FROM wl_diagnostics", "created_at, rowid")
        case .images:
            (select, order) = ("SELECT id, item_id, diagnostic_id, kind, filename, content_type, bytes, sha256, duplicate, created_at FROM wl_images", "id")
        case .fcmTokens:
            (select, order) = ("SELECT id, item_id, token, source, created_at FROM wl_fcm_tokens", "id")
        case .optIns:
            (select, order) = ("SELECT id, item_id, program, opted_in, sensor_event_id, not_effective_reason, created_at FROM wl_opt_ins", "id")
        case .submissions:
            return try connection.fetchAll(
                InspectedRow.self, "SELECT id, kind, user_id, body, created_at FROM wl_submissions WHERE project_id = ? ORDER BY created_at, rowid",
                project)
        }
        // One statement per filter: `(? IS NULL OR item_id = ?)` used no index, and every call read
        // and sorted all the project's rows. Each table's (project, item, …) index leads to an
        // item's rows in the order listed (opt-ins, indexed by program, sort the item's few).
        guard let itemID else {
            return try connection.fetchAll(InspectedRow.self, "\(select) WHERE project_id = ? ORDER BY \(order)", project)
        }
        return try connection.fetchAll(InspectedRow.self, "\(select) WHERE project_id = ? AND item_id = ? ORDER BY \(order)", project, itemID)
    }
}
