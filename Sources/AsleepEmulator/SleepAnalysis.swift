import EmulatorCore
import Foundation

/// Deterministic stand-in for Asleep's inference: stage generation seeded by the session id, and
/// the report statistics derived from the stages so the documented identities hold exactly.
public enum SleepAnalysis {
    /// Seconds per epoch (and per uploaded chunk).
    public static let epochSeconds = 30

    /// Generated stages for epochs `0..<count`: about ten wake epochs, then light → deep → light →
    /// REM cycles of seeded lengths with occasional short awakenings, snoring in light/deep sleep.
    public static func generate(sessionID: String, count: Int) -> StageArrays {
        var random = IDGenerator(seed: fnv1a(sessionID))
        var sleep: [Int] = []
        sleep.reserveCapacity(count)
        sleep += Array(repeating: 0, count: 8 + random.int(in: 0...4))
        while sleep.count < count {
            sleep += Array(repeating: 1, count: 10 + random.int(in: 0...6))
            sleep += Array(repeating: 2, count: 6 + random.int(in: 0...6))
            sleep += Array(repeating: 1, count: 4 + random.int(in: 0...4))
            sleep += Array(repeating: 3, count: 4 + random.int(in: 0...6))
            if random.unit() < 0.35 { sleep += Array(repeating: 0, count: 1 + random.int(in: 0...2)) }
        }
        sleep = Array(sleep.prefix(count))
        // Per-epoch draws come from their own stream, so a longer session's arrays start with the
        // shorter one's: stages shown in real time never change later.
        random = IDGenerator(seed: fnv1a(sessionID) ^ 0x5DEE_CE66_D1CE_4E5B)
        var snoring: [Int] = []
        var breath: [Int] = []
        snoring.reserveCapacity(count)
        breath.reserveCapacity(count)
        var snoringRun = 0
        for stage in sleep {
            if snoringRun == 0, stage == 1 || stage == 2, random.unit() < 0.06 { snoringRun = 2 + random.int(in: 0...5) }
            snoring.append(snoringRun > 0 && (stage == 1 || stage == 2) ? 1 : 0)
            snoringRun = max(0, snoringRun - 1)
            breath.append((1...3).contains(stage) && random.unit() < 0.05 ? 1 : 0)
        }
        return StageArrays(sleep: sleep, snoring: snoring, breath: breath)
    }

    /// The arrays for a session whose chunks `received` arrived, up to `lastSeqNum`: generated (or
    /// explicit, where the control plane supplied values) at received indices, `-1`/`0` elsewhere.
    public static func assemble(sessionID: String, lastSeqNum: Int?, received: ReceivedChunks, explicit: StageArrays? = nil) -> StageArrays {
        guard let last = lastSeqNum, last >= 0 else { return StageArrays(sleep: [], snoring: [], breath: []) }
        var arrays = generate(sessionID: sessionID, count: last + 1)
        for index in 0...last {
            if let explicit {
                if index < explicit.sleep.count { arrays.sleep[index] = explicit.sleep[index] }
                if index < explicit.snoring.count { arrays.snoring[index] = explicit.snoring[index] }
                if index < explicit.breath.count { arrays.breath[index] = explicit.breath[index] }
            }
            if !received.contains(index) {
                arrays.sleep[index] = -1
                arrays.snoring[index] = 0
                arrays.breath[index] = 0
            }
        }
        return arrays
    }

    /// Rounds a ratio to three decimals.
    public static func ratio(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    /// Derives the statistics from stages and the session's start and end (whole seconds).
    /// Epochs beyond `end` are ignored so that every time stays inside the session.
    public static func stat(_ arrays: StageArrays, start: Date, end: Date, snoring snoringEnabled: Bool, breathing breathingEnabled: Bool) -> Stat {
        var stat = Stat()
        let bed = max(0, (end.timeIntervalSince1970 - start.timeIntervalSince1970).roundedInt(.down) ?? 0)
        stat.timeInBed = bed
        let usable = min(arrays.sleep.count, bed / epochSeconds)
        let sleep = Array(arrays.sleep.prefix(usable))
        let isAsleep = { (stage: Int) in (1...3).contains(stage) }
        guard let first = sleep.firstIndex(where: isAsleep), let last = sleep.lastIndex(where: isAsleep) else {
            stat.timeInSleep = 0
            stat.sleepEfficiency = 0
            return stat
        }
        let e = epochSeconds
        let period = Array(sleep[first...last])
        let light = period.filter { $0 == 1 }.count * e
        let deep = period.filter { $0 == 2 }.count * e
        let rem = period.filter { $0 == 3 }.count * e
        let periodSeconds = period.count * e
        let asleep = light + deep + rem

        stat.sleepLatency = first * e
        stat.sleepTime = start.addingTimeInterval(Double(first * e))
        stat.wakeTime = start.addingTimeInterval(Double((last + 1) * e))
        stat.wakeupLatency = bed - (last + 1) * e
        stat.lightLatency = sleep.firstIndex(of: 1).map { $0 * e }
        stat.deepLatency = sleep.firstIndex(of: 2).map { $0 * e }
        stat.remLatency = sleep.firstIndex(of: 3).map { $0 * e }
        stat.timeInSleepPeriod = periodSeconds
        stat.timeInSleep = asleep
        stat.timeInWake = periodSeconds - asleep
        stat.timeInLight = light
        stat.timeInDeep = deep
        stat.timeInRem = rem
        stat.sleepEfficiency = bed > 0 ? ratio(Double(asleep) / Double(bed)) : 0
        let sleepRatio = ratio(Double(asleep) / Double(periodSeconds))
        stat.sleepRatio = sleepRatio
        stat.wakeRatio = ratio(1 - sleepRatio)
        stat.lightRatio = ratio(Double(light) / Double(periodSeconds))
        stat.deepRatio = ratio(Double(deep) / Double(periodSeconds))
        stat.remRatio = ratio(Double(rem) / Double(periodSeconds))

        let wakeRuns = runs(period.map { !isAsleep($0) })
        stat.wasoCount = wakeRuns.count
        stat.longestWaso = (wakeRuns.max() ?? 0) * e
        let remRuns = runEnds(period.map { $0 == 3 })
        stat.sleepCycleCount = remRuns.count
        stat.sleepCycle = remRuns.last.map { Int((Double(($0 + 1) * e) / Double(remRuns.count)).rounded()) } // checked: epoch counts of one night

        if snoringEnabled {
            let snore = Array(arrays.snoring.prefix(usable)[first...last]).map { $0 == 1 }
            let snoring = snore.filter { $0 }.count * e
            stat.timeInSnoring = snoring
            stat.timeInNoSnoring = periodSeconds - snoring
            stat.snoringRatio = ratio(Double(snoring) / Double(periodSeconds))
            stat.noSnoringRatio = ratio(1 - stat.snoringRatio!)
            stat.snoringCount = runs(snore).count
        }
        if breathingEnabled {
            let unstable = Array(arrays.breath.prefix(usable)[first...last]).map { $0 == 1 }
            let unstableSeconds = unstable.filter { $0 }.count * e
            stat.timeInUnstableBreath = unstableSeconds
            stat.timeInStableBreath = periodSeconds - unstableSeconds
            stat.unstableBreathRatio = ratio(Double(unstableSeconds) / Double(periodSeconds))
            stat.stableBreathRatio = ratio(1 - stat.unstableBreathRatio!)
            let count = runs(unstable).count
            stat.unstableBreathCount = count
            stat.breathingIndex = asleep > 0 ? ratio(Double(count) / (Double(asleep) / 3600)) : 0
            stat.breathingPattern = stat.unstableBreathRatio! < 0.1 ? "STABLE" : "UNSTABLE"
        }
        stat.sleepIndex = Int((50 + 50 * (stat.sleepEfficiency ?? 0)).rounded()) // checked: efficiency is a ratio of epoch counts
        return stat
    }

    /// Lengths of the runs of `true`.
    static func runs(_ flags: [Bool]) -> [Int] {
        var result: [Int] = []
        var current = 0
        for flag in flags {
            if flag { current += 1 } else if current > 0 { result.append(current); current = 0 }
        }
        if current > 0 { result.append(current) }
        return result
    }

    /// Indices where runs of `true` end.
    static func runEnds(_ flags: [Bool]) -> [Int] {
        var ends: [Int] = []
        for (index, flag) in flags.enumerated() where flag && (index + 1 == flags.count || !flags[index + 1]) { ends.append(index) }
        return ends
    }

    /// FNV-1a, so a session id always seeds the same stages.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
