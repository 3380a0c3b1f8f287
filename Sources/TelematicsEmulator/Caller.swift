import EmulatorCore
import Foundation
import Storage

/// A Telematics SDK route's context: the core's, and the tokens the request presented.
typealias TelematicsContext = RequestContext<TelematicsCaller>

/// The tokens a Telematics request presented, as the platform read them once
/// (`TelematicsPlatform.presentedCredentials`). Admitting them needs the store, so each route
/// does that inside its own transaction (`TelematicsRoutes.authenticate`), after its body checks.
struct TelematicsCaller: StoreCaller {
    /// The bearer access token, as sent (nil without one, or on the refresh route when the body has a refresh token).
    let accessToken: String?
    /// The refresh token of the body, as sent: on the refresh route, or when no bearer token was sent.
    let refreshToken: String?

    /// The tokens of `context`'s presented credential.
    init(_ context: EmulatorContext) {
        accessToken = context.presentedCredentials.first { $0.kind == "accessToken" }?.sent
        refreshToken = context.presentedCredentials.first { $0.kind == "refreshToken" }?.sent
    }
}

extension TelematicsCaller {
    /// The store on the transaction's connection: each route authenticates inside its own
    /// transaction (`TelematicsRoutes.authenticate`), after its body checks.
    func service(on connection: any StoreConnection, context: EmulatorContext) -> TelematicsStore { TelematicsStore(connection: connection) }
}
