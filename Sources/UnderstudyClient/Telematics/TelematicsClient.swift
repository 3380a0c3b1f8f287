import Foundation

extension Understudy {
    /// The Sentilant Telematics emulation: SDK-like sessions and the platform's control plane.
    public var telematics: TelematicsClient { TelematicsClient(understudy: self) }
}

/// Entry point of the `telematics` namespace.
public struct TelematicsClient: Sendable {
    let understudy: Understudy

    /// The base URL to give the SDK (`<server>/telematics`).
    public var baseURL: String { understudy.baseURL.absoluteString.trimmingTrailingSlash + "/telematics" }

    /// A session that behaves like `TelematicsSDKios` after `TelematicsTokenInitOptions`: it renews
    /// tokens proactively (judged on `deviceClock`) and reactively (after a 401), and records
    /// `onAuthenticationInvalidated` reasons. Call `initSDK()` to retrieve the user, as the SDK does.
    public func session(_ options: TelematicsTokenInitOptions, deviceClock: @escaping @Sendable () -> Date = { Date() }) -> TelematicsSession {
        TelematicsSession(options: options, deviceClock: deviceClock)
    }

    /// A session for a minted pair against this server.
    public func session(_ pair: TelematicsTokenPair, deviceClock: @escaping @Sendable () -> Date = { Date() }) -> TelematicsSession {
        session(pair.options(baseURL: baseURL), deviceClock: deviceClock)
    }

    /// The Telematics control plane of one project.
    public func admin(_ projectID: String) -> TelematicsAdminClient {
        TelematicsAdminClient(project: understudy.admin.project(projectID))
    }
}

extension String {
    fileprivate var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
