import EmulatorCore
import Foundation

/// Reads telemetry and attention-event bodies with the SDK's keys and aliases [D-TM-13, D-TM-14],
/// refusing incomplete or out-of-range values with the platform's 400s.
enum TelemetryParser {
    /// A JSON member under any of `names`.
    static func member(_ object: [String: JSONValue], _ names: String...) -> JSONValue? {
        for name in names { if let value = object[name], !value.isNull { return value } }
        return nil
    }

    /// A whole number of milliseconds, or nil when out of any plausible range (conversion must never trap).
    static func wholeMs(_ number: Double) -> Int64? {
        guard number.magnitude < 1e15 else { return nil }
        return number.roundedInt64()
    }

    /// Epoch ms from a number (ms) or an ISO 8601 string.
    static func epochMs(_ value: JSONValue) -> Int64? {
        if let number = value.doubleValue { return wholeMs(number) }
        if let text = value.stringValue, let date = TelematicsTime.parse(text) { return date.clampedEpochMilliseconds }
        return nil
    }

    /// Parses JSON into a `JSONValue` with the core's byte-level parser (bridging through
    /// `JSONSerialization` and `NSNumber` cost most of a 1,000-sample batch).
    static func parseJSON(_ data: Data) throws -> JSONValue {
        try JSONValue.parse(data)
    }

    /// Parses a telemetry body: an object with `samples`, or a bare array of samples. The common
    /// shape is decoded in one pass by `TelemetryScanner`; anything else takes the reference parse.
    static func parseBatch(_ data: Data) throws(TelematicsError) -> TelemetryBatch {
        guard let scanned = TelemetryScanner.scan(data) else { return try parseBatchReference(data) }
        // The samples are valid, so the members' checks fail (if at all) exactly as in the reference order.
        var batch = try header(scanned.members)
        batch.samples = scanned.samples
        batch.samples.sort { $0.timestampMs < $1.timestampMs }
        try readEvents(scanned.members, into: &batch)
        return batch
    }

    /// The reference parse: a `JSONValue` tree, checked member by member; its errors are the route's 400s.
    static func parseBatchReference(_ data: Data) throws(TelematicsError) -> TelemetryBatch {
        let root: JSONValue
        do { root = try parseJSON(data) } catch { throw .batchNotJSON }
        var object: [String: JSONValue]
        if let array = root.arrayValue {
            object = ["samples": .array(array)]
        } else if let members = root.objectValue {
            object = members
        } else {
            throw .invalidBatch("The telemetry body must be an object with `samples`.")
        }
        guard let rawSamples = object["samples"]?.arrayValue else { throw .invalidBatch("`samples` must be an array.") }
        var batch = try header(object)
        batch.samples.reserveCapacity(rawSamples.count)
        for (index, raw) in rawSamples.enumerated() {
            batch.samples.append(try parseSample(raw, index: index))
        }
        batch.samples.sort { $0.timestampMs < $1.timestampMs }
        try readEvents(object, into: &batch)
        return batch
    }

    /// The batch's identifying members (`batchId`, `userId`, `vehicleId`, `serviceCode`, `deviceId`).
    private static func header(_ object: [String: JSONValue]) throws(TelematicsError) -> TelemetryBatch {
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
        return batch
    }

    /// The batch's driving and attention events.
    private static func readEvents(_ object: [String: JSONValue], into batch: inout TelemetryBatch) throws(TelematicsError) {
        if let events = object["events"] {
            guard let list = events.arrayValue else { throw .invalidBatch("`events` must be an array.") }
            for (index, raw) in list.enumerated() {
                guard let event = raw.objectValue, let type = event["type"]?.stringValue, DrivingEventKind(type: type) != nil else {
                    throw .invalidBatch("`events.\(index).type` must be a driving event type.")
                }
                guard let time = member(event, "timestampMs", "timestamp", "t").flatMap(epochMs) else {
                    throw .invalidBatch("`events.\(index).timestampMs` is required.")
                }
                batch.events.append(
                    DrivingEvent(
                        type: type, timestampMs: time, latitude: member(event, "latitude", "lat")?.doubleValue,
                        longitude: member(event, "longitude", "lon")?.doubleValue,
                        durationSec: event["durationSec"]?.doubleValue, value: event["value"]?.doubleValue))
            }
        }
        if let attention = object["attentionEvents"] {
            guard let list = attention.arrayValue else { throw .invalidBatch("`attentionEvents` must be an array.") }
            for (index, raw) in list.enumerated() {
                do throws(TelematicsError) { batch.attentionEvents.append(try parseAttentionEvent(raw, index: index)) } catch { throw .invalidBatch(error.message) }
            }
        }
    }

    /// One sample of the reference parse.
    static func parseSample(_ raw: JSONValue, index: Int) throws(TelematicsError) -> Sample {
        guard let sample = raw.objectValue else { throw .invalidBatch("`samples.\(index)` must be an object.") }
        return try parseSample(index: index) { sample[$0.name] }
    }

    /// The sample rules over any source of member values (`field` answers nil for an absent member),
    /// so the reference parse and the scanner apply the very same checks and conversions.
    static func parseSample(index: Int, field: (SampleKey) -> JSONValue?) throws(TelematicsError) -> Sample {
        func member(_ keys: SampleKey...) -> JSONValue? {
            for key in keys { if let value = field(key), !value.isNull { return value } }
            return nil
        }
        guard let time = member(.timestampMs, .timestamp, .t).flatMap(epochMs) else {
            throw .invalidBatch("`samples.\(index).timestampMs` is required (epoch ms or ISO 8601).")
        }
        guard let latitude = member(.latitude, .lat)?.doubleValue, (-90...90).contains(latitude),
            let longitude = member(.longitude, .lon)?.doubleValue, (-180...180).contains(longitude)
        else {
            throw .invalidBatch("`samples.\(index)` needs a `latitude` in −90…90 and a `longitude` in −180…180.")
        }
        var speed: Double?
        if let mps = field(.speedMps)?.doubleValue { speed = mps * 3.6 } else { speed = field(.speedKmh)?.doubleValue }
        if let value = speed, value < 0 { speed = nil } // iOS reports −1 for "unknown"
        var inUse: Bool?
        if let flag = field(.phoneInUse)?.boolValue {
            inUse = flag
        } else if let locked = field(.screenLocked)?.boolValue {
            inUse = !locked && !(field(.handsFree)?.boolValue ?? false)
        }
        return Sample(
            timestampMs: time, latitude: latitude, longitude: longitude, speedKmh: speed,
            courseDeg: member(.courseDeg, .headingDeg)?.doubleValue,
            horizontalAccuracyM: member(.horizontalAccuracyM, .accuracyM)?.doubleValue,
            altitudeM: member(.altitudeM, .altM)?.doubleValue,
            speedLimitKmh: field(.speedLimitKmh)?.doubleValue, phoneInUse: inUse)
    }

    /// Parses one attention event with the SDK's keys [D-TM-14].
    static func parseAttentionEvent(_ raw: JSONValue, index: Int) throws(TelematicsError) -> AttentionEvent {
        let at = "events.\(index)"
        guard let event = raw.objectValue else { throw .invalidRequest("`\(at)` must be an object.") }
        guard let id = event["id"]?.stringValue, UUID(uuidString: id) != nil else { throw .invalidRequest("`\(at).id` must be a UUID.") }
        guard let type = event["type"]?.stringValue,
            type == "phoneDistraction" || type.lowercased() == "phone_distraction" || type.lowercased() == "phonedistraction"
        else {
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
        } else {
            locationTime = nil
        }
        return AttentionEvent(
            id: id.lowercased(), type: "phoneDistraction", startTimestampMs: start, endTimestampMs: end,
            confidence: confidence, averageSpeedMps: try optionalDouble("averageSpeedMps"),
            latitude: try optionalDouble("latitude"), longitude: try optionalDouble("longitude"),
            horizontalAccuracyM: try optionalDouble("horizontalAccuracyM"), locationTimestampMs: locationTime,
            detectorVersion: event["detectorVersion"]?.stringValue ?? "unknown")
    }
}
