import EmulatorCore
import Foundation
import Testing

@testable import AsleepEmulator

@Suite("Asleep sleep analysis")
struct SleepAnalysisTests {
    let start = Date(timeIntervalSince1970: 1_767_996_000) // 2026-01-09T22:00:00Z

    @Test("generation is deterministic per session id and starts awake")
    func deterministic() {
        let a = SleepAnalysis.generate(sessionID: "20260109220000_abcde", count: 900)
        let b = SleepAnalysis.generate(sessionID: "20260109220000_abcde", count: 900)
        let c = SleepAnalysis.generate(sessionID: "20260109220000_zzzzz", count: 900)
        #expect(a == b)
        #expect(a != c)
        #expect(a.sleep.prefix(8).allSatisfy { $0 == 0 })
        #expect(Set(a.sleep) == [0, 1, 2, 3])
        #expect(a.snoring.contains(1))
        #expect(a.sleep.count == 900 && a.snoring.count == 900 && a.breath.count == 900)
        // A prefix of a longer generation is the shorter generation: real-time stages never change later.
        #expect(SleepAnalysis.generate(sessionID: "20260109220000_abcde", count: 100) == a.prefix(100))
    }

    @Test("the documented identities hold for many generated sessions", arguments: 0..<40)
    func identities(seed: Int) throws {
        let count = 60 + seed * 23
        let arrays = SleepAnalysis.generate(sessionID: "session-\(seed)", count: count)
        let extra = Double(seed % 5) * 17
        let end = start.addingTimeInterval(Double(count * 30) + extra)
        let stat = SleepAnalysis.stat(arrays, start: start, end: end, snoring: true, breathing: seed % 2 == 0)
        let sleepTime = try #require(stat.sleepTime), wakeTime = try #require(stat.wakeTime)
        let period = try #require(stat.timeInSleepPeriod), asleep = try #require(stat.timeInSleep)
        #expect(sleepTime == start.addingTimeInterval(Double(try #require(stat.sleepLatency))))
        #expect(Double(try #require(stat.wakeupLatency)) == end.timeIntervalSince(wakeTime))
        #expect(Double(period) == wakeTime.timeIntervalSince(sleepTime))
        #expect(period == asleep + (stat.timeInWake ?? -1))
        #expect(asleep == (stat.timeInLight ?? 0) + (stat.timeInDeep ?? 0) + (stat.timeInRem ?? 0))
        #expect(Double(stat.timeInBed) == end.timeIntervalSince(start).rounded(.down))
        #expect(abs((stat.sleepEfficiency ?? -1) - Double(asleep) / Double(stat.timeInBed)) <= 0.0005)
        #expect(abs((stat.wakeRatio ?? -1) - (1 - (stat.sleepRatio ?? 0))) < 1e-9)
        #expect((stat.timeInSnoring ?? 0) + (stat.timeInNoSnoring ?? 0) == period)
        #expect((50...100).contains(stat.sleepIndex ?? 0))
        if seed % 2 == 0 {
            #expect((stat.timeInStableBreath ?? 0) + (stat.timeInUnstableBreath ?? 0) == period)
        } else {
            #expect(stat.timeInStableBreath == nil && stat.breathingIndex == nil)
        }
        if stat.timeInDeep == 0 { #expect(stat.deepLatency == nil) }
    }

    @Test("epochs after the end time are ignored and stages that never occur have null latencies")
    func truncation() throws {
        let arrays = StageArrays(sleep: [0, 0, 1, 1, 3, 3, 1, 0, 2, 2], snoring: Array(repeating: 0, count: 10), breath: Array(repeating: 0, count: 10))
        let stat = SleepAnalysis.stat(arrays, start: start, end: start.addingTimeInterval(215), snoring: true, breathing: false)
        // 215 s holds 7 whole epochs: the deep epochs at 8–9 fall outside.
        #expect(stat.timeInBed == 215)
        #expect(stat.deepLatency == nil && stat.timeInDeep == 0)
        #expect(stat.sleepLatency == 60 && stat.timeInSleepPeriod == 150 && stat.wakeupLatency == 5)
        #expect(stat.remLatency == 120 && stat.sleepCycleCount == 1)
    }

    @Test("a session without sleep has a stat with the sleep-dependent fields null")
    func neverSlept() {
        let arrays = StageArrays(sleep: Array(repeating: 0, count: 20), snoring: Array(repeating: 0, count: 20), breath: Array(repeating: 0, count: 20))
        let stat = SleepAnalysis.stat(arrays, start: start, end: start.addingTimeInterval(600), snoring: true, breathing: false)
        #expect(stat.neverSlept && stat.timeInBed == 600 && stat.sleepLatency == nil && stat.sleepEfficiency == 0)
        #expect(stat.json(in: WireTime.utc)["sleep_time"] == .null)
    }

    @Test("missing chunks read as unknown epochs; explicit arrays win over generated ones")
    func assemble() {
        let arrays = SleepAnalysis.assemble(
            sessionID: "s", lastSeqNum: 4, received: [0, 1, 3, 4],
            explicit: StageArrays(sleep: [2, 2, 2], snoring: [1], breath: []))
        #expect(arrays.sleep == [2, 2, -1, arrays.sleep[3], arrays.sleep[4]])
        #expect(arrays.snoring[0] == 1 && arrays.snoring[2] == 0)
        #expect(SleepAnalysis.assemble(sessionID: "s", lastSeqNum: nil, received: []).sleep.isEmpty)
    }

    @Test("received chunks answer count, contains and count(below:) as a Set of the same numbers would")
    func receivedChunksAgreeWithSet() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let numbers = (0..<Int.random(in: 0...300, using: &generator)).map { _ -> Int in
                switch Int.random(in: 0..<20, using: &generator) {
                case 0: return -Int.random(in: 1...5, using: &generator)
                case 1: return 2_000_000 + Int.random(in: 0...3, using: &generator)
                default: return Int.random(in: 0...400, using: &generator)
                }
            }
            let chunks = ReceivedChunks(numbers), set = Set(numbers)
            #expect(chunks.count == set.count)
            for probe in [-6, -1, 0, 1, 57, 399, 400, 401, 2_000_000, 2_000_003, 5_000_000] {
                #expect(chunks.contains(probe) == set.contains(probe), "\(probe)")
                #expect(chunks.count(below: probe) == set.filter { $0 < probe }.count, "below \(probe)")
            }
        }
        let literal: ReceivedChunks = [3, 3, 0]
        #expect(literal.count == 2 && literal.contains(3) && !literal.contains(1) && literal.count(below: 3) == 1)
    }
}
