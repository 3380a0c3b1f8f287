import Foundation

/// `Warranty` (the fields the SDK's accessors expose; the full payload is in `raw`).
public struct WarrantyLifeWarranty: Sendable, Codable, Equatable {
    /// The warranty's id.
    public var id: String
    /// `ACTIVE`, `EXPIRED`, …
    public var status: String
    /// Whether the device is covered now; Smart Saver opt-ins need it.
    public var hasActiveCoverage: Bool
    /// The item (device) the warranty covers.
    public var itemId: String?
    /// Whether the plan offers SmartSaver Reward (rewards for careful use).
    public var ssrOffered: Bool
    /// Whether the plan offers SmartSaver AI Deductible (a lower deductible for safe handling).
    public var ssdOffered: Bool
    /// Whether the plan offers the trade-in program.
    public var tipOffered: Bool
    /// Whether the user opted in to SmartSaver Reward (`setSSR`).
    public var ssr: Bool
    /// Whether the user opted in to SmartSaver AI Deductible (`setSSD`).
    public var ssd: Bool
    /// Whether the user opted in to trade-in (`setTradeIn`).
    public var tradeIn: Bool
    /// The reward the user chose, between 0 and `rewardAmountMax`.
    public var rewardAmount: Double?
    /// The highest reward the plan allows.
    public var rewardAmountMax: Double?
    /// The warranty as the server sent it, for fields not typed here.
    public var raw: AnyJSON?
}
