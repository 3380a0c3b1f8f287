import Foundation

/// Cuts a period's time-ordered samples into trips [D-TM-19] and measures them: pure, so the
/// same samples always give the same trips.
struct TripSegmenter: Sendable {
    /// A sample gap longer than this splits trips.
    var gapMs: Int64
    /// Shortest trip kept.
    var minDistanceKm: Double
    /// Briefest trip kept.
    var minDurationMs: Int64

    /// The segmenter the project's settings describe.
    init(settings: TelematicsSettings) {
        self.init(
            gapMs: Int64(settings.tripGapSeconds * 1000), minDistanceKm: settings.minTripDistanceKm,
            minDurationMs: Int64(settings.minTripDurationSeconds * 1000))
    }

    /// A segmenter with explicit thresholds.
    init(gapMs: Int64, minDistanceKm: Double, minDurationMs: Int64) {
        self.gapMs = gapMs
        self.minDistanceKm = minDistanceKm
        self.minDurationMs = minDurationMs
    }

    /// Splits samples at gaps over `gapMs` and at `tripStart`/`tripEnd` marks (samples after a
    /// `tripEnd` and before the next `tripStart` belong to no trip), then drops segments shorter
    /// than the minimums. Every trip is a run of consecutive samples, so the trips are slices of
    /// `samples`: copying a period of tens of thousands of samples into new arrays cost more
    /// (mostly the kernel clearing fresh pages for them) than reading them from the database.
    func segment(_ samples: [Sample], starts: [Int64] = [], ends: [Int64] = []) -> [ArraySlice<Sample>] {
        var marks: [(time: Int64, isStart: Bool)] = starts.map { ($0, true) } + ends.map { ($0, false) }
        marks.sort { $0.time < $1.time }
        var segments: [ArraySlice<Sample>] = []
        var current = samples.startIndex..<samples.startIndex // empty: no trip under way
        var markIndex = 0
        var excluded = false
        for index in samples.indices {
            let time = samples[index].timestampMs
            var cut = false
            while markIndex < marks.count && marks[markIndex].time <= time {
                cut = true
                excluded = !marks[markIndex].isStart
                markIndex += 1
            }
            if !current.isEmpty, time - samples[current.upperBound - 1].timestampMs > gapMs { cut = true }
            if cut, !current.isEmpty { segments.append(samples[current]); current = index..<index }
            if !excluded { current = (current.isEmpty ? index : current.lowerBound)..<(index + 1) }
        }
        if !current.isEmpty { segments.append(samples[current]) }
        return segments.filter { segment in
            guard let first = segment.first, let last = segment.last else { return false }
            return last.timestampMs - first.timestampMs >= minDurationMs && Self.distanceKm(segment) >= minDistanceKm
        }
    }

    /// Great-circle distance in km.
    static func haversineKm(_ a: Sample, _ b: Sample) -> Double {
        let radius = 6371.0088
        let dLat = (b.latitude - a.latitude) * .pi / 180
        let dLon = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    /// Sum of haversine legs.
    static func distanceKm(_ samples: ArraySlice<Sample>) -> Double {
        var total = 0.0
        var previous: Sample?
        for sample in samples {
            if let previous { total += haversineKm(previous, sample) }
            previous = sample
        }
        return total
    }

    /// The speed of the sample nearest `time` (a generic event's speed class comes from it).
    static func nearestSpeed(_ samples: [Sample], at time: Int64) -> Double? {
        // In Double: stored times are any Int64, and their difference could overflow.
        samples.min { (Double($0.timestampMs) - Double(time)).magnitude < (Double($1.timestampMs) - Double(time)).magnitude }?.speedKmh
    }
}
