import EmulatorCore
import Foundation
import Storage

/// Token pairs: minting, rotation, revocation and the control plane's expire/revoke.
extension TelematicsStore {
    /// What the control plane can do to one token.
    enum TokenAction: String, Sendable { case expire, revoke }

    /// The pair holding access token `token`.
    func pair(_ project: ProjectID, access token: String) throws -> PairRecord? {
        try connection.fetchOne(PairRecord.self, "SELECT * FROM telematics_token_pairs WHERE access_token = ? AND project_id = ?", token, project)
    }

    /// The pair holding refresh token `token`.
    func pair(_ project: ProjectID, refresh token: String) throws -> PairRecord? {
        try connection.fetchOne(PairRecord.self, "SELECT * FROM telematics_token_pairs WHERE refresh_token = ? AND project_id = ?", token, project)
    }

    /// The pair with id `id`.
    func pair(_ project: ProjectID, id: String) throws -> PairRecord? {
        try connection.fetchOne(PairRecord.self, "SELECT * FROM telematics_token_pairs WHERE id = ? AND project_id = ?", id, project)
    }

    /// Pairs in minting order, of one user or of all.
    func pairs(_ project: ProjectID, userID: Int?) throws -> [PairRecord] {
        // One statement per filter, so that one user's pairs come from (project, user, created_at).
        guard let userID else {
            return try connection.fetchAll(PairRecord.self, "SELECT * FROM telematics_token_pairs WHERE project_id = ? ORDER BY created_at, rowid", project)
        }
        return try connection.fetchAll(
            PairRecord.self, "SELECT * FROM telematics_token_pairs WHERE project_id = ? AND user_id = ? ORDER BY created_at, rowid",
            project, userID)
    }

    /// Mints a pair. Tokens carry the project's tenant key so the project is found without a lookup.
    func mintPair(
        _ project: ProjectID, userID: Int, accessExpires: Double, refreshExpires: Double?, accessTtl: Double, refreshTtl: Double?,
        parentID: String?, now: Date, secrets: TokenSecrets
    ) throws -> PairRecord {
        let tenant = try tenantKey(project)
        let accessToken = "tma_\(tenant)_\(secrets.access)"
        let refreshToken = refreshExpires == nil ? nil : "tmr_\(tenant)_\(secrets.refresh)"
        try insertPair(
            project, id: secrets.pairID, userID: userID, accessToken: accessToken, accessExpires: accessExpires, refreshToken: refreshToken,
            refreshExpires: refreshExpires, accessTtl: accessTtl, refreshTtl: refreshTtl, parentID: parentID, createdAt: now.timeIntervalSince1970)
        return try inserted(pair(project, id: secrets.pairID))
    }

    /// Stores a pair with given tokens (fixtures name their own).
    func insertPair(
        _ project: ProjectID, id: String, userID: Int, accessToken: String, accessExpires: Double, refreshToken: String?,
        refreshExpires: Double?, accessTtl: Double, refreshTtl: Double?, parentID: String?, createdAt: Double
    ) throws {
        try connection.run(
            """
            INSERT INTO telematics_token_pairs (project_id, id, user_id, access_token, access_expires, refresh_token, refresh_expires,
                access_ttl_seconds, refresh_ttl_seconds, parent_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, userID, accessToken, accessExpires, refreshToken, refreshExpires, accessTtl, refreshTtl, parentID, createdAt)
    }

    /// Records that `pairID` rotated into `successorID`.
    func markRotated(_ project: ProjectID, pairID: String, successorID: String, at time: Double) throws {
        try connection.run("UPDATE telematics_token_pairs SET rotated_at = ?, successor_id = ? WHERE project_id = ? AND id = ?", time, successorID, project, pairID)
    }

    /// Revokes both tokens of the pair holding `accessToken` (logout), and of `refreshToken` when it is the same user's.
    func revokePairs(_ project: ProjectID, accessToken: String?, refreshToken: String?, userID: Int, at time: Double) throws {
        let revoke = """
            UPDATE telematics_token_pairs SET access_revoked_at = COALESCE(access_revoked_at, ?), refresh_revoked_at = COALESCE(refresh_revoked_at, ?)
            WHERE project_id = ? AND user_id = ? AND
            """
        if let accessToken { try connection.run(revoke + " access_token = ?", time, time, project, userID, accessToken) }
        if let refreshToken { try connection.run(revoke + " refresh_token = ?", time, time, project, userID, refreshToken) }
    }

    /// Expires or revokes the access or refresh token `token`; nil when no pair holds it.
    func apply(_ action: TokenAction, _ project: ProjectID, token: String, at time: Double) throws -> PairRecord? {
        let found: PairRecord
        let change: String
        if let pair = try pair(project, access: token) {
            (found, change) = (pair, action == .expire ? "access_expires = MIN(access_expires, ?)" : "access_revoked_at = COALESCE(access_revoked_at, ?)")
        } else if let pair = try pair(project, refresh: token) {
            (found, change) = (pair, action == .expire ? "refresh_expires = MIN(refresh_expires, ?)" : "refresh_revoked_at = COALESCE(refresh_revoked_at, ?)")
        } else {
            return nil
        }
        try connection.run("UPDATE telematics_token_pairs SET \(change) WHERE project_id = ? AND id = ?", time, project, found.id)
        return try pair(project, id: found.id)
    }
}
