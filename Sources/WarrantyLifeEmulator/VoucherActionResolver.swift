import EmulatorCore
import Foundation

/// What the voucher lookup knows about the caller and the voucher when deriving the action.
struct VoucherLookupFacts: Sendable, Equatable {
    /// Seeded `forceAction`, if any.
    var forcedAction: VoucherAction?
    /// The voucher's redemption state.
    var status: VoucherStatus
    /// Expiry, if any.
    var expiresAt: Date?
    /// Whether the plan may move to another device or owner.
    var transferable: Bool
    /// The account the voucher is claimed by.
    var claimedByUserID: String?
    /// The device the voucher is bound to.
    var originalDeviceID: String?
    /// `isPlanTransfer` query flag.
    var isPlanTransfer: Bool
    /// `activeWarrantiesInCurrentDevice` query value.
    var activeWarrantiesInCurrentDevice: Int
    /// Whether Understudy itself holds an active warranty for the calling device.
    var deviceHasActiveWarranty: Bool
    /// The authenticated caller, if the request carried user credentials.
    var callerUserID: String?
    /// `deviceId` query value.
    var deviceID: String?

    /// Creates facts with neutral defaults.
    init(
        forcedAction: VoucherAction? = nil, status: VoucherStatus = .unredeemed, expiresAt: Date? = nil, transferable: Bool = false,
        claimedByUserID: String? = nil, originalDeviceID: String? = nil, isPlanTransfer: Bool = false,
        activeWarrantiesInCurrentDevice: Int = 0, deviceHasActiveWarranty: Bool = false, callerUserID: String? = nil, deviceID: String? = nil
    ) {
        self.forcedAction = forcedAction
        self.status = status
        self.expiresAt = expiresAt
        self.transferable = transferable
        self.claimedByUserID = claimedByUserID
        self.originalDeviceID = originalDeviceID
        self.isPlanTransfer = isPlanTransfer
        self.activeWarrantiesInCurrentDevice = activeWarrantiesInCurrentDevice
        self.deviceHasActiveWarranty = deviceHasActiveWarranty
        self.callerUserID = callerUserID
        self.deviceID = deviceID
    }
}

/// Derives the action the host app takes for a looked-up voucher (D-WL-15).
enum VoucherActionResolver {
    /// The voucher action per the decision table D-WL-15 (first matching rule wins), or the
    /// redeemed/expired error.
    static func action(for facts: VoucherLookupFacts, now: Date) throws(WarrantyLifeError) -> VoucherAction {
        if let forced = facts.forcedAction { return forced }
        if facts.status == .redeemed { throw .voucherRedeemed }
        if let expiresAt = facts.expiresAt, now >= expiresAt { throw .voucherExpired }
        if facts.isPlanTransfer { return facts.transferable ? .startWarrantyTransfer : .warrantyNotTransferable }
        if facts.activeWarrantiesInCurrentDevice > 0 || facts.deviceHasActiveWarranty { return .activeWarrantyConflict }
        if let claimer = facts.claimedByUserID {
            guard let caller = facts.callerUserID else { return .userNotLoggedInClaimed }
            if caller != claimer { return .differentEmailClaimed }
        }
        if let original = facts.originalDeviceID, !original.isEmpty, original != facts.deviceID {
            return facts.transferable ? .deviceTransferablePopup : .deviceNonTransferablePopup
        }
        return .normalRegistration
    }
}
