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

/// The credential issued by product registration.
public struct AsleepProductRegistration: Sendable, Codable, Equatable {
    /// The registered product's id, `P-<uuid>`.
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
    /// The tracked user's id (`G-…`), sent as `x-user-id`.
    public var userId: String
    /// The product credential from `setup(productInfo:)`, sent as `x-product-key`.
    public var productKey: String?
    /// The device's IANA zone, sent as `timezone`.
    public var timezone: String?
    /// The app's nickname, recorded as the session's `service`.
    public var service: String?
    /// The `http(s)` URL that receives this session's `INFERENCE_COMPLETE` and `SESSION_COMPLETE` webhooks.
    public var callbackUrl: String?

    /// A config as `initAsleepConfig` would produce it, for calls that need no server round trip first.
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
    /// The user's id (`G-…`).
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
    /// The session's id.
    public var sessionId: String
    /// What the SDK uploads for analysis, `MELSPECTROGRAM` (the default) or `AUDIO`.
    public var inferenceType: String
    /// The app nickname the session was started with.
    public var service: String
    /// When tracking started (UTC, `Z`).
    public var startTime: String
    /// When tracking stopped (UTC); nil while open.
    public var endTime: String?
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When analysis finished (UTC); nil before `COMPLETE`.
    public var completeTime: String?
}

/// What the SDK may record about a user; every member is optional.
public struct AsleepUserMetadata: Sendable, Codable, Equatable {
    /// Year of birth.
    public var birthYear: Int?
    /// Month of birth, 1–12.
    public var birthMonth: Int?
    /// Day of birth, 1–31.
    public var birthDay: Int?
    /// `male`, `female`, `non_binary`, `other` or `prefer_not_to_say`.
    public var gender: String?
    /// Height in centimetres.
    public var height: Double?
    /// Weight in kilograms.
    public var weight: Double?

    /// Metadata to attach to a user; nil members are omitted.
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
    /// The session the chunk was added to.
    public var sessionId: String
    /// The chunk's sequence number, echoed (0 is the first 30 s).
    public var seqNum: Int
    /// Whether the emulated analysis heard snoring in the chunk.
    public var snoringDetected: Bool
    /// Whether the emulated analysis heard breathing in the chunk.
    public var breathDetected: Bool
}

/// `GET /data/v3/sessions/{id}` result (`Asleep.Model.Report`).
public struct AsleepReport: Sendable, Codable, Equatable {
    /// The zone the report's times are written in (the `timezone` header, else UTC).
    public var timezone: String
    /// Why the analysis is limited, e.g. `TOO_SHORT_FOR_ANALYSIS`, `NEVER_SLEPT`, `NO_BREATHING_STABILITY`; `IN_PROGRESS` before completion.
    public var peculiarities: [String]
    /// The share of expected 30-s chunks that never arrived, 0–1.
    public var missingDataRatio: Double
    /// The session with its stage arrays.
    public var session: AsleepReportSession
    /// Statistics derived from the stages; nil until the session is `COMPLETE`.
    public var stat: AsleepStat?
}

/// The `session` of a report (`Asleep.Model.Session`).
public struct AsleepReportSession: Sendable, Codable, Equatable {
    /// The session's id.
    public var id: String
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When tracking started, in the report's zone (`±hh:mm`).
    public var startTime: String
    /// When tracking stopped, in the report's zone; nil while open.
    public var endTime: String?
    /// When tracking stopped unexpectedly (`unexpected: 1` on close), if it did.
    public var unexpectedEndTime: String?
    /// The zone the session was started in.
    public var createdTimezone: String
    /// One value per 30-s epoch: 0 wake, 1 light, 2 deep, 3 REM, -1 missing.
    public var sleepStages: [Int]?
    /// One value per epoch: 0 stable, 1 unstable, -1 missing; nil while breathing analysis is off.
    public var breathStages: [Int]?
    /// One value per epoch: 0 quiet, 1 snoring, -1 missing; nil while snoring analysis is off.
    public var snoringStages: [Int]?
}

/// Report statistics (`Asleep.Model.Stat`).
public struct AsleepStat: Sendable, Codable, Equatable {
    /// When the user fell asleep: start plus `sleepLatency`.
    public var sleepTime: String?
    /// When the user woke for good: the end of the last sleep epoch.
    public var wakeTime: String?
    /// A 0–100 sleep score (here 50 + 50 × `sleepEfficiency`).
    public var sleepIndex: Int?
    /// Seconds from the start of tracking to the first sleep epoch.
    public var sleepLatency: Int?
    /// Seconds from the last sleep epoch to the end of tracking.
    public var wakeupLatency: Int?
    /// Seconds from the start to the first light-sleep epoch.
    public var lightLatency: Int?
    /// Seconds from the start to the first deep-sleep epoch.
    public var deepLatency: Int?
    /// Seconds from the start to the first REM epoch.
    public var remLatency: Int?
    /// Seconds from the start to the end of tracking.
    public var timeInBed: Int?
    /// Seconds from falling asleep to the final wake-up: `timeInSleep` + `timeInWake`.
    public var timeInSleepPeriod: Int?
    /// Seconds asleep (light, deep and REM) within the sleep period.
    public var timeInSleep: Int?
    /// Seconds awake within the sleep period.
    public var timeInWake: Int?
    /// Seconds of light sleep.
    public var timeInLight: Int?
    /// Seconds of deep sleep.
    public var timeInDeep: Int?
    /// Seconds of REM sleep.
    public var timeInRem: Int?
    /// Seconds of stable breathing in the sleep period; nil while breathing analysis is off.
    public var timeInStableBreath: Int?
    /// Seconds of unstable breathing in the sleep period; nil while breathing analysis is off.
    public var timeInUnstableBreath: Int?
    /// Seconds of snoring in the sleep period; nil while snoring analysis is off.
    public var timeInSnoring: Int?
    /// Seconds without snoring in the sleep period; nil while snoring analysis is off.
    public var timeInNoSnoring: Int?
    /// `timeInSleep` / `timeInBed`, 0–1.
    public var sleepEfficiency: Double?
    /// `timeInSleep` / `timeInSleepPeriod`, 0–1.
    public var sleepRatio: Double?
    /// `timeInWake` / `timeInSleepPeriod`, 0–1.
    public var wakeRatio: Double?
    /// Light sleep over the sleep period, 0–1.
    public var lightRatio: Double?
    /// Deep sleep over the sleep period, 0–1.
    public var deepRatio: Double?
    /// REM sleep over the sleep period, 0–1.
    public var remRatio: Double?
    /// Stable breathing over the sleep period, 0–1.
    public var stableBreathRatio: Double?
    /// Unstable breathing over the sleep period, 0–1.
    public var unstableBreathRatio: Double?
    /// Snoring over the sleep period, 0–1.
    public var snoringRatio: Double?
    /// Time without snoring over the sleep period, 0–1.
    public var noSnoringRatio: Double?
    /// Unstable-breathing episodes per hour asleep.
    public var breathingIndex: Double?
    /// `STABLE` (under 10 % unstable) or `UNSTABLE`.
    public var breathingPattern: String?
    /// How many times the user woke after falling asleep (wake after sleep onset).
    public var wasoCount: Int?
    /// Seconds of the longest of those awakenings.
    public var longestWaso: Int?
    /// Sleep cycles, counted as runs of REM.
    public var sleepCycleCount: Int?
    /// Mean cycle length in seconds.
    public var sleepCycle: Int?
    /// Snoring episodes.
    public var snoringCount: Int?
    /// Unstable-breathing episodes.
    public var unstableBreathCount: Int?
}

/// `GET /data/v1/sessions` result.
public struct AsleepSessionList: Sendable, Codable, Equatable {
    /// The zone the list's times are written in.
    public var timezone: String
    /// The user's sessions in the requested date range and order.
    public var sleepSessionList: [AsleepSleepSession]
}

/// One entry of the session list (`Asleep.Model.SleepSession`).
public struct AsleepSleepSession: Sendable, Codable, Equatable {
    /// The session's id.
    public var sessionId: String
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When tracking started, in the list's zone.
    public var sessionStartTime: String
    /// When tracking stopped; nil while open.
    public var sessionEndTime: String?
    /// The zone the session was started in.
    public var createdTimezone: String
    /// When tracking stopped unexpectedly, if it did.
    public var unexpectedEndTime: String?
    /// The highest chunk sequence number received.
    public var lastReceivedSeqNum: Int?
    /// Seconds from start to end of tracking (so far, while open).
    public var timeInBed: Int
}

/// `GET /data/v1/users/{id}/average-stats` result, loosely typed where the averages are open-ended.
public struct AsleepAverageReport: Sendable, Codable, Equatable {
    /// The date range and zone averaged over.
    public var period: AsleepPeriod
    /// Why the averages are limited, e.g. `NO_BREATHING_STABILITY`.
    public var peculiarities: [String]
    /// Mean statistics over the sessions that slept; nil when none did.
    public var averageStats: AnyJSON?
    /// Sessions in the range without any sleep epoch.
    public var neverSleptSessions: [AnyJSON]
    /// Sessions in the range that went into the averages.
    public var sleptSessions: [AnyJSON]
}

/// The period of an average report.
public struct AsleepPeriod: Sendable, Codable, Equatable {
    /// The zone the dates are read in.
    public var timezone: String
    /// First day, `yyyy-MM-dd`.
    public var startDate: String
    /// Last day, `yyyy-MM-dd` (at most 100 days after the first).
    public var endDate: String

    /// A period to compare with a report's.
    public init(timezone: String, startDate: String, endDate: String) {
        self.timezone = timezone
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// `{"detail": "…"}`, Asleep's error body.
public struct AsleepErrorBody: Sendable, Codable, Equatable {
    /// The documented error text, e.g. `user does not exist` or `Plan is expired`.
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
