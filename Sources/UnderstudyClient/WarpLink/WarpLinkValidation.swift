import Foundation

/// The `/sdk/validate` answer.
public struct WarpLinkValidation: Sendable, Equatable, Decodable {
    /// Whether the key is accepted; false only with the `valid_false` rejection setting.
    public var valid: Bool
    /// The hosts the SDK treats as its links: `aplnk.to`, app handle domains and verified custom domains.
    public var domains: [String]

    /// An answer, for comparing with what the server sent.
    public init(valid: Bool, domains: [String]) {
        self.valid = valid
        self.domains = domains
    }
}
