import Foundation

/// `ApiErrorResponse`: WarrantyLife's error body.
public struct WarrantyLifeAPIError: Sendable, Codable, Equatable, Error {
    /// The error's category in snake_case, e.g. `validation_failed` or `voucher_not_found`.
    public var error: String
    /// The text the SDK shows (it falls back to `error` without one).
    public var errorMessage: String?
    /// Numeric code (`-1` for transport failures, as the SDK reports them).
    public var errorCode: Int
    /// HTTP status (0 for transport failures); not part of the body.
    public var status: Int?

    /// An error as the SDK would build it, for comparing with what the server sent.
    public init(error: String, errorMessage: String?, errorCode: Int, status: Int? = nil) {
        self.error = error
        self.errorMessage = errorMessage
        self.errorCode = errorCode
        self.status = status
    }

    /// The WarrantyLife error carried by a client error (`-1` for transport failures), if any.
    public init?(_ clientError: UnderstudyClientError) {
        switch clientError {
        case .unexpectedStatus(let status, let body):
            guard var decoded = try? JSONDecoder().decode(WarrantyLifeAPIError.self, from: Data(body.utf8)) else { return nil }
            decoded.status = status
            self = decoded
        case .transport(_, let message):
            self.init(error: "network_error", errorMessage: message, errorCode: -1, status: 0)
        default:
            return nil
        }
    }
}

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

/// The result of API-key validation, as `apiKeyValidationHandler` receives it.
public enum WarrantyLifeKeyValidation: Sendable, Equatable {
    /// The key is accepted (200); the name and environment the key was registered with.
    case valid(name: String?, environment: String?)
    /// Server said 401: the SDK blocks itself.
    case invalid(message: String)
    /// Anything else: network, 5xx, timeout.
    case unavailable(message: String, statusCode: Int)
}

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

/// The data `registerDevice` uploads, as the SDK collects it from the tests the host ran.
public struct WarrantyLifeRegistrationData: Sendable {
    /// The device's marketing name, e.g. `iPhone 13 Pro`.
    public var model: String
    /// The device's machine id, e.g. `iPhone14,2`.
    public var mpn: String
    /// The IMEI the host set with `setIMEI(_:)`; `registerDevice` stops with `missingIMEI` without it.
    public var imei: String?
    /// When the Sensor Test ran, local time `yyyy-MM-dd HH:mm:ss.SSS`; repeats of it reuse the first sensor event.
    public var eventAt: String
    /// Readings (each a JSON object).
    public var readings: [AnyJSON]
    /// Recorded audio clip, if any.
    public var audio: Data?
    /// The diagnostic report body (auto test results etc.).
    public var diagnostic: [String: AnyJSON]
    /// Images by kind (`reference`, `test`, `receipt`, …), uploaded in this order.
    public var images: [(kind: String, data: Data)]

    /// Registration data as the SDK would have collected it.
    public init(model: String, mpn: String, imei: String?, eventAt: String, readings: [AnyJSON], audio: Data?, diagnostic: [String: AnyJSON], images: [(kind: String, data: Data)]) {
        self.model = model; self.mpn = mpn; self.imei = imei; self.eventAt = eventAt; self.readings = readings
        self.audio = audio; self.diagnostic = diagnostic; self.images = images
    }
}

/// `registerDevice` state updates.
public enum WarrantyLifeRegistrationState: Sendable, Equatable {
    /// The workflow started; nothing is uploaded yet.
    case submitted
    /// A stage finished: 25 item, 50 sensor event, 75 sensor uploads, 100 diagnostics and images.
    case progress(Int)
    /// Everything is uploaded.
    case success
    /// Local data is missing (`missingIMEI`, `missingSensorTestData`, `missingReceiptImage`); nothing was sent.
    case validationError(String)
    /// The network workflow failed; the host may call `registerDevice` again.
    case uploadError(message: String, code: Int)
}

/// `OptInError` of `setSSR`/`setSSD`/`setTradeIn`.
public enum WarrantyLifeOptInError: Error, Sendable, Equatable {
    /// No user is logged in.
    case notLoggedIn
    /// No warranty with active coverage for this device.
    case noActiveCoverage
    /// The warranty's plan does not offer this program.
    case optionNotOffered(String)
    /// Motion and (Notification or Location Always) are needed.
    case requiredPermissionsNotGranted(String)
    /// The Smart Saver Sensor Event upload failed.
    case sensorEventFailed(String, errorCode: Int)
}
