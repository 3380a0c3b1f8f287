import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// The credentials and identity headers a request carries, as the service reads them.
struct Presented: Sendable, Equatable {
    var apiKey: String?
    var bearer: String?
    var productKey: String?
    var userAgent: String?
    var userID: String?
    var timezone: String?
}

/// Who is calling: the project and customer behind the credential, and its plan.
struct Caller: Sendable, Equatable {
    var project: ProjectID
    var customer: String
    var apiKey: String?
    var productBilling: Bool
    var productID: String?
    var settings: AsleepSettings
}

/// Who is calling an SDK route, as the route group's one reading of the request found: what it
/// presented and the credential the core resolved. The store turns it into a `Caller` inside
/// the request's one write transaction (`AsleepService.authenticate`), so that a revoked key or
/// an expired plan is seen in the same transaction as the work it guards.
struct AsleepCaller: StoreCaller {
    /// The credentials and identity headers.
    let presented: Presented
    /// The credential the core's index resolved (nil when none was presented or known).
    let credential: CredentialRecord?
    /// Makes the request's service on a transaction's connection (the route group's store step).
    let makeService: @Sendable (any StoreConnection) -> AsleepService

    /// Reads the request once: the API key and bearer token as `AsleepPlatform.presentedCredentials`
    /// parsed them (it skips an empty `x-api-key`, which `authenticate` treats as absent too),
    /// the other identity headers from the request.
    init(_ request: Request, _ context: EmulatorContext, makeService: @escaping @Sendable (any StoreConnection) -> AsleepService) {
        self.makeService = makeService
        let headers = request.headers
        presented = Presented(
            apiKey: context.presented(AsleepPlatform.CredentialKind.apiKey), bearer: context.presented(AsleepPlatform.CredentialKind.accessToken),
            productKey: headers["x-product-key"], userAgent: headers["user-agent"], userID: headers["x-user-id"], timezone: headers["timezone"])
        credential = context.credential
    }
}

/// Who is calling a token route: the app credentials or refresh token its JSON body carried, as
/// `AsleepPlatform.presentedCredentials` read them (the one parse of the body). Nil for a body
/// that is not JSON or lacks the field: the route answers both with the same 401.
struct AppCaller: StoreCaller {
    /// `app_id` (`POST /customer/v1/app/token`).
    let appID: String?
    /// `app_secret` (`POST /customer/v1/app/token`).
    let appSecret: String?
    /// `refresh_token` (`POST /customer/v1/app/refresh`).
    let refreshToken: String?

    /// Makes the request's service on a transaction's connection (the route group's store step).
    let makeService: @Sendable (any StoreConnection) -> AsleepService

    /// The body's credentials, from the core's context.
    init(_ context: EmulatorContext, makeService: @escaping @Sendable (any StoreConnection) -> AsleepService) {
        self.makeService = makeService
        appID = context.presented(AsleepPlatform.CredentialKind.appID)
        appSecret = context.presented(AsleepPlatform.CredentialKind.appSecret)
        refreshToken = context.presented(AsleepPlatform.CredentialKind.refreshToken)
    }
}

extension AsleepCaller {
    /// The request's service: the store on `connection`, the project's clock reading and ids.
    func service(on connection: any StoreConnection, context: EmulatorContext) -> AsleepService { makeService(connection) }
}

extension AppCaller {
    /// The request's service: the store on `connection`, the project's clock reading and ids.
    func service(on connection: any StoreConnection, context: EmulatorContext) -> AsleepService { makeService(connection) }
}
