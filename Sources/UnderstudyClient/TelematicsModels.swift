import Foundation

/// What `TelematicsTokenInitOptions` takes: base URL, access token and optional refresh token, with ISO 8601 expiries.
public struct TelematicsTokenInitOptions: Sendable, Codable, Equatable {
    /// Base URL of the platform, e.g. `http://127.0.0.1:8080/telematics`.
    public var baseURL: String
    /// The access token, `tma_<tenantKey>_<secret>`, sent as `Authorization: Bearer`.
    public var token: String
    /// Access-token expiry (ISO 8601).
    public var tokenExpires: String?
    /// Refresh token; its presence enables automatic renewal.
    public var refreshToken: String?
    /// Refresh-token expiry (ISO 8601).
    public var refreshTokenExpires: String?

    /// Options as the host app would build them for the SDK.
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
    /// The access token, `tma_<tenantKey>_<secret>`.
    public var token: String
    /// Access-token expiry (ISO 8601, six fraction digits).
    public var tokenExpires: String
    /// Refresh token, or nil when minted without one.
    public var refreshToken: String?
    /// Refresh-token expiry (ISO 8601, six fraction digits).
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
    /// A sentence for people.
    public var message: String
    /// The HTTP status, repeated in the body.
    public var status: Int
    /// The journal id of the request, also sent as `X-Understudy-Trace`.
    public var traceId: String
}

/// `TelematicsAuthInvalidationReason`, with the SDK's Objective-C values.
public enum TelematicsAuthInvalidationReason: Int, Sendable, Codable, Equatable {
    /// Renewal failed because the refresh token's lifetime is over (401 `REFRESH_TOKEN_EXPIRED`); the session ends.
    case refreshTokenExpired = 0
    /// Renewal failed because the refresh token was revoked or reused after rotation (401 `REFRESH_TOKEN_REJECTED`); the session ends.
    case refreshTokenRejected = 1
    /// The user's account is `INACTIVE` (403 `ACCOUNT_INACTIVE`); the session stays but is denied.
    case accountInactive = 2
    /// The user is `DENIED`, a feature is switched off, or the service code is refused (403 `ACCESS_DENIED`); the session stays.
    case accessDenied = 3
    /// The access token was refused and no refresh token can renew it (401 `ACCESS_TOKEN_REJECTED`); the session ends.
    case accessTokenRejected = 4

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
    /// No credentials: never initialised, or after `logout()`.
    case notAuthenticated = 0
    /// The server accepted the access token on the last call.
    case verified = 1
    /// Credentials are held but no call has confirmed them yet.
    case unverified = 2
    /// The server refuses the user for now (`accountInactive` or `accessDenied`); calls still go out.
    case denied = 3
    /// The credentials are gone for good; calls throw without reaching the server.
    case invalid = 4
}

/// What the session knows without a request, as `getSessionState()` returns it.
public struct TelematicsSessionState: Sendable, Equatable {
    /// Whether the credentials are verified, unverified, denied or gone.
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

/// `TelematicsVehicleDetails`: a vehicle with its catalogue names and latest odometer.
public struct TelematicsVehicleDetails: Sendable, Codable, Equatable {
    /// The vehicle's id, unique within the project.
    public var id: Int
    /// The licence plate the vehicle is selected by.
    public var plate: String
    /// The fleet's own plate or number, if given.
    public var internalPlate: String?
    /// The vehicle-type code from the `getVehicleTypes()` catalogue.
    public var type: Int
    /// The catalogue name of `type`.
    public var typeName: String
    /// The fuel-type code from the `getFuelTypes()` catalogue.
    public var fuelType: Int
    /// The catalogue name of `fuelType`.
    public var fuelTypeName: String
    /// The add-reason code from the `getAddVehicleReasons()` catalogue, if given.
    public var addReason: Int?
    /// The catalogue name of `addReason`.
    public var addReasonName: String?
    /// When the vehicle was first set (ISO 8601).
    public var createdAt: String
    /// The odometer of the latest kilometer report; nil before the first.
    public var lastReportedKilometers: Double?
    /// When that odometer was read (ISO 8601).
    public var lastReportedAt: String?
}

/// An odometer reading reported for a vehicle.
public struct TelematicsKilometersReport: Sendable, Codable, Equatable {
    /// The report's id.
    public var id: Int
    /// The vehicle the odometer belongs to.
    public var vehicleId: Int
    /// The odometer reading.
    public var kilometers: Double
    /// The driver's note, if any.
    public var observations: String?
    /// When the odometer was read; the report time unless given (ISO 8601).
    public var readAt: String
    /// When the server received the report (project clock, ISO 8601).
    public var reportedAt: String
    /// Whether a later `correctKilometers` replaced this reading.
    public var corrected: Bool
    /// When it was corrected (ISO 8601).
    public var correctedAt: String?
}

/// The result of `correctKilometers`.
public struct TelematicsKilometersCorrection: Sendable, Codable, Equatable {
    /// The corrected vehicle.
    public var vehicleId: Int
    /// The corrected odometer reading.
    public var kilometers: Double
    /// How many of the latest reports the correction applied to.
    public var correctionCount: Int
    /// Those reports after the correction, newest first.
    public var reports: [TelematicsKilometersReport]
}

/// The estimated-mileage route's answer.
public struct TelematicsMileageEstimate: Sendable, Codable, Equatable {
    /// The vehicle estimated.
    public var vehicleId: Int
    /// −1 when unknown.
    public var estimatedKilometers: Double
    /// The odometer of the latest report; nil without one.
    public var lastReportedKilometers: Double?
    /// When that odometer was read (ISO 8601).
    public var lastReportedAt: String?
    /// Trip distance driven in the vehicle since that reading.
    public var trackedKilometersSinceReport: Double
    /// The project-clock time of the estimate (ISO 8601).
    public var estimatedAt: String
}

/// A service-code check.
public struct TelematicsServiceCode: Sendable, Codable, Equatable {
    /// The code as checked.
    public var code: String
    /// Whether telemetry may carry the code.
    public var valid: Bool
    /// The name of the service the code belongs to.
    public var serviceName: String
    /// What the code unlocks, e.g. `TRIPS`; telemetry needs `TRIPS`.
    public var features: [String]
}

/// One telemetry sample as the SDK uploads it.
public struct TelematicsSample: Sendable, Codable, Equatable {
    /// When the fix was taken, epoch milliseconds; duplicates of a stored timestamp are ignored.
    public var timestampMs: Int64
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Device-reported speed in m/s; trips derive speed from positions without it.
    public var speedMps: Double?
    /// Heading in degrees from north.
    public var courseDeg: Double?
    /// Fix accuracy in metres.
    public var horizontalAccuracyM: Double?
    /// Altitude in metres.
    public var altitudeM: Double?
    /// The road's speed limit; speeding is only detected where it is known.
    public var speedLimitKmh: Double?
    /// Whether the screen was locked; an unlocked phone not in hands-free counts as in use.
    public var screenLocked: Bool?
    /// Whether the phone was in a hands-free holder or call mode.
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
    /// A driving event type (`hardBrakingHighSpeed`, … or a generic `hardBraking`/`abruptAcceleration`).
    public var type: String
    /// When it happened, epoch milliseconds; it joins the trip that spans it.
    public var timestampMs: Int64
    /// Where it happened, degrees north.
    public var latitude: Double?
    /// Where it happened, degrees east.
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
    /// A lower-case UUID; an upload repeating it is counted as a duplicate.
    public var id: String
    /// The detector's kind, `phoneDistraction`.
    public var type: String
    /// Window start, epoch milliseconds.
    public var startTimestampMs: Int64
    /// Window end, epoch milliseconds; overlapping windows count once in a trip's distraction.
    public var endTimestampMs: Int64
    /// The detector's confidence, 0 to 1.
    public var confidence: Double
    /// Mean speed over the window in m/s.
    public var averageSpeedMps: Double?
    /// Last known position, degrees north.
    public var latitude: Double?
    /// Last known position, degrees east.
    public var longitude: Double?
    /// Accuracy of that position in metres.
    public var horizontalAccuracyM: Double?
    /// When that position was taken, epoch milliseconds.
    public var locationTimestampMs: Int64?
    /// The on-device model that produced the event.
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
    /// The batch's id; an upload repeating it answers 200 `duplicate: true` and stores nothing.
    public var batchId: String?
    /// The uploading device, recorded with the batch.
    public var deviceId: String?
    /// `ios`, as the SDK sends it.
    public var platform: String?
    /// The code set by `setServiceCode`; checked against the project's allow-list.
    public var serviceCode: String?
    /// The current vehicle when the samples were taken.
    public var vehicleId: Int?
    /// The user the SDK believes it is; a mismatch with the token's user is flagged, not refused.
    public var userId: Int?
    /// Location fixes, in any order; the server sorts them.
    public var samples: [TelematicsSample]
    /// Driving events detected on the device.
    public var events: [TelematicsBatchEvent]?
    /// Attention events riding along with the samples.
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
    /// The batch's id, lower-cased.
    public var batchId: String
    /// How many samples were new (the original count for a duplicate).
    public var accepted: Int
    /// When the server first stored the batch (project clock, ISO 8601).
    public var receivedAt: String
    /// true when the `batchId` was seen before; absent otherwise.
    public var duplicate: Bool?
}

/// The attention-events route's answer.
public struct TelematicsAttentionUploadResult: Sendable, Codable, Equatable {
    /// Events stored for the first time.
    public var accepted: Int
    /// Events whose `id` was already stored.
    public var duplicates: Int
}

/// The twelve `TelematicsManualEventType` values.
public enum TelematicsManualEventType: String, Sendable, Codable, CaseIterable {
    /// A sudden speed-up at or above the high-speed threshold (50 km/h by default).
    case abruptAccelerationHighSpeed
    /// A sudden speed-up below the high-speed threshold.
    case abruptAccelerationLowSpeed
    /// A hard brake at or above the high-speed threshold.
    case hardBrakingHighSpeed
    /// A hard brake below the high-speed threshold.
    case hardBrakingLowSpeed
    /// A sharp turn.
    case hardCornering
    /// Driving over the speed limit.
    case speeding
    /// The driver handling the phone.
    case distraction
    /// The user is on foot; counted as a `walking` activity.
    case walking
    /// The user is driving.
    case driving
    /// The user is standing still; counted as a `stopped` activity.
    case stopped
    /// Marks where a trip begins; processing splits trips at it.
    case tripStart
    /// Marks where a trip ends; processing splits trips at it.
    case tripEnd
}

/// A stored manual event.
public struct TelematicsManualEvent: Sendable, Codable, Equatable {
    /// The server's id for the event.
    public var id: Int
    /// The id the client sent; a repeat returns the stored event with 200.
    public var clientEventId: String?
    /// The `TelematicsManualEventType` raw value.
    public var type: String
    /// When the event happened (ISO 8601).
    public var timestamp: String
    /// When the server stored it (project clock, ISO 8601).
    public var receivedAt: String
    /// The trip it falls in, once that trip is built.
    public var tripId: Int?
    /// The telematics period it falls in.
    public var periodId: Int?
}

/// A location in a trip.
public struct TelematicsLocation: Sendable, Codable, Equatable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// A street address; always nil, since the emulator does not geocode.
    public var address: String?
}

/// `TelematicsTripResume`: a trip's totals, as `getTripsList` lists them.
public struct TelematicsTripResume: Sendable, Codable, Equatable {
    /// The trip's id.
    public var id: Int
    /// The vehicle driven, when one was current.
    public var vehicleId: Int?
    /// The telematics period the trip was built from.
    public var periodId: Int?
    /// The first sample's time (ISO 8601).
    public var startedAt: String
    /// The last sample's time (ISO 8601).
    public var endedAt: String
    /// Haversine distance over the samples.
    public var distanceKm: Double
    /// Seconds from first to last sample.
    public var durationSec: Int
    /// Where the trip began.
    public var startLocation: TelematicsLocation?
    /// Where the trip ended.
    public var endLocation: TelematicsLocation?
    /// Distance over duration.
    public var avgSpeedKmh: Double
    /// The highest sample speed.
    public var maxSpeedKmh: Double
    /// 100 minus 5 per detected event, speeding episode and distraction episode, clamped to 0…100.
    public var score: Int
    /// Hard brakes (either speed band).
    public var hardBrakingCount: Int
    /// Abrupt accelerations (either speed band).
    public var abruptAccelerationCount: Int
    /// Sharp turns.
    public var hardCorneringCount: Int
    /// Speeding episodes (needs `speedLimitKmh` on the samples).
    public var speedingCount: Int
    /// Seconds spent over the limit.
    public var speedingDurationSec: Int
    /// Distraction episodes: overlapping attention windows count once.
    public var distractionCount: Int
    /// Seconds covered by the union of attention windows.
    public var distractionDurationSec: Int
    /// Manual events that fall in the trip.
    public var manualEventCount: Int
}

/// A sample of a trip.
public struct TelematicsTripSample: Sendable, Codable, Equatable {
    /// When the fix was taken (ISO 8601).
    public var timestamp: String
    /// The same instant in epoch milliseconds.
    public var timestampMs: Int64
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Speed in km/h (the uploaded m/s × 3.6).
    public var speedKmh: Double?
    /// Heading in degrees from north.
    public var courseDeg: Double?
    /// Fix accuracy in metres.
    public var horizontalAccuracyM: Double?
    /// Altitude in metres.
    public var altitudeM: Double?
    /// The road's speed limit, if uploaded.
    public var speedLimitKmh: Double?
    /// Whether the phone was handled: screen unlocked and not hands-free.
    public var phoneInUse: Bool?
}

/// A driving event of a trip.
public struct TelematicsTripEvent: Sendable, Codable, Equatable {
    /// The specific driving event type, e.g. `hardBrakingHighSpeed`.
    public var type: String
    /// `detected` or `manual`.
    public var source: String
    /// When it happened (ISO 8601).
    public var timestamp: String
    /// Where it happened, degrees north.
    public var latitude: Double?
    /// Where it happened, degrees east.
    public var longitude: Double?
    /// How long it lasted, when known.
    public var durationSec: Double?
    /// Its magnitude when known (g, km/h over the limit, …).
    public var value: Double?
}

/// `TelematicsTripDetails`: one trip with its events, attention events and (if asked) samples.
public struct TelematicsTripDetails: Sendable, Codable, Equatable {
    /// The trip's id.
    public var id: Int
    /// The first sample's time (ISO 8601).
    public var startedAt: String
    /// The last sample's time (ISO 8601).
    public var endedAt: String
    /// Haversine distance over the samples.
    public var distanceKm: Double
    /// Seconds from first to last sample.
    public var durationSec: Int
    /// The highest sample speed.
    public var maxSpeedKmh: Double
    /// Distance over duration.
    public var avgSpeedKmh: Double
    /// 100 minus 5 per detected event, speeding episode and distraction episode, clamped to 0…100.
    public var score: Int
    /// Distraction episodes: overlapping attention windows count once.
    public var distractionCount: Int
    /// Seconds covered by the union of attention windows.
    public var distractionDurationSec: Int
    /// Manual events that fall in the trip.
    public var manualEventCount: Int
    /// Hard brakes (either speed band).
    public var hardBrakingCount: Int
    /// The trip's samples; empty unless requested with `includeSamples`.
    public var samples: [TelematicsTripSample]
    /// Detected and manual driving events, in time order.
    public var events: [TelematicsTripEvent]
    /// Attention events inside the trip.
    public var attentionEvents: [TelematicsAttentionEvent]
}

/// `TelematicsMetricsSummary`: driving totals over the trips that start in a range.
public struct TelematicsMetricsSummary: Sendable, Codable, Equatable {
    /// Start of the range asked for (ISO 8601); nil for unbounded.
    public var from: String?
    /// End of the range asked for (ISO 8601); nil for unbounded.
    public var to: String?
    /// Trips whose start lies in the range.
    public var tripCount: Int
    /// Their total distance.
    public var distanceKm: Double
    /// Their total duration.
    public var durationSec: Int
    /// Total distance over total duration.
    public var avgSpeedKmh: Double
    /// The highest speed of any of them.
    public var maxSpeedKmh: Double
    /// Distance-weighted mean trip score; 100 with no trips.
    public var score: Int
    /// Hard brakes over all the trips.
    public var hardBrakingCount: Int
    /// Abrupt accelerations over all the trips.
    public var abruptAccelerationCount: Int
    /// Sharp turns over all the trips.
    public var hardCorneringCount: Int
    /// Seconds over the limit over all the trips.
    public var speedingDurationSec: Int
    /// Distraction episodes over all the trips.
    public var distractionCount: Int
    /// Distracted seconds over all the trips.
    public var distractionDurationSec: Int
    /// Distance driven between 22:00 and 06:00 UTC.
    public var nightDrivingDistanceKm: Double
}

/// `TelematicsActivityMetricsSummary`: totals per activity in a range.
public struct TelematicsActivityMetricsSummary: Sendable, Codable, Equatable {
    /// One activity's totals.
    public struct Activity: Sendable, Codable, Equatable {
        /// `driving` (from trips), or `passenger`, `walking`, `cycling`, `stopped`, `other` (from manual marks).
        public var activity: String
        /// How many trips, or how many manual marks of the activity.
        public var count: Int
        /// Total trip duration; 0 for the mark-based activities.
        public var durationSec: Int
        /// Total trip distance; 0 for the mark-based activities.
        public var distanceKm: Double
    }
    /// Start of the range asked for (ISO 8601); nil for unbounded.
    public var from: String?
    /// End of the range asked for (ISO 8601); nil for unbounded.
    public var to: String?
    /// `driving` first, then every mark-based activity, each present even when zero.
    public var activities: [Activity]
}

/// `TelematicsPeriod`: a run of samples without a long silence, from which trips are built.
public struct TelematicsPeriod: Sendable, Codable, Equatable {
    /// The period's id.
    public var id: Int
    /// Its first sample's time (ISO 8601).
    public var startedAt: String
    /// Its last sample's time once closed (ISO 8601); nil while still open.
    public var endedAt: String?
    /// Whether trips have been built from it.
    public var isProcessed: Bool
    /// When it was processed (project clock, ISO 8601).
    public var processedAt: String?
    /// The vehicle of its samples, when one was current.
    public var vehicleId: Int?
    /// The service code its batches carried.
    public var serviceCode: String?
    /// Trips built from it.
    public var tripCount: Int
    /// Distance of those trips.
    public var distanceKm: Double
    /// Samples it holds.
    public var sampleCount: Int
    /// Attention events inside it.
    public var attentionEventCount: Int
}

/// `TelematicsPeriodsPage`: one page of periods with the paging totals.
public struct TelematicsPeriodsPage: Sendable, Codable, Equatable {
    /// The periods of this page, oldest first.
    public var items: [TelematicsPeriod]
    /// This page's number, from 1.
    public var page: Int
    /// Periods per page.
    public var pageSize: Int
    /// Periods matching the query on all pages.
    public var totalItems: Int
    /// How many pages there are.
    public var totalPages: Int
    /// Whether a later page exists.
    public var hasNext: Bool
}

/// A Telematics user as the control plane shows it.
public struct TelematicsUser: Sendable, Codable, Equatable {
    /// The SDK's user id.
    public var userId: Int
    /// The name `getCurrentUserInfo()` returns.
    public var userName: String
    /// `ACTIVE`, `INACTIVE` or `DENIED`.
    public var state: String
    /// The vehicle selected by `setVehicle`, if any.
    public var currentVehicleId: Int?
    /// Features switched off (`TRIPS`, `KILOMETERS`, `ATTENTION`): their routes answer 403 `ACCESS_DENIED`.
    public var disabledFeatures: [String]
}

/// A token pair as the control plane inspects it.
public struct TelematicsTokenRecord: Sendable, Codable, Equatable {
    /// The pair's id in the refresh chain.
    public var id: String
    /// The user the pair authenticates.
    public var userId: Int
    /// The access token, `tma_<tenantKey>_<secret>`.
    public var token: String
    /// Access-token expiry (project clock, ISO 8601).
    public var tokenExpires: String
    /// The refresh token, `tmr_<tenantKey>_<secret>`; nil when minted without one.
    public var refreshToken: String?
    /// Refresh-token expiry (project clock, ISO 8601).
    public var refreshTokenExpires: String?
    /// `active`, `expired` or `revoked`.
    public var accessState: String
    /// `active`, `expired`, `revoked`, `rotated`, or nil without a refresh token.
    public var refreshState: String?
    /// The pair this one was rotated from.
    public var parentId: String?
    /// The pair a refresh rotated this one into.
    public var successorId: String?
}

/// The "process now" result.
public struct TelematicsProcessResult: Sendable, Codable, Equatable {
    /// Periods closed and processed by this call.
    public var periodsProcessed: Int
    /// Trips built from them.
    public var tripsCreated: Int
}
