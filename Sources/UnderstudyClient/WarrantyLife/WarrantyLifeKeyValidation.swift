import Foundation

/// The result of API-key validation, as `apiKeyValidationHandler` receives it.
public enum WarrantyLifeKeyValidation: Sendable, Equatable {
    /// The key is accepted (200); the name and environment the key was registered with.
    case valid(name: String?, environment: String?)
    /// Server said 401: the SDK blocks itself.
    case invalid(message: String)
    /// Anything else: network, 5xx, timeout.
    case unavailable(message: String, statusCode: Int)
}
