import Foundation

/// `ApiErrorResponse`: WarrantyLife's error body.
public struct WarrantyLifeAPIError: Sendable, Codable, Equatable, Error {
    /// Snake-case category.
    public var error: String
    /// Human text.
    public var errorMessage: String?
    /// Numeric code (`-1` for transport failures, as the SDK reports them).
    public var errorCode: Int
    /// HTTP status (0 for transport failures); not part of the body.
    public var status: Int?

    /// Creates an error.
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
    /// The auth token.
    public var token: String
    /// The identity sent before the token in Basic auth.
    public var identity: String
    /// User id.
    public var userId: String
    /// E-mail.
    public var email: String
}

/// The result of API-key validation, as `apiKeyValidationHandler` receives it.
public enum WarrantyLifeKeyValidation: Sendable, Equatable {
    /// Key accepted.
    case valid(name: String?, environment: String?)
    /// Server said 401: the SDK blocks itself.
    case invalid(message: String)
    /// Anything else: network, 5xx, timeout.
    case unavailable(message: String, statusCode: Int)
}

/// `Voucher` (the fields a host routes on; the full payload is in `raw`).
public struct WarrantyLifeVoucher: Sendable, Codable, Equatable {
    /// Code.
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
    /// Receipt needed.
    public var receiptRequired: Bool
    /// Purchase date needed.
    public var purchaseDateRequired: Bool
    /// Active warranties on this device.
    public var countWarrantyOnCurrentDevice: Int
    /// The whole payload.
    public var raw: AnyJSON?
}

/// `Warranty` (the fields the SDK's accessors expose; the full payload is in `raw`).
public struct WarrantyLifeWarranty: Sendable, Codable, Equatable {
    /// Id.
    public var id: String
    /// `ACTIVE`, `EXPIRED`, …
    public var status: String
    /// Covered right now.
    public var hasActiveCoverage: Bool
    /// Item.
    public var itemId: String?
    /// Smart Saver offers and opt-ins.
    public var ssrOffered: Bool, ssdOffered: Bool, tipOffered: Bool, ssr: Bool, ssd: Bool, tradeIn: Bool
    /// Reward.
    public var rewardAmount: Double?
    /// Reward cap.
    public var rewardAmountMax: Double?
    /// The whole payload.
    public var raw: AnyJSON?
}

/// The data `registerDevice` uploads, as the SDK collects it from the tests the host ran.
public struct WarrantyLifeRegistrationData: Sendable {
    /// Device model (marketing name) and machine id.
    public var model: String, mpn: String
    /// `setIMEI(_:)`.
    public var imei: String?
    /// Sensor Test: local `eventAt`, readings, optional audio.
    public var eventAt: String
    /// Readings (each a JSON object).
    public var readings: [AnyJSON]
    /// Recorded audio clip, if any.
    public var audio: Data?
    /// The diagnostic report body (auto test results etc.).
    public var diagnostic: [String: AnyJSON]
    /// Images by kind (`reference`, `test`, `receipt`, …), uploaded in this order.
    public var images: [(kind: String, data: Data)]

    /// Creates registration data.
    public init(model: String, mpn: String, imei: String?, eventAt: String, readings: [AnyJSON], audio: Data?, diagnostic: [String: AnyJSON], images: [(kind: String, data: Data)]) {
        self.model = model; self.mpn = mpn; self.imei = imei; self.eventAt = eventAt; self.readings = readings
        self.audio = audio; self.diagnostic = diagnostic; self.images = images
    }
}

/// `registerDevice` state updates.
public enum WarrantyLifeRegistrationState: Sendable, Equatable {
    /// The upload started.
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
    /// No user session.
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
