import Foundation

/// `Voucher` (the fields a host routes on; the full payload is in `raw`).
public struct WarrantyLifeVoucher: Sendable, Codable, Equatable {
    /// The voucher code as stored (lookups ignore case).
    public var voucherCode: String
    /// `VoucherAction` case name.
    public var action: String
    /// `RegistrationType` case name.
    public var registrationType: String
    /// Whether the action is an error.
    public var isError: Bool
    /// E-mail of a locked-email voucher.
    public var lockedEmail: String?
    /// Warranty the voucher belongs to.
    public var warrantyId: String
    /// Base64 of `warrantyId`.
    public var encodedWarrantyId: String
    /// Whether the host must collect a receipt image before registering.
    public var receiptRequired: Bool
    /// Whether the host must ask for the purchase date before registering.
    public var purchaseDateRequired: Bool
    /// Active warranties on this device.
    public var countWarrantyOnCurrentDevice: Int
    /// The voucher as the server sent it, for fields not typed here.
    public var raw: AnyJSON?
}
