import Foundation

/// `LoginResponse` of login and registration.
public struct WarrantyLifeLoginResponse: Sendable, Codable, Equatable {
    /// The session token, sent after `identity` in Basic auth or alone as a Bearer token.
    public var token: String
    /// The identity sent before the token in Basic auth.
    public var identity: String
    /// The account's id.
    public var userId: String
    /// The account's e-mail address (also its login identity).
    public var email: String
}
