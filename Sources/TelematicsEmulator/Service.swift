import EmulatorCore
import Foundation

/// The twelve `TelematicsManualEventType` values, in the SDK's listing order (the integer form).
enum ManualEventType: String, CaseIterable, Sendable, Codable {
    case abruptAccelerationHighSpeed, abruptAccelerationLowSpeed, hardBrakingHighSpeed, hardBrakingLowSpeed
    case hardCornering, speeding, distraction, walking, driving, stopped, tripStart, tripEnd

    /// Parses the camelCase case name, UPPER_SNAKE, or the 0–11 index [D-TM-18].
    public static func parse(_ value: JSONValue) -> ManualEventType? {
        if let index = value.intValue { return allCases.indices.contains(index) ? allCases[index] : nil }
        guard let text = value.stringValue else { return nil }
        if let exact = ManualEventType(rawValue: text) { return exact }
        let folded = text.replacingOccurrences(of: "_", with: "").lowercased()
        guard text.uppercased() == text else { return nil }
        return allCases.first { $0.rawValue.lowercased() == folded }
    }

    /// Whether this is one of the driving types that trips count as events.
    public var isDriving: Bool { DrivingEventKind(type: rawValue) != nil }
}

/// What a driving event counts as in a trip summary.
enum DrivingEventKind: Sendable {
    case hardBraking, abruptAcceleration, hardCornering, speeding, distraction

    init?(type: String) {
        switch type {
        case "hardBrakingHighSpeed", "hardBrakingLowSpeed", "hardBraking": self = .hardBraking
        case "abruptAccelerationHighSpeed", "abruptAccelerationLowSpeed", "abruptAcceleration": self = .abruptAcceleration
        case "hardCornering": self = .hardCornering
        case "speeding": self = .speeding
        case "distraction": self = .distraction
        default: return nil
        }
    }
}

/// One telemetry sample, normalised to the units trips report (km/h).
struct Sample: Sendable, Equatable {
    /// Epoch milliseconds.
    public var timestampMs: Int64
    /// Degrees.
    public var latitude: Double
    /// Degrees.
    public var longitude: Double
    /// km/h, when the device reported a speed.
    public var speedKmh: Double?
    /// Degrees.
    public var courseDeg: Double?
    /// Metres.
    public var horizontalAccuracyM: Double?
    /// Metres.
    public var altitudeM: Double?
    /// km/h.
    public var speedLimitKmh: Double?
    /// Whether the phone was being handled (screen unlocked and not hands-free).
    public var phoneInUse: Bool?

    /// Creates a sample.
    public init(timestampMs: Int64, latitude: Double, longitude: Double, speedKmh: Double? = nil, courseDeg: Double? = nil,
                horizontalAccuracyM: Double? = nil, altitudeM: Double? = nil, speedLimitKmh: Double? = nil, phoneInUse: Bool? = nil) {
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedKmh = speedKmh
        self.courseDeg = courseDeg
        self.horizontalAccuracyM = horizontalAccuracyM
        self.altitudeM = altitudeM
        self.speedLimitKmh = speedLimitKmh
        self.phoneInUse = phoneInUse
    }
}

/// A driving event as reported in a batch or seeded.
struct DrivingEvent: Sendable, Equatable {
    /// One of the driving types (`hardBrakingHighSpeed`, … or the generic `hardBraking`/`abruptAcceleration`).
    public var type: String
    /// Epoch milliseconds.
    public var timestampMs: Int64
    /// Degrees.
    public var latitude: Double?
    /// Degrees.
    public var longitude: Double?
    /// Seconds.
    public var durationSec: Double?
    /// A magnitude (g, km/h over the limit, …).
    public var value: Double?
}

/// An attention event exactly as the SDK models `TelematicsAttentionEvent`.
struct AttentionEvent: Sendable, Equatable {
    /// UUID, lower-cased.
    public var id: String
    /// `phoneDistraction`.
    public var type: String
    /// Window start, epoch ms.
    public var startTimestampMs: Int64
    /// Window end, epoch ms.
    public var endTimestampMs: Int64
    /// 0…1.
    public var confidence: Double
    /// m/s.
    public var averageSpeedMps: Double?
    /// Degrees.
    public var latitude: Double?
    /// Degrees.
    public var longitude: Double?
    /// Metres.
    public var horizontalAccuracyM: Double?
    /// Epoch ms.
    public var locationTimestampMs: Int64?
    /// Detector identifier.
    public var detectorVersion: String
}

/// A decoded telemetry batch [D-TM-13].
struct TelemetryBatch: Sendable {
    /// Client batch id (generated when absent).
    public var batchId: String?
    /// Declared user, flagged when it differs from the token's.
    public var userId: Int?
    /// Declared vehicle.
    public var vehicleId: Int?
    /// Service code from the body.
    public var serviceCode: String?
    /// Device identifier.
    public var deviceId: String?
    /// Samples in time order.
    public var samples: [Sample]
    /// Driving events.
    public var events: [DrivingEvent]
    /// Attention events carried in the batch.
    public var attentionEvents: [AttentionEvent]
}

/// The platform's rules, free of storage and HTTP so they are unit-tested directly.
enum TelematicsService {
    // MARK: Parsing

    /// A JSON member under any of `names`.
    static func member(_ object: [String: JSONValue], _ names: String...) -> JSONValue? {
        for name in names { if let value = object[name], !value.isNull { return value } }
        return nil
    }

    /// A whole number of milliseconds, or nil when out of any plausible range (conversion must never trap).
    static func wholeMs(_ number: Double) -> Int64? {
        guard number.isFinite, abs(number) < 1e15 else { return nil }
        return Int64(number.rounded())
    }

    /// Epoch ms from a number (ms) or an ISO 8601 string.
    static func epochMs(_ value: JSONValue) -> Int64? {
        if let number = value.doubleValue { return wholeMs(number) }
        if let text = value.stringValue, let date = Timestamp.parse(text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return nil
    }

    /// Parses JSON into a `JSONValue` with the core's byte-level parser (bridging through
    /// `JSONSerialization` and `NSNumber` cost most of a 1,000-sample batch).
    public static func parseJSON(_ data: Data) throws -> JSONValue {
        try JSONValue.parse(data)
    }

    /// Parses a telemetry body: an object with `samples`, or a bare array of samples.
    public static func parseBatch(_ data: Data) throws(TelematicsError) -> TelemetryBatch {
        let root: JSONValue
        do { root = try parseJSON(data) } catch { throw .invalidBatch("The telemetry body is not valid JSON.") }
        var object: [String: JSONValue]
        if let array = root.arrayValue { object = ["samples": .array(array)] }
        else if let members = root.objectValue { object = members }
        else { throw .invalidBatch("The telemetry body must be an object with `samples`.") }
        guard let rawSamples = object["samples"]?.arrayValue else { throw .invalidBatch("`samples` must be an array.") }
        var batch = TelemetryBatch(samples: [], events: [], attentionEvents: [])
        if let id = object["batchId"] {
            guard let text = id.stringValue, !text.isEmpty, text.count <= 128 else { throw .invalidBatch("`batchId` must be a non-empty string.") }
            batch.batchId = text.lowercased()
        }
        if let value = object["userId"], !value.isNull {
            guard let number = value.intValue else { throw .invalidBatch("`userId` must be an integer.") }
            batch.userId = number
        }
        if let value = object["vehicleId"], !value.isNull {
            guard let number = value.intValue else { throw .invalidBatch("`vehicleId` must be an integer.") }
            batch.vehicleId = number
        }
        batch.serviceCode = object["serviceCode"]?.stringValue
        batch.deviceId = object["deviceId"]?.stringValue
        batch.samples.reserveCapacity(rawSamples.count)
        for (index, raw) in rawSamples.enumerated() {
            batch.samples.append(try parseSample(raw, index: index))
        }
        batch.samples.sort { $0.timestampMs < $1.timestampMs }
        if let events = object["events"] {
            guard let list = events.arrayValue else { throw .invalidBatch("`events` must be an array.") }
            for (index, raw) in list.enumerated() {
                guard let event = raw.objectValue, let type = event["type"]?.stringValue, DrivingEventKind(type: type) != nil else {
                    throw .invalidBatch("`events.\(index).type` must be a driving event type.")
                }
                guard let time = member(event, "timestampMs", "timestamp", "t").flatMap(epochMs) else {
                    throw .invalidBatch("`events.\(index).timestampMs` is required.")
                }
                batch.events.append(DrivingEvent(type: type, timestampMs: time, latitude: member(event, "latitude", "lat")?.doubleValue,
                                                 longitude: member(event, "longitude", "lon")?.doubleValue,
                                                 durationSec: event["durationSec"]?.doubleValue, value: event["value"]?.doubleValue))
            }
        }
        if let attention = object["attentionEvents"] {
            guard let list = attention.arrayValue else { throw .invalidBatch("`attentionEvents` must be an array.") }
            for (index, raw) in list.enumerated() {
                do throws(TelematicsError) { batch.attentionEvents.append(try parseAttentionEvent(raw, index: index)) }
                catch { throw .invalidBatch(error.message) }
            }
        }
        return batch
    }

    static func parseSample(_ raw: JSONValue, index: Int) throws(TelematicsError) -> Sample {
        guard let sample = raw.objectValue else { throw .invalidBatch("`samples.\(index)` must be an object.") }
        guard let time = member(sample, "timestampMs", "timestamp", "t").flatMap(epochMs) else {
            throw .invalidBatch("`samples.\(index).timestampMs` is required (epoch ms or ISO 8601).")
        }
        guard let latitude = member(sample, "latitude", "lat")?.doubleValue, (-90...90).contains(latitude),
              let longitude = member(sample, "longitude", "lon")?.doubleValue, (-180...180).contains(longitude) else {
            throw .invalidBatch("`samples.\(index)` needs a `latitude` in −90…90 and a `longitude` in −180…180.")
        }
        var speed: Double?
        if let mps = sample["speedMps"]?.doubleValue { speed = mps * 3.6 } else { speed = sample["speedKmh"]?.doubleValue }
        if let value = speed, value < 0 { speed = nil } // iOS reports −1 for "unknown"
        var inUse: Bool?
        if let flag = sample["phoneInUse"]?.boolValue { inUse = flag }
        else if let locked = sample["screenLocked"]?.boolValue { inUse = !locked && !(sample["handsFree"]?.boolValue ?? false) }
        return Sample(timestampMs: time, latitude: latitude, longitude: longitude, speedKmh: speed,
                      courseDeg: member(sample, "courseDeg", "headingDeg")?.doubleValue,
                      horizontalAccuracyM: member(sample, "horizontalAccuracyM", "accuracyM")?.doubleValue,
                      altitudeM: member(sample, "altitudeM", "altM")?.doubleValue,
                      speedLimitKmh: sample["speedLimitKmh"]?.doubleValue, phoneInUse: inUse)
    }

    /// Parses one attention event with the SDK's keys [D-TM-14].
    public static func parseAttentionEvent(_ raw: JSONValue, index: Int) throws(TelematicsError) -> AttentionEvent {
        let at = "events.\(index)"
        guard let event = raw.objectValue else { throw .invalidRequest("`\(at)` must be an object.") }
        guard let id = event["id"]?.stringValue, UUID(uuidString: id) != nil else { throw .invalidRequest("`\(at).id` must be a UUID.") }
        guard let type = event["type"]?.stringValue,
              type == "phoneDistraction" || type.lowercased() == "phone_distraction" || type.lowercased() == "phonedistraction" else {
            throw .invalidRequest("`\(at).type` must be `phoneDistraction`.")
        }
        guard let start = event["startTimestampMs"].flatMap(epochMs), let end = event["endTimestampMs"].flatMap(epochMs) else {
            throw .invalidRequest("`\(at).startTimestampMs` and `endTimestampMs` are required (epoch ms).")
        }
        guard end >= start else { throw .invalidRequest("`\(at).endTimestampMs` must not be before `startTimestampMs`.") }
        guard let confidence = event["confidence"]?.doubleValue, (0...1).contains(confidence) else {
            throw .invalidRequest("`\(at).confidence` must be a number from 0 to 1.")
        }
        func optionalDouble(_ key: String) throws(TelematicsError) -> Double? {
            guard let value = event[key], !value.isNull else { return nil }
            guard let number = value.doubleValue else { throw .invalidRequest("`\(at).\(key)` must be a number or null.") }
            return number
        }
        let locationTime: Int64?
        if let value = event["locationTimestampMs"], !value.isNull {
            guard let number = value.doubleValue.flatMap(wholeMs) else { throw .invalidRequest("`\(at).locationTimestampMs` must be epoch ms or null.") }
            locationTime = number
        } else { locationTime = nil }
        return AttentionEvent(id: id.lowercased(), type: "phoneDistraction", startTimestampMs: start, endTimestampMs: end,
                              confidence: confidence, averageSpeedMps: try optionalDouble("averageSpeedMps"),
                              latitude: try optionalDouble("latitude"), longitude: try optionalDouble("longitude"),
                              horizontalAccuracyM: try optionalDouble("horizontalAccuracyM"), locationTimestampMs: locationTime,
                              detectorVersion: event["detectorVersion"]?.stringValue ?? "unknown")
    }

    /// Plate matching key: upper-cased, spaces and hyphens removed [D-TM-10].
    public static func plateKey(_ plate: String) -> String {
        plate.uppercased().filter { $0 != " " && $0 != "-" }
    }

    /// A `[start, end]` filter from the query, with the documented aliases [D-TM-15].
    public static func dateRange(_ query: [(name: String, value: String)]) throws(TelematicsError) -> (start: Date?, end: Date?) {
        func value(_ names: [String]) throws(TelematicsError) -> Date? {
            for name in names {
                guard let text = query.first(where: { $0.name == name })?.value else { continue }
                if text.isEmpty { continue }
                guard let date = Timestamp.parse(text) else { throw .invalidDate(name, text) }
                return date
            }
            return nil
        }
        let start = try value(["startTs", "from", "startDate", "start"])
        let end = try value(["endTs", "to", "endDate", "end"])
        if let start, let end, start > end { throw .invalidRange }
        return (start, end)
    }

    // MARK: Geometry and trips

    /// Great-circle distance in km.
    public static func haversineKm(_ a: Sample, _ b: Sample) -> Double {
        let radius = 6371.0088
        let dLat = (b.latitude - a.latitude) * .pi / 180
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// Splits time-ordered samples into trips [D-TM-19]: at gaps over `gapMs`, at `tripStart`/`tripEnd`
    /// marks (samples after a `tripEnd` and before the next `tripStart` belong to no trip), then
    /// drops segments shorter than the minimums.
    public static func segment(_ samples: [Sample], gapMs: Int64, starts: [Int64] = [], ends: [Int64] = [],
                               minDistanceKm: Double, minDurationMs: Int64) -> [[Sample]] {
        var marks: [(time: Int64, isStart: Bool)] = starts.map { ($0, true) } + ends.map { ($0, false) }
        marks.sort { $0.time < $1.time }
        var segments: [[Sample]] = []
        var current: [Sample] = []
        var markIndex = 0
        var excluded = false
        for sample in samples {
            var cut = false
            while markIndex < marks.count && marks[markIndex].time <= sample.timestampMs {
                cut = true
                excluded = !marks[markIndex].isStart
                markIndex += 1
            }
            if let last = current.last, sample.timestampMs - last.timestampMs > gapMs { cut = true }
            if cut, !current.isEmpty { segments.append(current); current = [] }
            if !excluded { current.append(sample) }
        }
        if !current.isEmpty { segments.append(current) }
        return segments.filter { segment in
            guard let first = segment.first, let last = segment.last else { return false }
            return last.timestampMs - first.timestampMs >= minDurationMs && distanceKm(segment) >= minDistanceKm
        }
    }

    /// Sum of haversine legs.
    public static func distanceKm(_ samples: [Sample]) -> Double {
        guard samples.count > 1 else { return 0 }
        var total = 0.0
        for index in 1..<samples.count { total += haversineKm(samples[index - 1], samples[index]) }
        return total
    }

    /// What samples alone say about a trip.
    public struct SampleMetrics: Sendable, Equatable {
        /// km.
        public var distanceKm: Double
        /// Seconds.
        public var durationSec: Int
        /// km/h over the whole trip.
        public var avgSpeedKmh: Double
        /// km/h.
        public var maxSpeedKmh: Double
        /// Episodes above the posted limit.
        public var speedingCount: Int
        /// Seconds above the limit.
        public var speedingDurationSec: Int
        /// km driven between 22:00 and 06:00 UTC.
        public var nightDistanceKm: Double
    }

    /// Distance, duration, speeds and speeding from a trip's samples.
    public static func metrics(_ samples: [Sample]) -> SampleMetrics {
        guard let first = samples.first, let last = samples.last else {
            return SampleMetrics(distanceKm: 0, durationSec: 0, avgSpeedKmh: 0, maxSpeedKmh: 0, speedingCount: 0, speedingDurationSec: 0, nightDistanceKm: 0)
        }
        var distance = 0.0, night = 0.0, maxSpeed = 0.0, speedingMs: Int64 = 0
        var speedingCount = 0
        var wasSpeeding = false
        for (index, sample) in samples.enumerated() {
            var speed = sample.speedKmh
            if index > 0 {
                let previous = samples[index - 1]
                let leg = haversineKm(previous, sample)
                distance += leg
                let hour = (previous.timestampMs / 3_600_000) % 24
                if hour >= 22 || hour < 6 { night += leg }
                let dt = Double(sample.timestampMs - previous.timestampMs) / 3_600_000
                if speed == nil, dt > 0 { speed = leg / dt }
                if wasSpeeding { speedingMs += sample.timestampMs - previous.timestampMs }
            }
            maxSpeed = max(maxSpeed, speed ?? 0)
            let speeding = sample.speedLimitKmh.map { limit in (speed ?? 0) > limit } ?? false
            if speeding && !wasSpeeding { speedingCount += 1 }
            wasSpeeding = speeding
        }
        let durationMs = last.timestampMs - first.timestampMs
        let hours = Double(durationMs) / 3_600_000
        return SampleMetrics(distanceKm: distance, durationSec: Int((Double(durationMs) / 1000).rounded()),
                             avgSpeedKmh: hours > 0 ? distance / hours : 0, maxSpeedKmh: maxSpeed,
                             speedingCount: speedingCount, speedingDurationSec: Int((Double(speedingMs) / 1000).rounded()), nightDistanceKm: night)
    }

    /// Event-derived trip counts.
    public struct EventTally: Sendable, Equatable {
        /// Hard brakings (both speeds).
        public var hardBraking = 0
        /// Abrupt accelerations (both speeds).
        public var abruptAcceleration = 0
        /// Hard cornerings.
        public var hardCornering = 0
        /// Detected speeding events (added to the sample-derived episodes).
        public var speeding = 0
        /// Distraction episodes: merged attention windows plus detected distraction events.
        public var distraction = 0
        /// Seconds covered by the union of distraction windows.
        public var distractionDurationSec = 0
        /// Manual marks inside the trip.
        public var manual = 0

        /// Creates an empty tally.
        public init() {}

        /// 100 − 5 × driving events (with the sample-derived speeding episodes), clamped to 0…100.
        public func score(speedingEpisodes: Int) -> Int {
            let events = hardBraking + abruptAcceleration + hardCornering + speeding + speedingEpisodes + distraction
            return max(0, min(100, 100 - 5 * events))
        }
    }

    /// Counts detected events, attention windows (union, since windows overlap by 5 s) and manual marks.
    public static func tally(events: [DrivingEvent], attentionWindows: [(Int64, Int64)], manualCount: Int) -> EventTally {
        var tally = EventTally()
        tally.manual = manualCount
        var windows = attentionWindows
        for event in events {
            switch DrivingEventKind(type: event.type) {
            case .hardBraking: tally.hardBraking += 1
            case .abruptAcceleration: tally.abruptAcceleration += 1
            case .hardCornering: tally.hardCornering += 1
            case .speeding: tally.speeding += 1
            case .distraction:
                let duration = wholeMs(max(0, (event.durationSec ?? 0) * 1000)) ?? 0
                windows.append((event.timestampMs, event.timestampMs + duration))
            case nil: break
            }
        }
        windows.sort { $0.0 < $1.0 }
        var merged: [(Int64, Int64)] = []
        for window in windows {
            if let last = merged.last, window.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, window.1) }
            else { merged.append(window) }
        }
        tally.distraction = merged.count
        tally.distractionDurationSec = Int((Double(merged.reduce(0) { $0 + ($1.1 - $1.0) }) / 1000).rounded())
        return tally
    }

    /// A generic `hardBraking`/`abruptAcceleration` event named by speed (≥ `highSpeedKmh` is high).
    public static func specificType(_ type: String, speedKmh: Double?, highSpeedKmh: Double) -> String {
        let high = (speedKmh ?? 0) >= highSpeedKmh
        switch type {
        case "hardBraking": return high ? "hardBrakingHighSpeed" : "hardBrakingLowSpeed"
        case "abruptAcceleration": return high ? "abruptAccelerationHighSpeed" : "abruptAccelerationLowSpeed"
        default: return type
        }
    }

    // MARK: Tokens

    /// What a refresh request gets, judged on the project clock [D-TM-05, D-TM-06].
    public enum RefreshOutcome: Sendable, Equatable {
        /// Mint a successor pair.
        case rotate
        /// Return the successor already minted (reuse inside the grace period).
        case replay(successorID: String)
        /// Refuse.
        case fail(TelematicsError)
    }

    /// The state of a refresh token that a refresh call needs.
    public struct RefreshTokenState: Sendable {
        /// Expiry (epoch seconds).
        public var expires: Double
        /// When it was revoked.
        public var revokedAt: Double?
        /// When it was used to rotate.
        public var rotatedAt: Double?
        /// The pair it rotated into.
        public var successorID: String?
        /// The owner's account state.
        public var userState: String
    }

    /// Decides a refresh.
    public static func refresh(_ token: RefreshTokenState?, now: Double, grace: Double) -> RefreshOutcome {
        guard let token else { return .fail(.refreshTokenRejected("The refresh token is not known.")) }
        if token.revokedAt != nil { return .fail(.refreshTokenRejected("The refresh token was revoked.")) }
        if let rotatedAt = token.rotatedAt, let successor = token.successorID {
            if now - rotatedAt > grace { return .fail(.refreshTokenRejected("The refresh token was already used and its grace period is over.")) }
            if token.userState == "INACTIVE" { return .fail(.accountInactive) }
            return .replay(successorID: successor)
        }
        if token.expires <= now { return .fail(.refreshTokenExpired) }
        if token.userState == "INACTIVE" { return .fail(.accountInactive) }
        return .rotate
    }
}
