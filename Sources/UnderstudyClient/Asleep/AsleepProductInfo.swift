import Foundation

/// `Asleep.ProductInfo`: the device registered by 3.3 `setup(apiKey:productInfo:)`.
public struct AsleepProductInfo: Sendable, Codable, Equatable {
    /// The product model name (1–100 characters).
    public var model: String
    /// `SERIAL` or `MAC_ADDRESS` (the SDK's `.serial` / `.macAddress`).
    public var identifierType: String
    /// The device's stable identifier (1–255 characters).
    public var identifierValue: String

    /// Product info for `setup(apiKey:productInfo:)`; the identifier type defaults to `SERIAL`.
    public init(model: String, identifierType: String = "SERIAL", identifierValue: String) {
        self.model = model
        self.identifierType = identifierType
        self.identifierValue = identifierValue
    }
}
