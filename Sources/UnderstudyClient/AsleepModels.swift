import Foundation

/// `Asleep.ProductInfo`: the device registered by 3.3 `setup(apiKey:productInfo:)`.
public struct AsleepProductInfo: Sendable, Codable, Equatable {
    /// The product model name (1–100 characters).
    public var model: String
    /// `SERIAL` or `MAC_ADDRESS` (the SDK's `.serial` / `.macAddress`).
    public var identifierType: String
    /// The device's stable identifier (1–255 characters).
    public var identifierValue: String

    /// Creates product info.
    public init(model: String, identifierType: String = "SERIAL", identifierValue: String) {
        self.model = model
        self.identifierType = identifierType
        self.identifierValue = identifierValue
    }
}

/// The credential issued by product registration.
public struct AsleepProductRegistration: Sendable, Codable, Equatable {
    /// `P-<uuid>`.
    public var productId: String
    /// Sent as `x-product-key` on later requests.
    public var productKey: String
    /// Whether this call registered a new product (201) rather than finding the same one (200).
    public var created: Bool
}

/// What `initAsleepConfig` hands the app: who is tracked and with which credentials.
public struct AsleepConfig: Sendable, Equatable {
    /// The API key (`x-api-key`), or nil when an access token is used.
    public var apiKey: String?
    /// A 3.3 access token (`Authorization: Bearer`), when appId/appSecret were used.
    public var accessToken: String?
    /// The user.
    public var userId: String
    /// The product credential from `setup(productInfo:)`, sent as `x-product-key`.
    public var productKey: String?
    /// The device's IANA zone, sent as `timezone`.
    public var timezone: String?
    /// The app's nickname, recorded as the session's `service`.
    public var service: String?
    /// Where webhooks go.
    public var callbackUrl: String?

    /// Creates a config.
    public init(apiKey: String? = nil, accessToken: String? = nil, userId: String, productKey: String? = nil, timezone: String? = nil,
                service: String? = nil, callbackUrl: String? = nil) {
        self.apiKey = apiKey
        self.accessToken = accessToken
        self.userId = userId
        self.productKey = productKey
        self.timezone = timezone
        self.service = service
        self.callbackUrl = callbackUrl
    }
}

/// Access and refresh tokens (3.3 appId/appSecret).
public struct AsleepTokens: Sendable, Codable, Equatable {
    /// Sent as `Authorization: Bearer`.
    public var accessToken: String
    /// Exchanged at `/customer/v1/app/refresh`.
    public var refreshToken: String
    /// Access-token lifetime in seconds.
    public var expiresIn: Int
}

/// `GET /ai/v1/users/{id}` result.
public struct AsleepUser: Sendable, Codable, Equatable {
    /// The user id.
    public var userId: String
    /// Always false (deletion is immediate).
    public var toBeDeleted: Bool
    /// The most recently created session.
    public var lastSessionInfo: AsleepLastSessionInfo?
    /// Metadata (birth date, gender, height, weight).
    public var metadata: AsleepUserMetadata?
}

/// A user's most recent session, as the user API shows it.
public struct AsleepLastSessionInfo: Sendable, Codable, Equatable {
    public var sessionId: String
    public var inferenceType: String
    public var service: String
    public var startTime: String
    public var endTime: String?
    public var state: String
    public var completeTime: String?
}

/// User metadata.
public struct AsleepUserMetadata: Sendable, Codable, Equatable {
    public var birthYear: Int?
    public var birthMonth: Int?
    public var birthDay: Int?
    public var gender: String?
    public var height: Double?
    public var weight: Double?

    /// Creates metadata.
    public init(birthYear: Int? = nil, birthMonth: Int? = nil, birthDay: Int? = nil, gender: String? = nil, height: Double? = nil, weight: Double? = nil) {
        self.birthYear = birthYear
        self.birthMonth = birthMonth
        self.birthDay = birthDay
        self.gender = gender
        self.height = height
        self.weight = weight
    }
}

/// The result of one 30-s chunk upload.
public struct AsleepUploadResult: Sendable, Codable, Equatable {
    public var sessionId: String
    public var seqNum: Int
    public var snoringDetected: Bool
    public var breathDetected: Bool
}

/// `GET /data/v3/sessions/{id}` result (`Asleep.Model.Report`).
public struct AsleepReport: Sendable, Codable, Equatable {
    public var timezone: String
    public var peculiarities: [String]
    public var missingDataRatio: Double
    public var session: AsleepReportSession
    public var stat: AsleepStat?
}

/// The `session` of a report (`Asleep.Model.Session`).
public struct AsleepReportSession: Sendable, Codable, Equatable {
    public var id: String
    public var state: String
    public var startTime: String
    public var endTime: String?
    public var unexpectedEndTime: String?
    public var createdTimezone: String
    public var sleepStages: [Int]?
    public var breathStages: [Int]?
    public var snoringStages: [Int]?
}

/// Report statistics (`Asleep.Model.Stat`).
public struct AsleepStat: Sendable, Codable, Equatable {
    public var sleepTime: String?
    public var wakeTime: String?
    public var sleepIndex: Int?
    public var sleepLatency: Int?
    public var wakeupLatency: Int?
    public var lightLatency: Int?
    public var deepLatency: Int?
    public var remLatency: Int?
    public var timeInBed: Int?
    public var timeInSleepPeriod: Int?
    public var timeInSleep: Int?
    public var timeInWake: Int?
    public var timeInLight: Int?
    public var timeInDeep: Int?
    public var timeInRem: Int?
    public var timeInStableBreath: Int?
    public var timeInUnstableBreath: Int?
    public var timeInSnoring: Int?
    public var timeInNoSnoring: Int?
    public var sleepEfficiency: Double?
    public var sleepRatio: Double?
    public var wakeRatio: Double?
    public var lightRatio: Double?
    public var deepRatio: Double?
    public var remRatio: Double?
    public var stableBreathRatio: Double?
    public var unstableBreathRatio: Double?
    public var snoringRatio: Double?
    public var noSnoringRatio: Double?
    public var breathingIndex: Double?
    public var breathingPattern: String?
    public var wasoCount: Int?
    public var longestWaso: Int?
    public var sleepCycleCount: Int?
    public var sleepCycle: Int?
    public var snoringCount: Int?
    public var unstableBreathCount: Int?
}

/// `GET /data/v1/sessions` result.
public struct AsleepSessionList: Sendable, Codable, Equatable {
    public var timezone: String
    public var sleepSessionList: [AsleepSleepSession]
}

/// One entry of the session list (`Asleep.Model.SleepSession`).
public struct AsleepSleepSession: Sendable, Codable, Equatable {
    public var sessionId: String
    public var state: String
    public var sessionStartTime: String
    public var sessionEndTime: String?
    public var createdTimezone: String
    public var unexpectedEndTime: String?
    public var lastReceivedSeqNum: Int?
    public var timeInBed: Int
}

/// `GET /data/v1/users/{id}/average-stats` result, loosely typed where the averages are open-ended.
public struct AsleepAverageReport: Sendable, Codable, Equatable {
    public var period: AsleepPeriod
    public var peculiarities: [String]
    public var averageStats: AnyJSON?
    public var neverSleptSessions: [AnyJSON]
    public var sleptSessions: [AnyJSON]
}

/// The period of an average report.
public struct AsleepPeriod: Sendable, Codable, Equatable {
    public var timezone: String
    public var startDate: String
    public var endDate: String

    /// Creates a period.
    public init(timezone: String, startDate: String, endDate: String) {
        self.timezone = timezone
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// `{"detail": "…"}`, Asleep's error body.
public struct AsleepErrorBody: Sendable, Codable, Equatable {
    /// The message.
    public var detail: String
}

extension UnderstudyClientError {
    /// The HTTP status of an Asleep error response, if this is one.
    public var asleepStatus: Int? {
        if case .unexpectedStatus(let status, _) = self { return status }
        return nil
    }

    /// The `detail` of an Asleep error response, if this is one.
    public var asleepDetail: String? {
        guard case .unexpectedStatus(_, let body) = self else { return nil }
        return try? JSONDecoder().decode(AsleepErrorBody.self, from: Data(body.utf8)).detail
    }
}
