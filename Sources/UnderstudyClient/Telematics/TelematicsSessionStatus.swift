import Foundation

/// `TelematicsSessionState.status`.
public enum TelematicsSessionStatus: Int, Sendable, Codable, Equatable {
    /// No credentials: never initialised, or after `logout()`.
    case notAuthenticated = 0
    /// The server accepted the access token on the last call.
    case verified = 1
    /// Credentials are held but no call has confirmed them yet.
    case unverified = 2
    /// The server refuses the user for now (`accountInactive` or `accessDenied`); calls still go out.
    case denied = 3
    /// The credentials are gone for good; calls throw without reaching the server.
    case invalid = 4
}
