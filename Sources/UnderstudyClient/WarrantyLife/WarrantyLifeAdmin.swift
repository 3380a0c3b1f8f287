import Foundation

/// Control-plane calls under `/__admin/projects/{id}/warrantylife`.
public struct WarrantyLifeAdmin: Sendable {
    let project: ProjectAdmin

    /// Any control-plane call; throws unless the status is 2xx; returns the JSON body.
    @discardableResult
    public func call(_ method: String, _ path: String, _ json: AnyJSON? = nil, query: [(String, String)] = []) async throws(UnderstudyClientError) -> AnyJSON {
        let response = try await project.platformRequest("warrantylife", method, path, json: json, query: query)
        guard (200..<300).contains(response.status) else { throw .unexpectedStatus(response.status, body: response.text) }
        return response.body.isEmpty ? .null : try response.json()
    }

    /// Creates a developer key (`state`: valid, revoked, unavailable).
    @discardableResult
    public func createDeveloperKey(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("POST", "/developer-keys", body) }
    /// Changes a key's state, name or environment.
    @discardableResult
    public func updateDeveloperKey(_ key: String, _ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("PATCH", "/developer-keys/\(key)", body) }
    /// Creates a user (`email`, `password`, profile fields, `activated`); the answer has `userId`, `token`, `authorization`.
    @discardableResult
    public func createUser(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("POST", "/users", body) }
    /// Activates, changes the password of, or revokes the token of a user.
    @discardableResult
    public func updateUser(_ userID: String, _ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("PATCH", "/users/\(userID)", body) }
    /// Creates or replaces a voucher (attributes camelCase as on the wire).
    @discardableResult
    public func createVoucher(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("POST", "/vouchers", body) }
    /// A voucher's state.
    public func voucher(_ code: String) async throws(UnderstudyClientError) -> AnyJSON { try await call("GET", "/vouchers/\(code)") }
    /// Creates an item for a device owned by `userId` or `ownerEmail` (another account is created when unknown).
    @discardableResult
    public func createItem(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("POST", "/items", body) }
    /// Deletes an item.
    public func deleteItem(_ itemID: String) async throws(UnderstudyClientError) { try await call("DELETE", "/items/\(itemID)") }
    /// Creates a warranty on an item.
    @discardableResult
    public func createWarranty(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("POST", "/warranties", body) }
    /// Changes a warranty (status, coverage dates, offers…).
    @discardableResult
    public func updateWarranty(_ id: String, _ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("PATCH", "/warranties/\(id)", body) }
    /// Seeds an item's `InsightData` (or `null` for none).
    @discardableResult
    public func setInsights(itemID: String, _ insight: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("PUT", "/items/\(itemID)/insights", insight) }
    /// Generates an item's insights in a time zone.
    @discardableResult
    public func generateInsights(itemID: String, timeZone: String) async throws(UnderstudyClientError) -> AnyJSON {
        try await call("POST", "/items/\(itemID)/insights/generate", ["timeZone": .string(timeZone)])
    }
    /// Replaces content (`appConfig`, `offers`, `offersRegistrationHTML`, `offersRewardScreenHTML`, `surveys`, `sensorTests`, `diagnosticConfig`).
    @discardableResult
    public func setContent(_ name: String, _ value: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try await call("PUT", "/content/\(name)", value) }
    /// Records a silent push for the item's latest FCM token in the outbox.
    @discardableResult
    public func silentPush(itemID: String, payload: AnyJSON? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        try await call("POST", "/items/\(itemID)/silent-push", payload.map { ["payload": $0] } ?? [:])
    }
    /// Inspection lists: `sensor-events`, `readings`, `audio-clips`, `diagnostics`, `images`, `fcm-tokens`, `opt-ins`, `submissions`,
    /// `voucher-lookups`, `users`, `vouchers`, `items`, `warranties`, `developer-keys`; the array under the answer's only key.
    public func list(_ name: String, itemID: String? = nil) async throws(UnderstudyClientError) -> [AnyJSON] {
        let body = try await call("GET", "/" + name, query: itemID.map { [("itemId", $0)] } ?? [])
        if case .object(let members) = body, let first = members.values.first, let array = first.array { return array }
        return []
    }
}
