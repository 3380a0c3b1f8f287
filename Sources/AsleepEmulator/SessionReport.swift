import EmulatorCore
import Foundation

/// A session report (`GET /data/v3/sessions/{id}`) before it is printed. The SDK route writes it
/// straight into bytes (`write(into:)`): as a `JSONValue` tree, the stage arrays of an 8-hour
/// night alone were three thousand nodes. `json` is the tree the same report used to be, which
/// average stats read members of and the tests compare the bytes against.
struct SessionReport: Sendable {
    /// The statistics of a complete session, with the control plane's overrides.
    struct Statistics: Sendable {
        /// What the analysis computed.
        var computed: SleepAnalysis.Stat
        /// The `sleep_cycle_time` member the settings ask for.
        var sleepCycleTime: JSONValue
        /// Members the control plane set in the session's `overrides.stat` (they replace computed ones).
        var overrides: [String: JSONValue]
    }

    var session: SessionRecord
    var zone: TimeZone
    /// The stage arrays shown so far.
    var stages: StageArrays
    var snoring: Bool
    var breathing: Bool
    var peculiarities: [String]
    var missingDataRatio: Double
    /// Nil prints `null` (in progress, or analysis blocked).
    var stat: Statistics?

    /// The report as a tree, exactly as the route printed it before it wrote bytes.
    var json: JSONValue {
        var statValue: JSONValue = .null
        if let stat {
            var object = stat.computed.json(in: zone, sleepCycleTime: stat.sleepCycleTime).objectValue ?? [:]
            for (key, value) in stat.overrides { object[key] = value }
            statValue = .object(object)
        }
        let sessionObject = AsleepWire.reportSession(session, stages: stages, snoring: snoring, breathing: breathing, zone: zone)
        return [
            "timezone": .string(WireTime.name(zone)), "peculiarities": .array(peculiarities.map(JSONValue.string)),
            "missing_data_ratio": .double(missingDataRatio), "session": sessionObject, "stat": statValue,
        ]
    }

    /// `{"detail": detail, "result": report}`, byte for byte what `AsleepRoutes.envelope(json, detail:)` prints.
    func envelope(detail: String) -> Data {
        var writer = JSONWriter(capacity: 1024 + 3 * 2 * stages.sleep.count)
        writer.beginObject()
        writer.key("detail"); writer.string(detail)
        writer.key("result"); write(into: &writer)
        writer.endObject()
        return writer.data
    }

    /// The report as `AsleepJSON` prints `json`: members in byte order of their names, doubles with a fraction.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("missing_data_ratio"); writer.fractionalDouble(missingDataRatio)
        writer.key("peculiarities")
        writer.beginArray()
        for name in peculiarities {
            writer.element()
            writer.string(name)
        }
        writer.endArray()
        writer.key("session"); writeSession(into: &writer)
        writer.key("stat")
        if let stat {
            if stat.overrides.isEmpty {
                stat.computed.write(in: zone, sleepCycleTime: stat.sleepCycleTime, into: &writer)
            } else {
                // Overrides may add members anywhere in the order and hold any JSON: print them as a tree.
                var object = stat.computed.json(in: zone, sleepCycleTime: stat.sleepCycleTime).objectValue ?? [:]
                for (key, value) in stat.overrides { object[key] = value }
                AsleepJSON.write(.object(object), into: &writer)
            }
        } else {
            writer.null()
        }
        writer.key("timezone"); writer.string(WireTime.name(zone))
        writer.endObject()
    }

    /// `AsleepWire.reportSession`.
    private func writeSession(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("breath_stages"); Self.stages(breathing ? stages.breath : nil, into: &writer)
        writer.key("created_timezone"); writer.string(session.createdTimezone)
        writer.key("end_time"); writer.string(session.state == .open ? nil : session.end.map { WireTime.format($0, in: zone) })
        writer.key("id"); writer.string(session.id)
        writer.key("sleep_stages"); Self.stages(stages.sleep, into: &writer)
        writer.key("snoring_stages"); Self.stages(snoring ? stages.snoring : nil, into: &writer)
        writer.key("start_time"); writer.string(WireTime.format(session.start, in: zone))
        writer.key("state"); writer.string(session.state.rawValue)
        writer.key("unexpected_end_time"); writer.string(session.unexpectedEnd.map { WireTime.format($0, in: zone) })
        writer.endObject()
    }

    private static func stages(_ values: [Int]?, into writer: inout JSONWriter) {
        guard let values else { return writer.null() }
        writer.beginArray()
        for value in values {
            writer.element()
            writer.int(value)
        }
        writer.endArray()
    }
}

extension SleepAnalysis.Stat {
    /// The `stat` object as `AsleepJSON` prints `json(in:sleepCycleTime:)`.
    func write(in zone: TimeZone, sleepCycleTime: JSONValue, into writer: inout JSONWriter) {
        func fractional(_ value: Double?, into writer: inout JSONWriter) {
            if let value { writer.fractionalDouble(value) } else { writer.null() }
        }
        func time(_ value: Date?, into writer: inout JSONWriter) { writer.string(value.map { WireTime.format($0, in: zone) }) }
        writer.beginObject()
        writer.key("breathing_index"); fractional(breathingIndex, into: &writer)
        writer.key("breathing_pattern"); writer.string(breathingPattern)
        writer.key("deep_latency"); writer.int(deepLatency)
        writer.key("deep_ratio"); fractional(deepRatio, into: &writer)
        writer.key("light_latency"); writer.int(lightLatency)
        writer.key("light_ratio"); fractional(lightRatio, into: &writer)
        writer.key("longest_waso"); writer.int(longestWaso)
        writer.key("no_snoring_ratio"); fractional(noSnoringRatio, into: &writer)
        writer.key("rem_latency"); writer.int(remLatency)
        writer.key("rem_ratio"); fractional(remRatio, into: &writer)
        writer.key("sleep_cycle"); writer.int(sleepCycle)
        writer.key("sleep_cycle_count"); writer.int(sleepCycleCount)
        writer.key("sleep_cycle_time"); AsleepJSON.write(sleepCycleTime, into: &writer)
        writer.key("sleep_efficiency"); fractional(sleepEfficiency, into: &writer)
        writer.key("sleep_index"); writer.int(sleepIndex)
        writer.key("sleep_latency"); writer.int(sleepLatency)
        writer.key("sleep_ratio"); fractional(sleepRatio, into: &writer)
        writer.key("sleep_time"); time(sleepTime, into: &writer)
        writer.key("snoring_count"); writer.int(snoringCount)
        writer.key("snoring_ratio"); fractional(snoringRatio, into: &writer)
        writer.key("stable_breath_ratio"); fractional(stableBreathRatio, into: &writer)
        writer.key("time_in_bed"); writer.int(timeInBed)
        writer.key("time_in_deep"); writer.int(timeInDeep)
        writer.key("time_in_light"); writer.int(timeInLight)
        writer.key("time_in_no_snoring"); writer.int(timeInNoSnoring)
        writer.key("time_in_rem"); writer.int(timeInRem)
        writer.key("time_in_sleep"); writer.int(timeInSleep)
        writer.key("time_in_sleep_period"); writer.int(timeInSleepPeriod)
        writer.key("time_in_snoring"); writer.int(timeInSnoring)
        writer.key("time_in_stable_breath"); writer.int(timeInStableBreath)
        writer.key("time_in_unstable_breath"); writer.int(timeInUnstableBreath)
        writer.key("time_in_wake"); writer.int(timeInWake)
        writer.key("unstable_breath_count"); writer.int(unstableBreathCount)
        writer.key("unstable_breath_ratio"); fractional(unstableBreathRatio, into: &writer)
        writer.key("wake_ratio"); fractional(wakeRatio, into: &writer)
        writer.key("wake_time"); time(wakeTime, into: &writer)
        writer.key("wakeup_latency"); writer.int(wakeupLatency)
        writer.key("waso_count"); writer.int(wasoCount)
        writer.endObject()
    }
}
