import Foundation

/// Event-derived trip counts and the score they give.
struct EventTally: Sendable, Equatable {
    /// Hard brakings (both speeds).
    var hardBraking = 0
    /// Abrupt accelerations (both speeds).
    var abruptAcceleration = 0
    /// Hard cornerings.
    var hardCornering = 0
    /// Detected speeding events (added to the sample-derived episodes).
    var speeding = 0
    /// Distraction episodes: merged attention windows plus detected distraction events.
    var distraction = 0
    /// Seconds covered by the union of distraction windows.
    var distractionDurationSec = 0
    /// Manual marks inside the trip.
    var manual = 0

    /// An empty tally.
    init() {}

    /// Counts detected events, attention windows (their union, since windows overlap by 5 s) and manual marks.
    init(events: [DrivingEvent], attentionWindows: [(Int64, Int64)], manualCount: Int) {
        manual = manualCount
        var windows = attentionWindows
        for event in events {
            switch DrivingEventKind(type: event.type) {
            case .hardBraking: hardBraking += 1
            case .abruptAcceleration: abruptAcceleration += 1
            case .hardCornering: hardCornering += 1
            case .speeding: speeding += 1
            case .distraction:
                let duration = TelemetryParser.wholeMs(max(0, (event.durationSec ?? 0) * 1000)) ?? 0
                windows.append((event.timestampMs, event.timestampMs + duration))
            case nil: break
            }
        }
        windows.sort { $0.0 < $1.0 }
        var merged: [(Int64, Int64)] = []
        for window in windows {
            if let last = merged.last, window.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, window.1) } else { merged.append(window) }
        }
        distraction = merged.count
        distractionDurationSec = Int((Double(merged.reduce(0) { $0 + ($1.1 - $1.0) }) / 1000).rounded()) // checked: disjoint spans of times below 1e15 ms
    }

    /// 100 − 5 × driving events (with the sample-derived speeding episodes), clamped to 0…100.
    func score(speedingEpisodes: Int) -> Int {
        let events = hardBraking + abruptAcceleration + hardCornering + speeding + speedingEpisodes + distraction
        return max(0, min(100, 100 - 5 * events))
    }
}
