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
    /// The wire's `session_id`.
    public var sessionId: String
    /// The wire's `inference_type`.
    public var inferenceType: String
    /// The wire's `service`.
    public var service: String
    /// The wire's `start_time`.
    public var startTime: String
    /// The wire's `end_time`.
    public var endTime: String?
    /// The wire's `state`.
    public var state: String
    /// The wire's `complete_time`.
    public var completeTime: String?
}

/// User metadata.
public struct AsleepUserMetadata: Sendable, Codable, Equatable {
    /// The wire's `birth_year`.
    public var birthYear: Int?
    /// The wire's `birth_month`.
    public var birthMonth: Int?
    /// The wire's `birth_day`.
    public var birthDay: Int?
    /// The wire's `gender`.
    public var gender: String?
    /// The wire's `height`.
    public var height: Double?
    /// The wire's `weight`.
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
    /// The wire's `session_id`.
    public var sessionId: String
    /// The wire's `seq_num`.
    public var seqNum: Int
    /// The wire's `snoring_detected`.
    public var snoringDetected: Bool
    /// The wire's `breath_detected`.
    public var breathDetected: Bool
}

/// `GET /data/v3/sessions/{id}` result (`Asleep.Model.Report`).
public struct AsleepReport: Sendable, Codable, Equatable {
    /// The wire's `timezone`.
    public var timezone: String
    /// The wire's `peculiarities`.
    public var peculiarities: [String]
    /// The wire's `missing_data_ratio`.
    public var missingDataRatio: Double
    /// The wire's `session`.
    public var session: AsleepReportSession
    /// The wire's `stat`.
    public var stat: AsleepStat?
}

/// The `session` of a report (`Asleep.Model.Session`).
public struct AsleepReportSession: Sendable, Codable, Equatable {
    /// The wire's `id`.
    public var id: String
    /// The wire's `state`.
    public var state: String
    /// The wire's `start_time`.
    public var startTime: String
    /// The wire's `end_time`.
    public var endTime: String?
    /// The wire's `unexpected_end_time`.
    public var unexpectedEndTime: String?
    /// The wire's `created_timezone`.
    public var createdTimezone: String
    /// The wire's `sleep_stages`.
    public var sleepStages: [Int]?
    /// The wire's `breath_stages`.
    public var breathStages: [Int]?
    /// The wire's `snoring_stages`.
    public var snoringStages: [Int]?
}

/// Report statistics (`Asleep.Model.Stat`).
public struct AsleepStat: Sendable, Codable, Equatable {
    /// The wire's `sleep_time`.
    public var sleepTime: String?
    /// The wire's `wake_time`.
    public var wakeTime: String?
    /// The wire's `sleep_index`.
    public var sleepIndex: Int?
    /// The wire's `sleep_latency`.
    public var sleepLatency: Int?
    /// The wire's `wakeup_latency`.
    public var wakeupLatency: Int?
    /// The wire's `light_latency`.
    public var lightLatency: Int?
    /// The wire's `deep_latency`.
    public var deepLatency: Int?
    /// The wire's `rem_latency`.
    public var remLatency: Int?
    /// The wire's `time_in_bed`.
    public var timeInBed: Int?
    /// The wire's `time_in_sleep_period`.
    public var timeInSleepPeriod: Int?
    /// The wire's `time_in_sleep`.
    public var timeInSleep: Int?
    /// The wire's `time_in_wake`.
    public var timeInWake: Int?
    /// The wire's `time_in_light`.
    public var timeInLight: Int?
    /// The wire's `time_in_deep`.
    public var timeInDeep: Int?
    /// The wire's `time_in_rem`.
    public var timeInRem: Int?
    /// The wire's `time_in_stable_breath`.
    public var timeInStableBreath: Int?
    /// The wire's `time_in_unstable_breath`.
    public var timeInUnstableBreath: Int?
    /// The wire's `time_in_snoring`.
    public var timeInSnoring: Int?
    /// The wire's `time_in_no_snoring`.
    public var timeInNoSnoring: Int?
    /// The wire's `sleep_efficiency`.
    public var sleepEfficiency: Double?
    /// The wire's `sleep_ratio`.
    public var sleepRatio: Double?
    /// The wire's `wake_ratio`.
    public var wakeRatio: Double?
    /// The wire's `light_ratio`.
    public var lightRatio: Double?
    /// The wire's `deep_ratio`.
    public var deepRatio: Double?
    /// The wire's `rem_ratio`.
    public var remRatio: Double?
    /// The wire's `stable_breath_ratio`.
    public var stableBreathRatio: Double?
    /// The wire's `unstable_breath_ratio`.
    public var unstableBreathRatio: Double?
    /// The wire's `snoring_ratio`.
    public var snoringRatio: Double?
    /// The wire's `no_snoring_ratio`.
    public var noSnoringRatio: Double?
    /// The wire's `breathing_index`.
    public var breathingIndex: Double?
    /// The wire's `breathing_pattern`.
    public var breathingPattern: String?
    /// The wire's `waso_count`.
    public var wasoCount: Int?
    /// The wire's `longest_waso`.
    public var longestWaso: Int?
    /// The wire's `sleep_cycle_count`.
    public var sleepCycleCount: Int?
    /// The wire's `sleep_cycle`.
    public var sleepCycle: Int?
    /// The wire's `snoring_count`.
    public var snoringCount: Int?
    /// The wire's `unstable_breath_count`.
    public var unstableBreathCount: Int?
}

/// `GET /data/v1/sessions` result.
public struct AsleepSessionList: Sendable, Codable, Equatable {
    /// The wire's `timezone`.
    public var timezone: String
    /// The wire's `sleep_session_list`.
    public var sleepSessionList: [AsleepSleepSession]
}

/// One entry of the session list (`Asleep.Model.SleepSession`).
public struct AsleepSleepSession: Sendable, Codable, Equatable {
    /// The wire's `session_id`.
    public var sessionId: String
    /// The wire's `state`.
    public var state: String
    /// The wire's `session_start_time`.
    public var sessionStartTime: String
    /// The wire's `session_end_time`.
    public var sessionEndTime: String?
    /// The wire's `created_timezone`.
    public var createdTimezone: String
    /// The wire's `unexpected_end_time`.
    public var unexpectedEndTime: String?
    /// The wire's `last_received_seq_num`.
    public var lastReceivedSeqNum: Int?
    /// The wire's `time_in_bed`.
    public var timeInBed: Int
}

/// `GET /data/v1/users/{id}/average-stats` result, loosely typed where the averages are open-ended.
public struct AsleepAverageReport: Sendable, Codable, Equatable {
    /// The wire's `period`.
    public var period: AsleepPeriod
    /// The wire's `peculiarities`.
    public var peculiarities: [String]
    /// The wire's `average_stats`.
    public var averageStats: AnyJSON?
    /// The wire's `never_slept_sessions`.
    public var neverSleptSessions: [AnyJSON]
    /// The wire's `slept_sessions`.
    public var sleptSessions: [AnyJSON]
}

/// The period of an average report.
public struct AsleepPeriod: Sendable, Codable, Equatable {
    /// The wire's `timezone`.
    public var timezone: String
    /// The wire's `start_date`.
    public var startDate: String
    /// The wire's `end_date`.
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
