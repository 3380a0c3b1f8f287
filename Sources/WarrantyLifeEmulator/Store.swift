import EmulatorCore
import Foundation
import SQLiteStore

/// WarrantyLife's SQL, against its own `wl_*` tables. Every function runs on the caller's
/// connection, so a request's reads and writes share one transaction.
enum WarrantyLifeStore {
    static func json(_ text: String?) -> JSONValue { text.flatMap { try? JSONValue.parse(Data($0.utf8)) } ?? .null }
    static func text(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

    // MARK: Developer keys

    static func key(_ c: SQLiteConnection, _ key: String) throws -> DeveloperKeyRecord? {
        try c.queryOne("SELECT * FROM wl_developer_keys WHERE key = ?", key).map(keyRecord)
    }

    static func keys(_ c: SQLiteConnection, project: ProjectID) throws -> [DeveloperKeyRecord] {
        try c.query("SELECT * FROM wl_developer_keys WHERE project_id = ? ORDER BY created_at, key", project).map(keyRecord)
    }

    static func insertKey(_ c: SQLiteConnection, _ r: DeveloperKeyRecord) throws {
        try c.run("INSERT INTO wl_developer_keys (project_id, key, name, environment, state, unavailable_mode, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                  r.projectID, r.key, r.name, r.environment, r.state, r.unavailableMode, r.createdAt)
    }

    static func updateKey(_ c: SQLiteConnection, _ r: DeveloperKeyRecord) throws {
        try c.run("UPDATE wl_developer_keys SET name = ?, environment = ?, state = ?, unavailable_mode = ? WHERE key = ? AND project_id = ?",
                  r.name, r.environment, r.state, r.unavailableMode, r.key, r.projectID)
    }

    private static func keyRecord(_ row: Row) -> DeveloperKeyRecord {
        DeveloperKeyRecord(key: row.string("key") ?? "", projectID: row.string("project_id") ?? "", name: row.string("name") ?? "",
                           environment: row.string("environment") ?? "sandbox", state: row.string("state") ?? "valid",
                           unavailableMode: row.string("unavailable_mode") ?? "status", createdAt: row.string("created_at") ?? "")
    }

    // MARK: Users

    static func user(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> UserRecord? {
        try c.queryOne("SELECT * FROM wl_users WHERE project_id = ? AND id = ?", p, id).map(userRecord)
    }

    static func user(_ c: SQLiteConnection, _ p: ProjectID, email: String) throws -> UserRecord? {
        try c.queryOne("SELECT * FROM wl_users WHERE project_id = ? AND email = ?", p, email).map(userRecord)
    }

    static func user(_ c: SQLiteConnection, _ p: ProjectID, token: String) throws -> UserRecord? {
        try c.queryOne("SELECT * FROM wl_users WHERE project_id = ? AND token = ?", p, token).map(userRecord)
    }

    static func users(_ c: SQLiteConnection, _ p: ProjectID) throws -> [UserRecord] {
        try c.query("SELECT * FROM wl_users WHERE project_id = ? ORDER BY created_at, id", p).map(userRecord)
    }

    static func insertUser(_ c: SQLiteConnection, _ p: ProjectID, _ u: UserRecord) throws {
        try c.run("INSERT INTO wl_users (project_id, id, email, password, token, activated, profile, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  p, u.id, u.email, u.password, u.token, u.activated, text(.object(u.profile)), u.createdAt)
    }

    static func updateUser(_ c: SQLiteConnection, _ p: ProjectID, _ u: UserRecord) throws {
        try c.run("UPDATE wl_users SET password = ?, token = ?, activated = ?, profile = ? WHERE project_id = ? AND id = ?",
                  u.password, u.token, u.activated, text(.object(u.profile)), p, u.id)
    }

    private static func userRecord(_ row: Row) -> UserRecord {
        UserRecord(id: row.string("id") ?? "", email: row.string("email") ?? "", password: row.string("password"), token: row.string("token") ?? "",
                   activated: row.bool("activated") ?? true, profile: json(row.string("profile")).objectValue ?? [:], createdAt: row.string("created_at") ?? "")
    }

    // MARK: Vouchers

    static func voucher(_ c: SQLiteConnection, _ p: ProjectID, code: String) throws -> VoucherRecord? {
        try c.queryOne("SELECT * FROM wl_vouchers WHERE project_id = ? AND code = ?", p, WarrantyLifeRules.normalizedVoucherCode(code)).map(voucherRecord)
    }

    static func voucher(_ c: SQLiteConnection, _ p: ProjectID, warrantyID: String) throws -> VoucherRecord? {
        try c.queryOne("SELECT * FROM wl_vouchers WHERE project_id = ? AND warranty_id = ?", p, warrantyID).map(voucherRecord)
    }

    static func vouchers(_ c: SQLiteConnection, _ p: ProjectID) throws -> [VoucherRecord] {
        try c.query("SELECT * FROM wl_vouchers WHERE project_id = ? ORDER BY created_at, code", p).map(voucherRecord)
    }

    static func saveVoucher(_ c: SQLiteConnection, _ p: ProjectID, _ v: VoucherRecord) throws {
        let seed = (try? JSONValue.from(v.seed)) ?? .null
        try c.run("""
            INSERT INTO wl_vouchers (project_id, code, status, claimed_by_user_id, original_device_id, warranty_id, attributes, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, code) DO UPDATE SET status = excluded.status, claimed_by_user_id = excluded.claimed_by_user_id,
              original_device_id = excluded.original_device_id, warranty_id = excluded.warranty_id, attributes = excluded.attributes,
              updated_at = excluded.updated_at
            """, p, WarrantyLifeRules.normalizedVoucherCode(v.code), v.status, v.claimedByUserID, v.originalDeviceID, v.warrantyID,
            text(seed), v.createdAt, v.updatedAt)
    }

    private static func voucherRecord(_ row: Row) -> VoucherRecord {
        let seed = (try? JSONDecoder().decode(VoucherSeed.self, from: Data((row.string("attributes") ?? "").utf8))) ?? VoucherSeed(code: row.string("code") ?? "")
        return VoucherRecord(code: row.string("code") ?? "", status: row.string("status") ?? "unredeemed", claimedByUserID: row.string("claimed_by_user_id"),
                             originalDeviceID: row.string("original_device_id"), warrantyID: row.string("warranty_id") ?? "", seed: seed,
                             createdAt: row.string("created_at") ?? "", updatedAt: row.string("updated_at") ?? "")
    }

    static func recordLookup(_ c: SQLiteConnection, _ p: ProjectID, code: String, deviceID: String?, userID: String?, action: String, type: String, now: String) throws {
        try c.run("INSERT INTO wl_voucher_lookups (project_id, code, device_id, user_id, action, registration_type, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                  p, code, deviceID, userID, action, type, now)
    }

    /// The most recent lookup by this caller (user, then device), else the project's latest.
    static func latestLookup(_ c: SQLiteConnection, _ p: ProjectID, userID: String?, deviceID: String?) throws -> Row? {
        if let userID, let row = try c.queryOne("SELECT * FROM wl_voucher_lookups WHERE project_id = ? AND user_id = ? ORDER BY id DESC LIMIT 1", p, userID) { return row }
        if let deviceID, let row = try c.queryOne("SELECT * FROM wl_voucher_lookups WHERE project_id = ? AND device_id = ? ORDER BY id DESC LIMIT 1", p, deviceID) { return row }
        return try c.queryOne("SELECT * FROM wl_voucher_lookups WHERE project_id = ? ORDER BY id DESC LIMIT 1", p)
    }

    static func lookups(_ c: SQLiteConnection, _ p: ProjectID) throws -> [JSONValue] {
        try c.query("SELECT * FROM wl_voucher_lookups WHERE project_id = ? ORDER BY id", p).map { row in
            ["id": .int(Int64(row.int("id") ?? 0)), "code": .string(row.string("code") ?? ""), "deviceId": row.string("device_id").map(JSONValue.string) ?? .null,
             "userId": row.string("user_id").map(JSONValue.string) ?? .null, "action": .string(row.string("action") ?? ""),
             "registrationType": .string(row.string("registration_type") ?? ""), "createdAt": .string(row.string("created_at") ?? "")]
        }
    }

    // MARK: Items

    static func item(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> ItemRecord? {
        try c.queryOne("SELECT * FROM wl_items WHERE project_id = ? AND id = ?", p, id).map(itemRecord)
    }

    static func item(_ c: SQLiteConnection, _ p: ProjectID, deviceID: String) throws -> ItemRecord? {
        try c.queryOne("SELECT * FROM wl_items WHERE project_id = ? AND device_id = ?", p, deviceID).map(itemRecord)
    }

    static func items(_ c: SQLiteConnection, _ p: ProjectID, userID: String? = nil) throws -> [ItemRecord] {
        try c.query("SELECT * FROM wl_items WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY created_at, id", p, userID, userID).map(itemRecord)
    }

    static func saveItem(_ c: SQLiteConnection, _ p: ProjectID, _ i: ItemRecord) throws {
        try c.run("""
            INSERT INTO wl_items (project_id, id, device_id, user_id, category_id, manufacturer_name, model, mpn, imei, notification_token, ssr, ssd, trade_in, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET device_id = excluded.device_id, user_id = excluded.user_id, category_id = excluded.category_id,
              manufacturer_name = excluded.manufacturer_name, model = excluded.model, mpn = excluded.mpn, imei = excluded.imei,
              notification_token = excluded.notification_token, ssr = excluded.ssr, ssd = excluded.ssd, trade_in = excluded.trade_in,
              updated_at = excluded.updated_at
            """, p, i.id, i.deviceID, i.userID, i.categoryID, i.manufacturerName, i.model, i.mpn, i.imei, i.notificationToken,
            i.ssr, i.ssd, i.tradeIn, i.createdAt, i.updatedAt)
    }

    static func deleteItem(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> Bool {
        try c.run("DELETE FROM wl_items WHERE project_id = ? AND id = ?", p, id) > 0
    }

    private static func itemRecord(_ row: Row) -> ItemRecord {
        ItemRecord(id: row.string("id") ?? "", deviceID: row.string("device_id") ?? "", userID: row.string("user_id") ?? "",
                   categoryID: row.string("category_id"), manufacturerName: row.string("manufacturer_name"), model: row.string("model"),
                   mpn: row.string("mpn"), imei: row.string("imei"), notificationToken: row.string("notification_token"),
                   ssr: row.bool("ssr") ?? false, ssd: row.bool("ssd") ?? false, tradeIn: row.bool("trade_in") ?? false,
                   createdAt: row.string("created_at") ?? "", updatedAt: row.string("updated_at") ?? "")
    }

    // MARK: Warranties

    static func warranty(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> WarrantyRecord? {
        try c.queryOne("SELECT * FROM wl_warranties WHERE project_id = ? AND id = ?", p, id).map(warrantyRecord)
    }

    static func warranties(_ c: SQLiteConnection, _ p: ProjectID, userID: String? = nil, itemID: String? = nil) throws -> [WarrantyRecord] {
        try c.query("""
            SELECT * FROM wl_warranties WHERE project_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR item_id = ?) ORDER BY created_at, id
            """, p, userID, userID, itemID, itemID).map(warrantyRecord)
    }

    static func saveWarranty(_ c: SQLiteConnection, _ p: ProjectID, _ w: WarrantyRecord) throws {
        try c.run("""
            INSERT INTO wl_warranties (project_id, id, item_id, user_id, voucher_code, document, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET item_id = excluded.item_id, user_id = excluded.user_id, voucher_code = excluded.voucher_code,
              document = excluded.document
            """, p, w.id, w.itemID, w.userID, w.voucherCode, text(.object(w.document)), w.document["createdAt"]?.stringValue ?? "")
    }

    private static func warrantyRecord(_ row: Row) -> WarrantyRecord {
        WarrantyRecord(id: row.string("id") ?? "", itemID: row.string("item_id"), userID: row.string("user_id"), voucherCode: row.string("voucher_code"),
                       document: json(row.string("document")).objectValue ?? [:])
    }

    // MARK: Sensor events and uploads

    static func sensorEvent(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> Row? {
        try c.queryOne("SELECT * FROM wl_sensor_events WHERE project_id = ? AND id = ?", p, id)
    }

    static func insertSensorEvent(_ c: SQLiteConnection, _ p: ProjectID, id: String, itemID: String, eventAt: String?, type: Int?, body: JSONValue, now: String) throws -> String? {
        var duplicateOf: String?
        if let eventAt {
            duplicateOf = try c.scalar("""
                SELECT id FROM wl_sensor_events WHERE project_id = ? AND item_id = ? AND event_at = ? AND sensor_event_type IS ? AND duplicate_of IS NULL
                ORDER BY created_at, rowid LIMIT 1
                """, p, itemID, eventAt, type).string
        }
        try c.run("INSERT INTO wl_sensor_events (project_id, id, item_id, event_at, sensor_event_type, body, duplicate_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  p, id, itemID, eventAt, type, text(body), duplicateOf, now)
        return duplicateOf
    }

    static func diagnostic(_ c: SQLiteConnection, _ p: ProjectID, id: String) throws -> Row? {
        try c.queryOne("SELECT * FROM wl_diagnostics WHERE project_id = ? AND id = ?", p, id)
    }

    // MARK: Content and insights

    static func content(_ c: SQLiteConnection, _ p: ProjectID, _ name: String) throws -> JSONValue {
        if let stored = try c.scalar("SELECT document FROM wl_content WHERE project_id = ? AND name = ?", p, name).string { return json(stored) }
        return DefaultContent.value(name)
    }

    static func setContent(_ c: SQLiteConnection, _ p: ProjectID, _ name: String, _ value: JSONValue) throws {
        try c.run("INSERT INTO wl_content (project_id, name, document) VALUES (?, ?, ?) ON CONFLICT (project_id, name) DO UPDATE SET document = excluded.document",
                  p, name, text(value))
    }

    static func insight(_ c: SQLiteConnection, _ p: ProjectID, itemID: String) throws -> JSONValue? {
        try c.scalar("SELECT document FROM wl_insights WHERE project_id = ? AND item_id = ?", p, itemID).string.map { json($0) }
    }

    static func setInsight(_ c: SQLiteConnection, _ p: ProjectID, itemID: String, _ value: JSONValue?) throws {
        guard let value, value != .null else {
            try c.run("DELETE FROM wl_insights WHERE project_id = ? AND item_id = ?", p, itemID)
            return
        }
        try c.run("INSERT INTO wl_insights (project_id, item_id, document) VALUES (?, ?, ?) ON CONFLICT (project_id, item_id) DO UPDATE SET document = excluded.document",
                  p, itemID, text(value))
    }

    /// `countries` → whether `country` is a country id and `state` (when given) one of its province ids.
    static func checkRegion(_ c: SQLiteConnection, _ p: ProjectID, country: Int?, state: Int?) throws -> String? {
        guard country != nil || state != nil else { return nil }
        let countries = try content(c, p, "appConfig")["countries"]?.arrayValue ?? []
        if let country {
            guard let match = countries.first(where: { $0["id"]?.intValue == country }) else { return "Field `country` must be a country id from /app-config." }
            if let state, !(match["provinces"]?.arrayValue ?? []).contains(where: { $0["id"]?.intValue == state }) {
                return "Field `state` must be a province id of country \(country) from /app-config."
            }
        } else if let state, !countries.contains(where: { ($0["provinces"]?.arrayValue ?? []).contains(where: { $0["id"]?.intValue == state }) }) {
            return "Field `state` must be a province id from /app-config."
        }
        return nil
    }
}
