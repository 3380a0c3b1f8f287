import Foundation

/// What samples alone say about a trip: distance, duration, speeds, speeding and night driving.
struct SampleMetrics: Sendable, Equatable {
    /// km.
    var distanceKm: Double
    /// Seconds.
    var durationSec: Int
    /// km/h over the whole trip.
    var avgSpeedKmh: Double
    /// km/h.
    var maxSpeedKmh: Double
    /// Episodes above the posted limit.
    var speedingCount: Int
    /// Seconds above the limit.
    var speedingDurationSec: Int
    /// km driven between 22:00 and 06:00 UTC.
    var nightDistanceKm: Double

    /// Measures time-ordered `samples`; all zero without samples.
    init(samples: some RandomAccessCollection<Sample>) {
        guard let first = samples.first, let last = samples.last else {
            self.init(distanceKm: 0, durationSec: 0, avgSpeedKmh: 0, maxSpeedKmh: 0, speedingCount: 0, speedingDurationSec: 0, nightDistanceKm: 0)
            return
        }
        var distance = 0.0, night = 0.0, maxSpeed = 0.0, speedingMs: Int64 = 0
        var speedingCount = 0
        var wasSpeeding = false
        var previousSample: Sample?
        for sample in samples {
            defer { previousSample = sample }
            var speed = sample.speedKmh
            if let previous = previousSample {
                let leg = TripSegmenter.haversineKm(previous, sample)
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
        self.init(
            distanceKm: distance, durationSec: Int((Double(durationMs) / 1000).rounded()), // checked: an Int64 divided by 1000
            avgSpeedKmh: hours > 0 ? distance / hours : 0, maxSpeedKmh: maxSpeed,
            speedingCount: speedingCount, speedingDurationSec: Int((Double(speedingMs) / 1000).rounded()), nightDistanceKm: night) // checked: an Int64 / 1000
    }

    /// Metrics with the given values.
    init(
        distanceKm: Double, durationSec: Int, avgSpeedKmh: Double, maxSpeedKmh: Double, speedingCount: Int, speedingDurationSec: Int,
        nightDistanceKm: Double
    ) {
        self.distanceKm = distanceKm
        self.durationSec = durationSec
        self.avgSpeedKmh = avgSpeedKmh
        self.maxSpeedKmh = maxSpeedKmh
        self.speedingCount = speedingCount
        self.speedingDurationSec = speedingDurationSec
        self.nightDistanceKm = nightDistanceKm
    }
}
