import EmulatorCore
import Foundation
import Storage

/// All of this platform's SQL, against the `asleep_*` tables (and the core's credential table for
/// the project's own key): typed methods returning records, on the connection of the caller's
/// transaction.
struct AsleepStore {
    /// The connection of the current read or write.
    let connection: any StoreConnection

    // MARK: Settings

    /// The project's stored settings document (camelCase object); nil when it has none.
    func settingsDocument(project: ProjectID) throws -> JSONValue? {
        guard let text = try connection.scalar("SELECT settings FROM asleep_settings WHERE project_id = ?", project).string else { return nil }
        return try JSONValue.parse(Data(text.utf8))
    }

    /// Replaces the project's stored settings document.
    func saveSettingsDocument(project: ProjectID, _ document: JSONValue) throws {
        try connection.run(
            """
            INSERT INTO asleep_settings (project_id, settings) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings
            """, project, String(decoding: document.encoded(), as: UTF8.self))
    }

    // MARK: API keys

    /// The key `apiKey`, in any project.
    func apiKey(_ apiKey: String) throws -> APIKeyRecord? {
        try connection.fetchOne(APIKeyRecord.self, "SELECT * FROM asleep_api_keys WHERE api_key = ?", apiKey)
    }

    /// The key `apiKey` of `project`.
    func apiKey(_ apiKey: String, project: ProjectID) throws -> APIKeyRecord? {
        try connection.fetchOne(APIKeyRecord.self, "SELECT * FROM asleep_api_keys WHERE api_key = ? AND project_id = ?", apiKey, project)
    }

    /// The project's keys, oldest first.
    func apiKeys(project: ProjectID) throws -> [APIKeyRecord] {
        try connection.fetchAll(APIKeyRecord.self, "SELECT * FROM asleep_api_keys WHERE project_id = ? ORDER BY created_at, api_key", project)
    }

    /// The project's oldest key.
    func firstAPIKey(project: ProjectID) throws -> APIKeyRecord? {
        try connection.fetchOne(APIKeyRecord.self, "SELECT * FROM asleep_api_keys WHERE project_id = ? ORDER BY created_at LIMIT 1", project)
    }

    /// The API key the project was created with (from the core's credential table), if any.
    func provisionedAPIKey(project: ProjectID) throws -> String? {
        try connection.scalar("SELECT value FROM project_credentials WHERE project_id = ? AND platform = 'asleep' AND name = 'apiKey'", project).string
    }

    /// Adds a key; with `ignoringDuplicates` an existing key is left as it is (provisioning).
    func insertAPIKey(
        _ apiKey: String, project: ProjectID, customer: String, state: CredentialState = .active, productBilling: Bool = true,
        now: Date, ignoringDuplicates: Bool = false
    ) throws {
        try connection.run(
            """
            INSERT \(ignoringDuplicates ? "OR IGNORE " : "")INTO asleep_api_keys (api_key, project_id, customer, state, product_billing, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, apiKey, project, customer, state.rawValue, productBilling, now.timeIntervalSince1970)
    }

    /// Writes a key's customer, state and plan flag.
    func updateAPIKey(_ record: APIKeyRecord) throws {
        try connection.run(
            "UPDATE asleep_api_keys SET customer = ?, state = ?, product_billing = ? WHERE api_key = ?",
            record.customer, record.state.rawValue, record.productBilling, record.apiKey)
    }

    /// Deletes a key of `project`; false when there was none.
    func deleteAPIKey(_ apiKey: String, project: ProjectID) throws -> Bool {
        try connection.run("DELETE FROM asleep_api_keys WHERE api_key = ? AND project_id = ?", apiKey, project) > 0
    }

    // MARK: Apps and tokens

    /// The app `appID`, in any project.
    func app(_ appID: String) throws -> AppRecord? {
        try connection.fetchOne(AppRecord.self, "SELECT * FROM asleep_apps WHERE app_id = ?", appID)
    }

    /// The project's apps, oldest first.
    func apps(project: ProjectID) throws -> [AppRecord] {
        try connection.fetchAll(AppRecord.self, "SELECT * FROM asleep_apps WHERE project_id = ? ORDER BY created_at, app_id", project)
    }

    /// Adds an app; with `ignoringDuplicates` an existing app is left as it is (provisioning).
    func insertApp(
        _ appID: String, project: ProjectID, secret: String, customer: String, state: CredentialState = .active,
        productBilling: Bool = true, now: Date, ignoringDuplicates: Bool = false
    ) throws {
        try connection.run(
            """
            INSERT \(ignoringDuplicates ? "OR IGNORE " : "")INTO asleep_apps (app_id, project_id, app_secret, customer, state, product_billing, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, appID, project, secret, customer, state.rawValue, productBilling, now.timeIntervalSince1970)
    }

    /// The token `token` (either kind).
    func token(_ token: String) throws -> TokenRecord? {
        try connection.fetchOne(TokenRecord.self, "SELECT * FROM asleep_tokens WHERE token = ?", token)
    }

    /// Stores a token.
    func insertToken(_ token: String, project: ProjectID, kind: TokenKind, appID: String, expiresAt: Date, now: Date) throws {
        try connection.run(
            "INSERT INTO asleep_tokens (token, project_id, kind, app_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            token, project, kind.rawValue, appID, expiresAt.timeIntervalSince1970, now.timeIntervalSince1970)
    }

    /// Deletes a token (a refresh token is single-use).
    func deleteToken(_ token: String) throws {
        try connection.run("DELETE FROM asleep_tokens WHERE token = ?", token)
    }

    /// Makes the project's live tokens of `kind` (nil: both) expire at `now`; returns how many.
    func expireTokens(project: ProjectID, kind: TokenKind?, now: Date) throws -> Int {
        let kindName = kind?.rawValue ?? "all"
        return try connection.run(
            "UPDATE asleep_tokens SET expires_at = ? WHERE project_id = ? AND (? = 'all' OR kind = ?) AND expires_at > ?",
            now.timeIntervalSince1970, project, kindName, kindName, now.timeIntervalSince1970)
    }

    // MARK: Users

    /// The user `id` of `project` (and of `customer`, when given).
    func user(project: ProjectID, customer: String?, id: String) throws -> UserRecord? {
        try connection.fetchOne(
            UserRecord.self, "SELECT * FROM asleep_users WHERE user_id = ? AND project_id = ? AND (? IS NULL OR customer = ?)",
            id, project, customer, customer)
    }

    /// The project's users, oldest first.
    func users(project: ProjectID) throws -> [UserRecord] {
        try connection.fetchAll(UserRecord.self, "SELECT * FROM asleep_users WHERE project_id = ? ORDER BY created_at, user_id", project)
    }

    /// Whether any project has a user `id` (ids are global keys).
    func userIDExists(_ id: String) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM asleep_users WHERE user_id = ?", id).int ?? 0 > 0
    }

    /// Adds a user.
    func insertUser(id: String, project: ProjectID, customer: String, metadata: JSONValue, now: Date) throws {
        try connection.run(
            "INSERT INTO asleep_users (user_id, project_id, customer, metadata, created_at) VALUES (?, ?, ?, ?, ?)",
            id, project, customer, Self.text(metadata), now.timeIntervalSince1970)
    }

    /// Replaces a user's metadata.
    func updateUserMetadata(project: ProjectID, id: String, metadata: JSONValue) throws {
        try connection.run("UPDATE asleep_users SET metadata = ? WHERE user_id = ? AND project_id = ?", Self.text(metadata), id, project)
    }

    /// Deletes a user with every session and chunk.
    func deleteUser(project: ProjectID, id: String) throws {
        try deleteSessions(project: project, user: id)
        try connection.run("DELETE FROM asleep_users WHERE project_id = ? AND user_id = ?", project, id)
    }

    /// JSON text for a nullable JSON column.
    static func text(_ value: JSONValue) -> String? {
        value.isNull ? nil : String(decoding: AsleepJSON.encoded(value), as: UTF8.self)
    }

    // MARK: Products

    /// The product registered for this device identity.
    func product(project: ProjectID, customer: String, model: String, identifierType: String, identifierValue: String) throws -> ProductRecord? {
        try connection.fetchOne(
            ProductRecord.self,
            """
            SELECT * FROM asleep_products WHERE project_id = ? AND customer = ? AND model = ? AND identifier_type = ? AND identifier_value = ?
            """, project, customer, model, identifierType, identifierValue)
    }

    /// The product `id`.
    func product(id: String) throws -> ProductRecord? {
        try connection.fetchOne(ProductRecord.self, "SELECT * FROM asleep_products WHERE product_id = ?", id)
    }

    /// The unrevoked product of `customer` in `project` whose credential is `productKey`.
    func activeProduct(productKey: String, project: ProjectID, customer: String) throws -> ProductRecord? {
        try connection.fetchOne(
            ProductRecord.self,
            "SELECT * FROM asleep_products WHERE product_key = ? AND project_id = ? AND customer = ? AND revoked = 0",
            productKey, project, customer)
    }

    /// The product of `project` whose credential is `productKey`, revoked or not.
    func product(productKey: String, project: ProjectID) throws -> ProductRecord? {
        try connection.fetchOne(ProductRecord.self, "SELECT * FROM asleep_products WHERE product_key = ? AND project_id = ?", productKey, project)
    }

    /// Whether any product has the credential `productKey`.
    func productKeyExists(_ productKey: String) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM asleep_products WHERE product_key = ?", productKey).int ?? 0 > 0
    }

    /// The project's products, oldest first.
    func products(project: ProjectID) throws -> [ProductRecord] {
        try connection.fetchAll(ProductRecord.self, "SELECT * FROM asleep_products WHERE project_id = ? ORDER BY created_at, product_id", project)
    }

    /// Adds a product.
    func insertProduct(
        id: String, project: ProjectID, customer: String, productKey: String, model: String, identifierType: String,
        identifierValue: String, now: Date
    ) throws {
        try connection.run(
            """
            INSERT INTO asleep_products (product_id, project_id, customer, product_key, model, identifier_type, identifier_value, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, id, project, customer, productKey, model, identifierType, identifierValue, now.timeIntervalSince1970)
    }

    /// Gives a product a new credential and un-revokes it.
    func replaceProductKey(id: String, productKey: String) throws {
        try connection.run("UPDATE asleep_products SET product_key = ?, revoked = 0 WHERE product_id = ?", productKey, id)
    }

    /// Revokes a product of `project`; false when there is none.
    func revokeProduct(id: String, project: ProjectID) throws -> Bool {
        try connection.run("UPDATE asleep_products SET revoked = 1 WHERE product_id = ? AND project_id = ?", id, project) > 0
    }
}
