import Foundation

/// The credential issued by product registration.
public struct AsleepProductRegistration: Sendable, Codable, Equatable {
    /// The registered product's id, `P-<uuid>`.
    public var productId: String
    /// Sent as `x-product-key` on later requests.
    public var productKey: String
    /// Whether this call registered a new product (201) rather than finding the same one (200).
    public var created: Bool
}
