import Foundation

/// A custom short-link host of the project.
public struct WarpLinkDomain: Sendable, Equatable, Codable {
    /// The custom short-link host, lower-case.
    public var hostname: String
    /// `verified` (serves links and is listed by `/sdk/validate`) or `suspended` (its links answer 404).
    public var state: String
    /// The app whose links the domain serves; nil for org-wide.
    public var appID: String?
    /// When the domain was added (`…T…:….mmmZ`).
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case hostname, state
        case appID = "app_id", createdAt = "created_at"
    }
}
