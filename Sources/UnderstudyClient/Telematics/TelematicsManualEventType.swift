import Foundation

/// The twelve `TelematicsManualEventType` values.
public enum TelematicsManualEventType: String, Sendable, Codable, CaseIterable {
    /// A sudden speed-up at or above the high-speed threshold (50 km/h by default).
    case abruptAccelerationHighSpeed
    /// A sudden speed-up below the high-speed threshold.
    case abruptAccelerationLowSpeed
    /// A hard brake at or above the high-speed threshold.
    case hardBrakingHighSpeed
    /// A hard brake below the high-speed threshold.
    case hardBrakingLowSpeed
    /// A sharp turn.
    case hardCornering
    /// Driving over the speed limit.
    case speeding
    /// The driver handling the phone.
    case distraction
    /// The user is on foot; counted as a `walking` activity.
    case walking
    /// The user is driving.
    case driving
    /// The user is standing still; counted as a `stopped` activity.
    case stopped
    /// Marks where a trip begins; processing splits trips at it.
    case tripStart
    /// Marks where a trip ends; processing splits trips at it.
    case tripEnd
}
