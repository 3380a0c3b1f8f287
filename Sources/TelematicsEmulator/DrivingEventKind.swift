/// What a driving event counts as in a trip summary.
enum DrivingEventKind: Sendable {
    case hardBraking, abruptAcceleration, hardCornering, speeding, distraction

    /// The kind of a reported or manual type (specific or generic), nil for non-driving types.
    init?(type: String) {
        switch type {
        case "hardBrakingHighSpeed", "hardBrakingLowSpeed", "hardBraking": self = .hardBraking
        case "abruptAccelerationHighSpeed", "abruptAccelerationLowSpeed", "abruptAcceleration": self = .abruptAcceleration
        case "hardCornering": self = .hardCornering
        case "speeding": self = .speeding
        case "distraction": self = .distraction
        default: return nil
        }
    }

    /// A generic `hardBraking`/`abruptAcceleration` event named by speed (≥ `highSpeedKmh` is high).
    static func specificType(_ type: String, speedKmh: Double?, highSpeedKmh: Double) -> String {
        let high = (speedKmh ?? 0) >= highSpeedKmh
        switch type {
        case "hardBraking": return high ? "hardBrakingHighSpeed" : "hardBrakingLowSpeed"
        case "abruptAcceleration": return high ? "abruptAccelerationHighSpeed" : "abruptAccelerationLowSpeed"
        default: return type
        }
    }
}
