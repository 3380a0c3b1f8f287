import EmulatorCore
import Foundation

extension SleepAnalysis {
    /// Report statistics for a complete session.
    public struct Stat: Sendable, Equatable {
        /// The wire's `time_in_bed`.
        public var timeInBed = 0
        /// The wire's `sleep_time`.
        public var sleepTime: Date?
        /// The wire's `wake_time`.
        public var wakeTime: Date?
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
        /// The wire's `sleep_index`.
        public var sleepIndex: Int?

        /// Whether the session contained no sleep epoch at all.
        public var neverSlept: Bool { sleepTime == nil }
    }
}

extension SleepAnalysis.Stat {
    /// The wire `stat` object (snake_case; absent metrics as `null`), times in `zone`.
    func json(in zone: TimeZone, sleepCycleTime: JSONValue = .array([])) -> JSONValue {
        func int(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
        func double(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        func time(_ value: Date?) -> JSONValue { value.map { .string(WireTime.format($0, in: zone)) } ?? .null }
        return .object([
            "sleep_time": time(sleepTime), "wake_time": time(wakeTime), "sleep_index": int(sleepIndex),
            "sleep_latency": int(sleepLatency), "wakeup_latency": int(wakeupLatency), "light_latency": int(lightLatency),
            "deep_latency": int(deepLatency), "rem_latency": int(remLatency),
            "time_in_bed": int(timeInBed), "time_in_sleep_period": int(timeInSleepPeriod), "time_in_sleep": int(timeInSleep),
            "time_in_wake": int(timeInWake), "time_in_light": int(timeInLight), "time_in_deep": int(timeInDeep), "time_in_rem": int(timeInRem),
            "time_in_stable_breath": int(timeInStableBreath), "time_in_unstable_breath": int(timeInUnstableBreath),
            "time_in_snoring": int(timeInSnoring), "time_in_no_snoring": int(timeInNoSnoring),
            "sleep_efficiency": double(sleepEfficiency), "sleep_ratio": double(sleepRatio), "wake_ratio": double(wakeRatio),
            "light_ratio": double(lightRatio), "deep_ratio": double(deepRatio), "rem_ratio": double(remRatio),
            "stable_breath_ratio": double(stableBreathRatio), "unstable_breath_ratio": double(unstableBreathRatio),
            "snoring_ratio": double(snoringRatio), "no_snoring_ratio": double(noSnoringRatio),
            "breathing_index": double(breathingIndex), "breathing_pattern": breathingPattern.map(JSONValue.string) ?? .null,
            "waso_count": int(wasoCount), "longest_waso": int(longestWaso), "sleep_cycle_count": int(sleepCycleCount),
            "sleep_cycle": int(sleepCycle), "sleep_cycle_time": sleepCycleTime, "snoring_count": int(snoringCount),
            "unstable_breath_count": int(unstableBreathCount),
        ])
    }
}
