import EmulatorCore
import Foundation
import Storage

/// The twelve `TelematicsManualEventType` values, in the SDK's listing order (the integer form).
enum ManualEventType: String, CaseIterable, Sendable, Codable, SQLColumnDecodable {
    case abruptAccelerationHighSpeed, abruptAccelerationLowSpeed, hardBrakingHighSpeed, hardBrakingLowSpeed
    case hardCornering, speeding, distraction, walking, driving, stopped, tripStart, tripEnd

    /// Parses the camelCase case name, UPPER_SNAKE, or the 0–11 index [D-TM-18].
    static func parse(_ value: JSONValue) -> ManualEventType? {
        if let index = value.intValue { return allCases.indices.contains(index) ? allCases[index] : nil }
        guard let text = value.stringValue else { return nil }
        if let exact = ManualEventType(rawValue: text) { return exact }
        let folded = text.replacingOccurrences(of: "_", with: "").lowercased()
        guard text.uppercased() == text else { return nil }
        return allCases.first { $0.rawValue.lowercased() == folded }
    }

    /// Whether this is one of the driving types that trips count as events.
    var isDriving: Bool { DrivingEventKind(type: rawValue) != nil }
}
