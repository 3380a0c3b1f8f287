import Foundation

/// What `TelematicsTokenInitOptions` takes: base URL, access token and optional refresh token, with ISO 8601 expiries.
public struct TelematicsTokenInitOptions: Sendable, Codable, Equatable {
    /// Base URL of the platform, e.g. `http://127.0.0.1:8080/telematics`.
    public var baseURL: String
    /// Access token.
    public var token: String
    /// Access-token expiry (ISO 8601).
    public var tokenExpires: String?
    /// Refresh token; its presence enables automatic renewal.
    public var refreshToken: String?
    /// Refresh-token expiry (ISO 8601).
    public var refreshTokenExpires: String?

    /// Creates options.
    public init(baseURL: String, token: String, tokenExpires: String? = nil, refreshToken: String? = nil, refreshTokenExpires: String? = nil) {
        self.baseURL = baseURL
        self.token = token
        self.tokenExpires = tokenExpires
        self.refreshToken = refreshToken
        self.refreshTokenExpires = refreshTokenExpires
    }
}

/// A token pair as minted by the control plane or returned by refresh.
public struct TelematicsTokenPair: Sendable, Codable, Equatable {
    /// Access token.
    public var token: String
    /// Access-token expiry (ISO 8601, six fraction digits).
    public var tokenExpires: String
    /// Refresh token, or nil when minted without one.
    public var refreshToken: String?
    /// Refresh-token expiry.
    public var refreshTokenExpires: String?

    /// The init options for this pair at `baseURL`.
    public func options(baseURL: String) -> TelematicsTokenInitOptions {
        TelematicsTokenInitOptions(baseURL: baseURL, token: token, tokenExpires: tokenExpires, refreshToken: refreshToken, refreshTokenExpires: refreshTokenExpires)
    }
}

/// The platform's error body `{code, message, status, traceId}`.
public struct TelematicsErrorBody: Sendable, Codable, Equatable {
    /// UPPER_SNAKE code, e.g. `ACCESS_TOKEN_REJECTED`.
    public var code: String
    /// Human message.
    public var message: String
    /// HTTP status.
    public var status: Int
    /// Journal id.
    public var traceId: String
}

/// `TelematicsAuthInvalidationReason`, with the SDK's Objective-C values.
public enum TelematicsAuthInvalidationReason: Int, Sendable, Codable, Equatable {
    case refreshTokenExpired = 0, refreshTokenRejected = 1, accountInactive = 2, accessDenied = 3, accessTokenRejected = 4

    /// True when the SDK destroys the session for this reason.
    public var invalidatesSession: Bool {
        switch self {
        case .refreshTokenExpired, .refreshTokenRejected, .accessTokenRejected: return true
        case .accountInactive, .accessDenied: return false
        }
    }
}

/// `TelematicsSessionState.status`.
public enum TelematicsSessionStatus: Int, Sendable, Codable, Equatable {
    case notAuthenticated = 0, verified = 1, unverified = 2, denied = 3, invalid = 4
}

/// What the session knows without a request, as `getSessionState()` returns it.
public struct TelematicsSessionState: Sendable, Equatable {
    /// Status.
    public var status: TelematicsSessionStatus
    /// Why it is `.invalid` or `.denied`.
    public var invalidationReason: TelematicsAuthInvalidationReason?
    /// Whether a refresh token is held.
    public var isAutoRenewing: Bool
    /// Refresh-token expiry when auto-renewing, else access-token expiry.
    public var recoverableUntil: String?
    /// When the server last accepted the access token (device clock, ISO 8601).
    public var lastVerifiedAt: String?
}

/// `TelematicsVehicleDetails`.
public struct TelematicsVehicleDetails: Sendable, Codable, Equatable {
    public var id: Int
    public var plate: String
    public var internalPlate: String?
    public var type: Int
    public var typeName: String
    public var fuelType: Int
    public var fuelTypeName: String
    public var addReason: Int?
    public var addReasonName: String?
    public var createdAt: String
    public var lastReportedKilometers: Double?
    public var lastReportedAt: String?
}

/// A kilometer report.
public struct TelematicsKilometersReport: Sendable, Codable, Equatable {
    public var id: Int
    public var vehicleId: Int
    public var kilometers: Double
    public var observations: String?
    public var readAt: String
    public var reportedAt: String
    public var corrected: Bool
    public var correctedAt: String?
}

/// The result of `correctKilometers`.
public struct TelematicsKilometersCorrection: Sendable, Codable, Equatable {
    public var vehicleId: Int
    public var kilometers: Double
    public var correctionCount: Int
    public var reports: [TelematicsKilometersReport]
}

/// The estimated-mileage route's answer.
public struct TelematicsMileageEstimate: Sendable, Codable, Equatable {
    public var vehicleId: Int
    /// −1 when unknown.
    public var estimatedKilometers: Double
    public var lastReportedKilometers: Double?
    public var lastReportedAt: String?
    public var trackedKilometersSinceReport: Double
    public var estimatedAt: String
}

/// A service-code check.
public struct TelematicsServiceCode: Sendable, Codable, Equatable {
    public var code: String
    public var valid: Bool
    public var serviceName: String
    public var features: [String]
}

/// One telemetry sample as the SDK uploads it.
public struct TelematicsSample: Sendable, Codable, Equatable {
    public var timestampMs: Int64
    public var latitude: Double
    public var longitude: Double
    public var speedMps: Double?
    public var courseDeg: Double?
    public var horizontalAccuracyM: Double?
    public var altitudeM: Double?
    public var speedLimitKmh: Double?
    public var screenLocked: Bool?
    public var handsFree: Bool?

    /// Creates a sample.
    public init(timestampMs: Int64, latitude: Double, longitude: Double, speedMps: Double? = nil, courseDeg: Double? = nil,
                horizontalAccuracyM: Double? = nil, altitudeM: Double? = nil, speedLimitKmh: Double? = nil, screenLocked: Bool? = nil, handsFree: Bool? = nil) {
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedMps = speedMps
        self.courseDeg = courseDeg
        self.horizontalAccuracyM = horizontalAccuracyM
        self.altitudeM = altitudeM
        self.speedLimitKmh = speedLimitKmh
        self.screenLocked = screenLocked
        self.handsFree = handsFree
    }
}

/// A driving event carried in a telemetry batch.
public struct TelematicsBatchEvent: Sendable, Codable, Equatable {
    public var type: String
    public var timestampMs: Int64
    public var latitude: Double?
    public var longitude: Double?

    /// Creates an event.
    public init(type: String, timestampMs: Int64, latitude: Double? = nil, longitude: Double? = nil) {
        self.type = type
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `TelematicsAttentionEvent`, with the SDK's keys.
public struct TelematicsAttentionEvent: Sendable, Codable, Equatable {
    public var id: String
    public var type: String
    public var startTimestampMs: Int64
    public var endTimestampMs: Int64
    public var confidence: Double
    public var averageSpeedMps: Double?
    public var latitude: Double?
    public var longitude: Double?
    public var horizontalAccuracyM: Double?
    public var locationTimestampMs: Int64?
    public var detectorVersion: String

    /// Creates an event (a 10 s `phoneDistraction` window by default).
    public init(id: String = UUID().uuidString.lowercased(), type: String = "phoneDistraction", startTimestampMs: Int64, endTimestampMs: Int64? = nil,
                confidence: Double, averageSpeedMps: Double? = nil, latitude: Double? = nil, longitude: Double? = nil,
                horizontalAccuracyM: Double? = nil, locationTimestampMs: Int64? = nil, detectorVersion: String = "distraction-tflite-1.0") {
        self.id = id
        self.type = type
        self.startTimestampMs = startTimestampMs
        self.endTimestampMs = endTimestampMs ?? startTimestampMs + 10_000
        self.confidence = confidence
        self.averageSpeedMps = averageSpeedMps
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracyM = horizontalAccuracyM
        self.locationTimestampMs = locationTimestampMs
        self.detectorVersion = detectorVersion
    }
}

/// A telemetry batch.
public struct TelematicsTelemetryBatch: Sendable, Codable, Equatable {
    public var batchId: String?
    public var deviceId: String?
    public var platform: String?
    public var serviceCode: String?
    public var vehicleId: Int?
    public var userId: Int?
    public var samples: [TelematicsSample]
    public var events: [TelematicsBatchEvent]?
    public var attentionEvents: [TelematicsAttentionEvent]?

    /// Creates a batch (a fresh `batchId` by default).
    public init(batchId: String? = UUID().uuidString.lowercased(), samples: [TelematicsSample], events: [TelematicsBatchEvent]? = nil,
                attentionEvents: [TelematicsAttentionEvent]? = nil, serviceCode: String? = nil, vehicleId: Int? = nil, userId: Int? = nil) {
        self.batchId = batchId
        self.deviceId = "understudy-client"
        self.platform = "ios"
        self.serviceCode = serviceCode
        self.vehicleId = vehicleId
        self.userId = userId
        self.samples = samples
        self.events = events
        self.attentionEvents = attentionEvents
    }
}

/// The telemetry route's answer.
public struct TelematicsUploadResult: Sendable, Codable, Equatable {
    public var batchId: String
    public var accepted: Int
    public var receivedAt: String
    public var duplicate: Bool?
}

/// The attention-events route's answer.
public struct TelematicsAttentionUploadResult: Sendable, Codable, Equatable {
    public var accepted: Int
    public var duplicates: Int
}

/// The twelve `TelematicsManualEventType` values.
public enum TelematicsManualEventType: String, Sendable, Codable, CaseIterable {
    case abruptAccelerationHighSpeed, abruptAccelerationLowSpeed, hardBrakingHighSpeed, hardBrakingLowSpeed
    case hardCornering, speeding, distraction, walking, driving, stopped, tripStart, tripEnd
}

/// A stored manual event.
public struct TelematicsManualEvent: Sendable, Codable, Equatable {
    public var id: Int
    public var clientEventId: String?
    public var type: String
    public var timestamp: String
    public var receivedAt: String
    public var tripId: Int?
    public var periodId: Int?
}

/// A location in a trip.
public struct TelematicsLocation: Sendable, Codable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var address: String?
}

/// `TelematicsTripResume`.
public struct TelematicsTripResume: Sendable, Codable, Equatable {
    public var id: Int
    public var vehicleId: Int?
    public var periodId: Int?
    public var startedAt: String
    public var endedAt: String
    public var distanceKm: Double
    public var durationSec: Int
    public var startLocation: TelematicsLocation?
    public var endLocation: TelematicsLocation?
    public var avgSpeedKmh: Double
    public var maxSpeedKmh: Double
    public var score: Int
    public var hardBrakingCount: Int
    public var abruptAccelerationCount: Int
    public var hardCorneringCount: Int
    public var speedingCount: Int
    public var speedingDurationSec: Int
    public var distractionCount: Int
    public var distractionDurationSec: Int
    public var manualEventCount: Int
}

/// A sample of a trip.
public struct TelematicsTripSample: Sendable, Codable, Equatable {
    public var timestamp: String
    public var timestampMs: Int64
    public var latitude: Double
    public var longitude: Double
    public var speedKmh: Double?
    public var courseDeg: Double?
    public var horizontalAccuracyM: Double?
    public var altitudeM: Double?
    public var speedLimitKmh: Double?
    public var phoneInUse: Bool?
}

/// A driving event of a trip.
public struct TelematicsTripEvent: Sendable, Codable, Equatable {
    public var type: String
    /// `detected` or `manual`.
    public var source: String
    public var timestamp: String
    public var latitude: Double?
    public var longitude: Double?
    public var durationSec: Double?
    public var value: Double?
}

/// `TelematicsTripDetails`.
public struct TelematicsTripDetails: Sendable, Codable, Equatable {
    public var id: Int
    public var startedAt: String
    public var endedAt: String
    public var distanceKm: Double
    public var durationSec: Int
    public var maxSpeedKmh: Double
    public var avgSpeedKmh: Double
    public var score: Int
    public var distractionCount: Int
    public var distractionDurationSec: Int
    public var manualEventCount: Int
    public var hardBrakingCount: Int
    public var samples: [TelematicsTripSample]
    public var events: [TelematicsTripEvent]
    public var attentionEvents: [TelematicsAttentionEvent]
}

/// `TelematicsMetricsSummary`.
public struct TelematicsMetricsSummary: Sendable, Codable, Equatable {
    public var from: String?
    public var to: String?
    public var tripCount: Int
    public var distanceKm: Double
    public var durationSec: Int
    public var avgSpeedKmh: Double
    public var maxSpeedKmh: Double
    public var score: Int
    public var hardBrakingCount: Int
    public var abruptAccelerationCount: Int
    public var hardCorneringCount: Int
    public var speedingDurationSec: Int
    public var distractionCount: Int
    public var distractionDurationSec: Int
    public var nightDrivingDistanceKm: Double
}

/// `TelematicsActivityMetricsSummary`.
public struct TelematicsActivityMetricsSummary: Sendable, Codable, Equatable {
    /// One activity's totals.
    public struct Activity: Sendable, Codable, Equatable {
        public var activity: String
        public var count: Int
        public var durationSec: Int
        public var distanceKm: Double
    }
    public var from: String?
    public var to: String?
    public var activities: [Activity]
}

/// `TelematicsPeriod`.
public struct TelematicsPeriod: Sendable, Codable, Equatable {
    public var id: Int
    public var startedAt: String
    public var endedAt: String?
    public var isProcessed: Bool
    public var processedAt: String?
    public var vehicleId: Int?
    public var serviceCode: String?
    public var tripCount: Int
    public var distanceKm: Double
    public var sampleCount: Int
    public var attentionEventCount: Int
}

/// `TelematicsPeriodsPage`.
public struct TelematicsPeriodsPage: Sendable, Codable, Equatable {
    public var items: [TelematicsPeriod]
    public var page: Int
    public var pageSize: Int
    public var totalItems: Int
    public var totalPages: Int
    public var hasNext: Bool
}

/// A Telematics user as the control plane shows it.
public struct TelematicsUser: Sendable, Codable, Equatable {
    public var userId: Int
    public var userName: String
    /// `ACTIVE`, `INACTIVE` or `DENIED`.
    public var state: String
    public var currentVehicleId: Int?
    /// Features switched off (`TRIPS`, `KILOMETERS`, `ATTENTION`): their routes answer 403 `ACCESS_DENIED`.
    public var disabledFeatures: [String]
}

/// A token pair as the control plane inspects it.
public struct TelematicsTokenRecord: Sendable, Codable, Equatable {
    public var id: String
    public var userId: Int
    public var token: String
    public var tokenExpires: String
    public var refreshToken: String?
    public var refreshTokenExpires: String?
    /// `active`, `expired` or `revoked`.
    public var accessState: String
    /// `active`, `expired`, `revoked`, `rotated`, or nil without a refresh token.
    public var refreshState: String?
    public var parentId: String?
    public var successorId: String?
}

/// The "process now" result.
public struct TelematicsProcessResult: Sendable, Codable, Equatable {
    public var periodsProcessed: Int
    public var tripsCreated: Int
}
