import EmulatorCore
import Foundation
import Storage

/// WarrantyLife's SQL, against its own `wl_*` tables. A store wraps the caller's connection, so a
/// request's reads and writes share one transaction.
struct WarrantyLifeStore {
    /// The connection of the read or write transaction the caller opened.
    let connection: any StoreConnection

    /// The tables whose ids are drawn at random from 8-digit numbers, as WarrantyLife's are.
    enum DrawnIDTable: String {
        case users = "wl_users", items = "wl_items", sensorEvents = "wl_sensor_events", diagnostics = "wl_diagnostics", submissions = "wl_submissions"
    }

    /// `candidate`, or the first id `redraw` gives that `table` does not hold yet. Drawn ids
    /// collide by the birthday bound after some ten thousand rows: a load test's sensor events
    /// were answered with 500s (a primary-key violation) before this check.
    func unusedID(_ project: ProjectID, in table: DrawnIDTable, candidate: String, redraw: () -> String) throws -> String {
        var id = candidate
        // The table name comes from the closed enum above, never from input.
        while try connection.scalar("SELECT 1 FROM \(table.rawValue) WHERE project_id = ? AND id = ?", project, id).int != nil { id = redraw() }
        return id
    }

    /// `value` as stored in a JSON text column.
    static func text(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

    // MARK: Developer keys

    /// The key with this value, in any project (keys are globally unique).
    func key(_ value: String) throws -> DeveloperKeyRecord? {
        try connection.fetchOne(DeveloperKeyRecord.self, "SELECT * FROM wl_developer_keys WHERE key = ?", value)
    }

    /// The project's keys, oldest first.
    func keys(_ project: ProjectID) throws -> [DeveloperKeyRecord] {
        try connection.fetchAll(DeveloperKeyRecord.self, "SELECT * FROM wl_developer_keys WHERE project_id = ? ORDER BY created_at, key", project)
    }

    /// Adds a key; a duplicate value is a constraint violation.
    func insertKey(_ record: DeveloperKeyRecord) throws {
        try connection.run(
            """
            INSERT INTO wl_developer_keys (project_id, key, name, environment, state, unavailable_mode, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, record.projectID, record.key, record.name, record.environment, record.state, record.unavailableMode, record.createdAt)
    }

    /// The project's own key issued at creation: a `valid` sandbox key (kept when it exists).
    func provisionKey(_ project: ProjectID, key: String, now: Date) throws {
        try connection.run(
            """
            INSERT OR IGNORE INTO wl_developer_keys (project_id, key, name, environment, state, unavailable_mode, created_at)
            VALUES (?, ?, 'Understudy', 'sandbox', 'valid', 'status', ?)
            """, project, key, Timestamp.format(now))
    }

    /// Writes a key's changeable fields.
    func updateKey(_ record: DeveloperKeyRecord) throws {
        try connection.run(
            "UPDATE wl_developer_keys SET name = ?, environment = ?, state = ?, unavailable_mode = ? WHERE key = ? AND project_id = ?",
            record.name, record.environment, record.state, record.unavailableMode, record.key, record.projectID)
    }

    // MARK: Users

    /// The account with this id.
    func user(_ project: ProjectID, id: String) throws -> UserRecord? {
        try connection.fetchOne(UserRecord.self, "SELECT * FROM wl_users WHERE project_id = ? AND id = ?", project, id)
    }

    /// The account with this e-mail (case-insensitive, by the column's collation).
    func user(_ project: ProjectID, email: String) throws -> UserRecord? {
        try connection.fetchOne(UserRecord.self, "SELECT * FROM wl_users WHERE project_id = ? AND email = ?", project, email)
    }

    /// The account whose current token this is.
    func user(_ project: ProjectID, token: String) throws -> UserRecord? {
        try connection.fetchOne(UserRecord.self, "SELECT * FROM wl_users WHERE project_id = ? AND token = ?", project, token)
    }

    /// Every account, oldest first.
    func users(_ project: ProjectID) throws -> [UserRecord] {
        try connection.fetchAll(UserRecord.self, "SELECT * FROM wl_users WHERE project_id = ? ORDER BY created_at, id", project)
    }

    /// Adds an account.
    func insertUser(_ project: ProjectID, _ user: UserRecord) throws {
        try connection.run(
            "INSERT INTO wl_users (project_id, id, email, password, token, activated, profile, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            project, user.id, user.email, user.password, user.token, user.activated, Self.text(.object(user.profile)), user.createdAt)
    }

    /// Writes an account's changeable fields.
    func updateUser(_ project: ProjectID, _ user: UserRecord) throws {
        try connection.run(
            "UPDATE wl_users SET password = ?, token = ?, activated = ?, profile = ? WHERE project_id = ? AND id = ?",
            user.password, user.token, user.activated, Self.text(.object(user.profile)), project, user.id)
    }

    // MARK: Vouchers

    /// The voucher with this code (normalised before the lookup).
    func voucher(_ project: ProjectID, code: String) throws -> VoucherRecord? {
        try connection.fetchOne(
            VoucherRecord.self, "SELECT * FROM wl_vouchers WHERE project_id = ? AND code = ?",
            project, WarrantyLifeService.normalizedVoucherCode(code))
    }

    /// Every voucher, oldest first.
    func vouchers(_ project: ProjectID) throws -> [VoucherRecord] {
        try connection.fetchAll(VoucherRecord.self, "SELECT * FROM wl_vouchers WHERE project_id = ? ORDER BY created_at, code", project)
    }

    /// Inserts or replaces a voucher (its creation time is kept).
    func saveVoucher(_ project: ProjectID, _ voucher: VoucherRecord) throws {
        let seed = try JSONValue.from(voucher.seed)
        try connection.run(
            """
            INSERT INTO wl_vouchers (project_id, code, status, claimed_by_user_id, original_device_id, warranty_id, attributes, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, code) DO UPDATE SET status = excluded.status, claimed_by_user_id = excluded.claimed_by_user_id,
              original_device_id = excluded.original_device_id, warranty_id = excluded.warranty_id, attributes = excluded.attributes,
              updated_at = excluded.updated_at
            """, project, WarrantyLifeService.normalizedVoucherCode(voucher.code), voucher.status, voucher.claimedByUserID, voucher.originalDeviceID,
            voucher.warrantyID, Self.text(seed), voucher.createdAt, voucher.updatedAt)
    }

    /// Records a voucher lookup and the action it answered.
    func recordLookup(_ project: ProjectID, code: String, deviceID: String?, userID: String?, action: VoucherAction, type: RegistrationType, now: String) throws {
        try connection.run(
            """
            INSERT INTO wl_voucher_lookups (project_id, code, device_id, user_id, action, registration_type, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, code, deviceID, userID, action.rawValue, type.rawValue, now)
    }

    /// The most recent lookup by this caller (user, then device), else the project's latest.
    func latestLookup(_ project: ProjectID, userID: String?, deviceID: String?) throws -> VoucherLookupRecord? {
        if let userID,
            let lookup = try connection.fetchOne(
                VoucherLookupRecord.self,
                """
                SELECT * FROM wl_voucher_lookups WHERE project_id = ? AND user_id = ? ORDER BY id DESC LIMIT 1
                """, project, userID)
        {
            return lookup
        }
        if let deviceID,
            let lookup = try connection.fetchOne(
                VoucherLookupRecord.self,
                """
                SELECT * FROM wl_voucher_lookups WHERE project_id = ? AND device_id = ? ORDER BY id DESC LIMIT 1
                """, project, deviceID)
        {
            return lookup
        }
        return try connection.fetchOne(VoucherLookupRecord.self, "SELECT * FROM wl_voucher_lookups WHERE project_id = ? ORDER BY id DESC LIMIT 1", project)
    }

    /// Every lookup, in order.
    func lookups(_ project: ProjectID) throws -> [VoucherLookupRecord] {
        try connection.fetchAll(VoucherLookupRecord.self, "SELECT * FROM wl_voucher_lookups WHERE project_id = ? ORDER BY id", project)
    }

    // MARK: Items

    /// The item with this id.
    func item(_ project: ProjectID, id: String) throws -> ItemRecord? {
        try connection.fetchOne(ItemRecord.self, "SELECT * FROM wl_items WHERE project_id = ? AND id = ?", project, id)
    }

    /// The item of this device.
    func item(_ project: ProjectID, deviceID: String) throws -> ItemRecord? {
        try connection.fetchOne(ItemRecord.self, "SELECT * FROM wl_items WHERE project_id = ? AND device_id = ?", project, deviceID)
    }

    /// Every item of the project, oldest first (the control plane).
    func items(_ project: ProjectID) throws -> [ItemRecord] {
        try connection.fetchAll(ItemRecord.self, "SELECT * FROM wl_items WHERE project_id = ? ORDER BY created_at, id", project)
    }

    /// The owner's newest item, found through the (project, user, created_at, id) index rather than
    /// by reading every item of the project.
    func newestItem(_ project: ProjectID, userID: String) throws -> ItemRecord? {
        try connection.fetchOne(
            ItemRecord.self, "SELECT * FROM wl_items WHERE project_id = ? AND user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1",
            project, userID)
    }

    /// Inserts or replaces an item (its creation time is kept).
    func saveItem(_ project: ProjectID, _ item: ItemRecord) throws {
        try connection.run(
            """
            INSERT INTO wl_items (project_id, id, device_id, user_id, category_id, manufacturer_name, model, mpn, imei, notification_token, ssr, ssd, trade_in, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET device_id = excluded.device_id, user_id = excluded.user_id, category_id = excluded.category_id,
              manufacturer_name = excluded.manufacturer_name, model = excluded.model, mpn = excluded.mpn, imei = excluded.imei,
              notification_token = excluded.notification_token, ssr = excluded.ssr, ssd = excluded.ssd, trade_in = excluded.trade_in,
              updated_at = excluded.updated_at
            """, project, item.id, item.deviceID, item.userID, item.categoryID, item.manufacturerName, item.model, item.mpn, item.imei,
            item.notificationToken, item.ssr, item.ssd, item.tradeIn, item.createdAt, item.updatedAt)
    }

    /// Deletes an item; false when there was none.
    func deleteItem(_ project: ProjectID, id: String) throws -> Bool {
        try connection.run("DELETE FROM wl_items WHERE project_id = ? AND id = ?", project, id) > 0
    }

    /// Records an FCM token the SDK sent and makes it the item's current one.
    func recordToken(_ project: ProjectID, itemID: String, token: String, source: String, now: String) throws {
        try connection.run("INSERT INTO wl_fcm_tokens (project_id, item_id, token, source, created_at) VALUES (?, ?, ?, ?, ?)", project, itemID, token, source, now)
        try connection.run("UPDATE wl_items SET notification_token = ?, updated_at = ? WHERE project_id = ? AND id = ?", token, now, project, itemID)
    }

    /// Records a Smart Saver opt-in or opt-out (from a sensor event when `sensorEventID` is set);
    /// `notEffectiveReason` says why an opt-in changed nothing (`not_offered`, `no_active_warranty`).
    func recordOptIn(
        _ project: ProjectID, itemID: String, program: SmartSaverProgram, optedIn: Bool, sensorEventID: String?, now: String,
        notEffectiveReason: String? = nil
    ) throws {
        try connection.run(
            """
            INSERT INTO wl_opt_ins (project_id, item_id, program, opted_in, sensor_event_id, created_at, not_effective_reason)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, itemID, program.rawValue, optedIn, sensorEventID, now, notEffectiveReason)
    }

    /// When the item last opted into `program`.
    func latestOptIn(_ project: ProjectID, itemID: String, program: SmartSaverProgram) throws -> String? {
        try connection.scalar(
            """
            SELECT created_at FROM wl_opt_ins WHERE project_id = ? AND item_id = ? AND program = ? AND opted_in = 1 AND not_effective_reason IS NULL ORDER BY id DESC LIMIT 1
            """, project, itemID, program.rawValue
        ).string
    }

    /// A message in the core's outbox (e-mails and pushes the emulator would have sent).
    @discardableResult
    func addToOutbox(_ project: ProjectID, kind: String, recipient: String, subject: String, payload: JSONValue, now: Date) throws -> Int {
        try Outbox.add(connection, project: project, platform: .warrantylife, kind: kind, recipient: recipient, subject: subject, payload: payload, now: now)
    }
}
