import Foundation

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
