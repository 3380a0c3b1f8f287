import EmulatorCore
import Foundation

/// appId/appSecret access and refresh tokens.
extension AsleepService {
    // MARK: Tokens

    /// `POST /customer/v1/app/token`.
    func issueToken(body: Data) throws -> JSONValue {
        // An unreadable body is the same 401 as a wrong secret: the real service does not say which.
        let document = try RequestBody.parse(body, unreadable: .unauthorized)
        guard let appID = document["app_id"]?.stringValue,
            let secret = document["app_secret"]?.stringValue,
            let app = try store.app(appID), app.appSecret == secret, app.state != .revoked
        else { throw AsleepError.unauthorized }
        return try tokens(project: app.project, appID: appID)
    }

    /// `POST /customer/v1/app/refresh`: the refresh token is single-use.
    func refreshToken(body: Data) throws -> JSONValue {
        // As above: an unreadable body is a plain 401.
        let document = try RequestBody.parse(body, unreadable: .unauthorized)
        guard let token = document["refresh_token"]?.stringValue,
            let record = try store.token(token), record.kind == .refresh, record.expiresAt > now
        else { throw AsleepError.unauthorized }
        try store.deleteToken(token)
        return try tokens(project: record.project, appID: record.appID)
    }

    private func tokens(project: ProjectID, appID: String) throws -> JSONValue {
        let settings = try settings(project: project)
        let access = "at_" + draw(.alphanumeric(40))
        let refresh = "rt_" + draw(.alphanumeric(40))
        try store.insertToken(access, project: project, kind: .access, appID: appID, expiresAt: now.addingTimeInterval(settings.accessTTL), now: now)
        try store.insertToken(refresh, project: project, kind: .refresh, appID: appID, expiresAt: now.addingTimeInterval(settings.refreshTTL), now: now)
        return ["access_token": .string(access), "refresh_token": .string(refresh), "expires_in": .int(Int64(settings.accessTTL))]
    }
}
