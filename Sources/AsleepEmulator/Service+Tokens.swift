import EmulatorCore
import Foundation

/// appId/appSecret access and refresh tokens.
extension AsleepService {
    // MARK: Tokens

    /// `POST /customer/v1/app/token`, with the body's `app_id` and `app_secret` (nil when the
    /// body is unreadable or lacks them: the same 401 as a wrong secret, as the real service
    /// does not say which).
    func issueToken(appID: String?, secret: String?) throws -> JSONValue {
        guard let appID, let secret, let app = try store.app(appID), app.appSecret == secret, app.state != .revoked else {
            throw AsleepError.unauthorized
        }
        return try tokens(project: app.project, appID: appID)
    }

    /// `POST /customer/v1/app/refresh`, with the body's `refresh_token`: the refresh token is
    /// single-use. As above, an unreadable body is a plain 401.
    func refreshToken(_ token: String?) throws -> JSONValue {
        guard let token, let record = try store.token(token), record.kind == .refresh, record.expiresAt > now else {
            throw AsleepError.unauthorized
        }
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
