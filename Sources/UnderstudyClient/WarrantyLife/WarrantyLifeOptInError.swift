import Foundation

/// `OptInError` of `setSSR`/`setSSD`/`setTradeIn`.
public enum WarrantyLifeOptInError: Error, Sendable, Equatable {
    /// No user is logged in.
    case notLoggedIn
    /// No warranty with active coverage for this device.
    case noActiveCoverage
    /// The warranty's plan does not offer this program.
    case optionNotOffered(String)
    /// Motion and (Notification or Location Always) are needed.
    case requiredPermissionsNotGranted(String)
    /// The Smart Saver Sensor Event upload failed.
    case sensorEventFailed(String, errorCode: Int)
}
