import Foundation
import Testing

@testable import TelematicsEmulator

/// The segmenter returns slices of the period's samples; these tests hold it to the copying
/// implementation it replaced, over random periods with gaps, marks and minimums.
@Suite("Trip segmentation")
struct TripSegmenterTests {
    /// A fixed-seed generator (SplitMix64), so a failure names inputs that reproduce.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The implementation before slices: every trip copied into an array of its own.
    static func reference(_ segmenter: TripSegmenter, _ samples: [Sample], starts: [Int64], ends: [Int64]) -> [[Sample]] {
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
            if let last = current.last, sample.timestampMs - last.timestampMs > segmenter.gapMs { cut = true }
            if cut, !current.isEmpty { segments.append(current); current = [] }
            if !excluded { current.append(sample) }
        }
        if !current.isEmpty { segments.append(current) }
        return segments.filter { segment in
            guard let first = segment.first, let last = segment.last else { return false }
            var distance = 0.0
            for index in segment.indices.dropFirst() { distance += TripSegmenter.haversineKm(segment[index - 1], segment[index]) }
            return last.timestampMs - first.timestampMs >= segmenter.minDurationMs && distance >= segmenter.minDistanceKm
        }
    }

    @Test("slices hold the samples the copying segmenter gave, trip for trip, over 2,000 random periods")
    func matchesReference() {
        var random = SplitMix64(state: 15)
        var trips = 0
        for round in 0..<2_000 {
            var samples: [Sample] = []
            var time = Int64.random(in: 0...10_000, using: &random)
            var latitude = 40.0
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                // Mostly a second apart, sometimes a gap long enough to split a trip.
                time +=
                    Bool.random(using: &random) && Int.random(in: 0..<20, using: &random) == 0
                    ? Int64.random(in: 100_000...900_000, using: &random) : Int64.random(in: 500...3_000, using: &random)
                latitude += Double.random(in: 0...0.0004, using: &random)
                samples.append(Sample(timestampMs: time, latitude: latitude, longitude: -8))
            }
            let span = max(time, 1)
            let starts = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int64.random(in: 0...span, using: &random) }
            let ends = (0..<Int.random(in: 0...3, using: &random)).map { _ in Int64.random(in: 0...span, using: &random) }
            let segmenter = TripSegmenter(
                gapMs: 300_000, minDistanceKm: Double.random(in: 0...0.5, using: &random),
                minDurationMs: Int64.random(in: 0...120_000, using: &random))
            let sliced = segmenter.segment(samples, starts: starts, ends: ends)
            let expected = Self.reference(segmenter, samples, starts: starts, ends: ends)
            #expect(sliced.map(Array.init) == expected, "round \(round)")
            // Each trip's metrics are the same whether measured on the slice or on a copy.
            for slice in sliced { #expect(SampleMetrics(samples: slice) == SampleMetrics(samples: Array(slice)), "round \(round)") }
            trips += expected.count
        }
        #expect(trips > 1_000) // the corpus does produce trips, gaps and marks to cut them
    }
}
