import EmulatorCore
import Foundation

/// The host app's routing decision for a looked-up voucher (`Voucher.action`, SDK `VoucherAction`).
public enum VoucherAction: String, Sendable, CaseIterable, Codable {
    // Wire values are the SDK's case names.
    /// Register the device normally.
    case normalRegistration
    /// The voucher is bound to another device and may move: ask before transferring.
    case deviceTransferablePopup
    /// The voucher is bound to another device and may not move.
    case deviceNonTransferablePopup
    /// Claimed by an account; the user must sign in first.
    case userNotLoggedInClaimed
    /// Claimed by a different account than the one signed in.
    case differentEmailClaimed
    /// The device already has an active warranty (an error action).
    case activeWarrantyConflict
    /// The plan cannot be transferred (an error action).
    case warrantyNotTransferable
    /// Begin moving the plan to this device.
    case startWarrantyTransfer

    /// `activeWarrantyConflict` and `warrantyNotTransferable` are errors for the SDK (`isError == true`).
    public var isError: Bool { self == .activeWarrantyConflict || self == .warrantyNotTransferable }
}

/// Which registration fields the host shows (SDK `RegistrationType`).
public enum RegistrationType: String, Sendable, CaseIterable, Codable {
    // Wire values are the SDK's case names.
    /// Email and password registration.
    case normalRegistration
    /// Registration without a password.
    case passwordlessRegistration
    /// Registration with the voucher's locked e-mail.
    case lockedEmailRegistration
}

/// A Smart Saver program in the order the SDK lists them.
enum SmartSaverProgram: String, CaseIterable, Sendable {
    case ssr = "SSR", ssd = "SSD", tradeIn = "TRADE_IN"

    /// The member of a sensor event or warranty body that sets it.
    var bodyKey: String {
        switch self {
        case .ssr: return "ssr"
        case .ssd: return "ssd"
        case .tradeIn: return "tradeIn"
        }
    }

    /// The warranty document member saying whether it is offered.
    var offeredKey: String {
        switch self {
        case .ssr: return "ssrOffered"
        case .ssd: return "ssdOffered"
        case .tradeIn: return "tipOffered"
        }
    }
}

/// An item with the warranties on it: the active one, if any, and all of them.
struct ItemCoverage: Sendable {
    var item: ItemRecord
    var active: WarrantyRecord?
    var all: [WarrantyRecord]
}

/// One Smart Saver program of an item, as `GET /items/{itemId}/smart-saver` shows it.
struct SmartSaverStatus: Sendable {
    var program: SmartSaverProgram
    var eligible: Bool
    var optedIn: Bool
    var optedInAt: String?
}

/// A new account as `POST /auth/user` asked for it.
struct Registration: Sendable {
    var email: String
    var password: String?
    var country: Int?
    var state: Int?
    var profile: [String: JSONValue]
}

/// WarrantyLife's rules over one project at one instant. It holds no connection: it reads and
/// writes through the store of the transaction the route opened, and gets the clock and any new
/// ids from the route, so each flow is load → decide → write in one transaction.
struct WarrantyLifeService {
    /// The store of the caller's transaction.
    let store: WarrantyLifeStore
    /// The project the credential belongs to.
    let project: ProjectID
    /// The project clock when the request arrived.
    let now: Date

    /// `now` as WarrantyLife stores and shows times (whole seconds).
    var nowText: String { Timestamp.format(now, fractionalSeconds: false) }

    // MARK: Accounts

    /// The account with this e-mail, if any.
    func account(email: String) throws -> UserRecord? { try store.user(project, email: email) }

    /// Puts a reset mail in the outbox when the e-mail is an account's; silent otherwise.
    func recover(email: String, resetToken: String) throws {
        guard let user = try store.user(project, email: email) else { return }
        try store.addToOutbox(
            project, kind: "email", recipient: user.email, subject: "Reset your WarrantyLife password",
            payload: [
                "type": "passwordReset", "email": .string(user.email), "userId": .string(user.id), "resetToken": .string(resetToken),
                "link": .string("https://www.warrantylife.com/reset-password?token=\(resetToken)"),
            ], now: now)
    }

    /// The account a login names; a mismatch is `failureStatus`, an inactive account 403.
    func login(username: String, password: String, failureStatus: Int) throws -> UserRecord {
        guard let user = try store.user(project, email: username.trimmingWhitespace()), let stored = user.password, stored == password else {
            throw WarrantyLifeError.invalidCredentials(status: failureStatus)
        }
        guard user.activated else { throw WarrantyLifeError.accountNotActivated }
        return user
    }

    /// Revokes the caller's token by giving the account a new one.
    func logout(_ user: UserRecord, newToken: String) throws {
        var updated = user
        updated.token = newToken
        try store.updateUser(project, updated)
    }

    /// Creates the account (D-WL-10): 409 for a known e-mail, 422 when the looked-up voucher locks
    /// another e-mail; a passwordless voucher lets the password be left out.
    func register(_ registration: Registration, id: String, token: String, requireActivation: Bool) throws -> UserRecord {
        if let problem = try regionProblem(country: registration.country, state: registration.state) { throw WarrantyLifeError.validation(problem) }
        let lookup = try store.latestLookup(project, userID: nil, deviceID: nil)
        let type = lookup.flatMap { RegistrationType(rawValue: $0.registrationType) }
        if (registration.password ?? "").isEmpty && type != .passwordlessRegistration {
            throw WarrantyLifeError.missingField("password")
        }
        if try store.user(project, email: registration.email) != nil { throw WarrantyLifeError.emailAlreadyRegistered }
        if type == .lockedEmailRegistration, let code = lookup?.code, let locked = try store.voucher(project, code: code)?.seed.lockedEmail,
            !locked.equalsIgnoringCase(registration.email)
        {
            throw WarrantyLifeError.emailLocked
        }
        let user = UserRecord(
            id: id, email: registration.email, password: registration.password, token: token, activated: !requireActivation,
            profile: registration.profile, createdAt: nowText)
        try store.insertUser(project, user)
        if !user.activated {
            try store.addToOutbox(
                project, kind: "email", recipient: user.email, subject: "Activate your WarrantyLife account",
                payload: ["type": "activation", "email": .string(user.email), "userId": .string(user.id)], now: now)
        }
        return user
    }

    /// The problem with a country/state pair against the project's `appConfig`, if any.
    func regionProblem(country: Int?, state: Int?) throws -> String? {
        guard country != nil || state != nil else { return nil }
        return Self.regionProblem(appConfig: try store.content(project, "appConfig"), country: country, state: state)
    }

    // MARK: Vouchers

    /// Looks a voucher up, derives the action for this caller and device, and records the lookup
    /// (later registration and warranty calls complete the voucher last looked up).
    func lookUpVoucher(
        code: String, isPlanTransfer: Bool, activeWarrantiesInCurrentDevice: Int, deviceID: String?,
        callerUserID: String?
    ) throws -> (voucher: VoucherRecord, action: VoucherAction, countOnDevice: Int) {
        guard let voucher = try store.voucher(project, code: code) else { throw WarrantyLifeError.voucherNotFound }
        let (facts, count) = try voucherFacts(
            voucher, isPlanTransfer: isPlanTransfer, activeWarrantiesInCurrentDevice: activeWarrantiesInCurrentDevice,
            deviceID: deviceID, callerUserID: callerUserID)
        let action = try VoucherActionResolver.action(for: facts, now: now)
        try store.recordLookup(
            project, code: voucher.code, deviceID: deviceID, userID: callerUserID, action: action,
            type: voucher.seed.registrationType ?? .normalRegistration, now: nowText)
        return (voucher, action, count)
    }

    /// What the decision table needs to know about a lookup of `voucher` by this caller on this
    /// device, and how many active warranties the device has. Shared by the SDK lookup and the
    /// control plane's preview, so both answer the same.
    func voucherFacts(
        _ voucher: VoucherRecord, isPlanTransfer: Bool, activeWarrantiesInCurrentDevice: Int, deviceID: String?,
        callerUserID: String?
    ) throws -> (VoucherLookupFacts, countOnDevice: Int) {
        var deviceActive = false
        var count = 0
        if let deviceID, let item = try store.item(project, deviceID: deviceID) {
            let warranties = try store.warranties(project, itemID: item.id)
            count = warranties.filter { $0.isActive(now: now) }.count
            // Rule 6 holds for any active warranty on the device, the voucher's own included.
            deviceActive = count > 0
        }
        let facts = VoucherLookupFacts(
            forcedAction: voucher.seed.forceAction, status: voucher.status, expiresAt: voucher.seed.expiresAt.flatMap(Self.parseDate),
            transferable: voucher.transferable, claimedByUserID: voucher.claimedByUserID, originalDeviceID: voucher.originalDeviceID,
            isPlanTransfer: isPlanTransfer, activeWarrantiesInCurrentDevice: activeWarrantiesInCurrentDevice, deviceHasActiveWarranty: deviceActive,
            callerUserID: callerUserID, deviceID: deviceID)
        return (facts, count)
    }

    // MARK: Item ownership

    /// The item `id` owned by the caller: 404 (1301) when missing, 401 (1302) when another account's.
    func ownedItem(id: String, user: UserRecord) throws -> ItemRecord {
        guard let item = try store.item(project, id: id) else { throw WarrantyLifeError.itemNotFound }
        try checkOwner(item: item, user: user)
        return item
    }

    /// 401 (1302), naming the owner's masked e-mail, unless the caller owns the item.
    func checkOwner(item: ItemRecord, user: UserRecord) throws {
        guard item.userID != user.id else { return }
        let owner = try store.user(project, id: item.userID)
        throw WarrantyLifeError.deviceRegisteredToOtherAccount(maskedEmail: Self.maskEmail(owner?.email ?? "unknown@unknown.com"))
    }

    /// The item with its warranties; the active one is the newest that covers it now.
    func coverage(of item: ItemRecord) throws -> ItemCoverage {
        let warranties = try store.warranties(project, itemID: item.id)
        return ItemCoverage(item: item, active: warranties.last { $0.isActive(now: now) }, all: warranties)
    }
}
