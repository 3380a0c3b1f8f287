import EmulatorCore
import Foundation
import SQLiteStore

/// appId/appSecret access and refresh tokens.
extension AsleepService {
    // MARK: Tokens

    /// `POST /customer/v1/app/token`.
    func issueToken(body: Data) throws -> JSONValue {
        guard let document = try? JSONValue.parse(body), let appID = document["app_id"]?.stringValue,
              let secret = document["app_secret"]?.stringValue,
              let app = try connection.queryOne("SELECT * FROM asleep_apps WHERE app_id = ?", appID),
              app.string("app_secret") == secret, app.string("state") != "revoked" else { throw AsleepError.unauthorized }
        return try tokens(project: app.string("project_id") ?? "", appID: appID)
    }

    /// `POST /customer/v1/app/refresh`.
    func refreshToken(body: Data) throws -> JSONValue {
        guard let document = try? JSONValue.parse(body), let token = document["refresh_token"]?.stringValue,
              let row = try connection.queryOne("SELECT * FROM asleep_tokens WHERE token = ? AND kind = 'refresh'", token),
              (row.double("expires_at") ?? 0) > now.timeIntervalSince1970 else { throw AsleepError.unauthorized }
        try connection.run("DELETE FROM asleep_tokens WHERE token = ?", token)
        return try tokens(project: row.string("project_id") ?? "", appID: row.string("app_id") ?? "")
    }

    private func tokens(project: ProjectID, appID: String) throws -> JSONValue {
        let settings = defaults.merged(with: try AsleepStore.settings(connection, project: project))
        let access = "at_" + draw(.alphanumeric(40))
        let refresh = "rt_" + draw(.alphanumeric(40))
        let nowSeconds = now.timeIntervalSince1970
        try connection.run("INSERT INTO asleep_tokens (token, project_id, kind, app_id, expires_at, created_at) VALUES (?, ?, 'access', ?, ?, ?)",
                           access, project, appID, nowSeconds + settings.accessTTL, nowSeconds)
        try connection.run("INSERT INTO asleep_tokens (token, project_id, kind, app_id, expires_at, created_at) VALUES (?, ?, 'refresh', ?, ?, ?)",
                           refresh, project, appID, nowSeconds + settings.refreshTTL, nowSeconds)
        return ["access_token": .string(access), "refresh_token": .string(refresh), "expires_in": .int(Int64(settings.accessTTL))]
    }
}
