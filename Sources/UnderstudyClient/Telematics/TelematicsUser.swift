import Foundation

/// A Telematics user as the control plane shows it.
public struct TelematicsUser: Sendable, Codable, Equatable {
    /// The SDK's user id.
    public var userId: Int
    /// The name `getCurrentUserInfo()` returns.
    public var userName: String
    /// `ACTIVE`, `INACTIVE` or `DENIED`.
    public var state: String
    /// The vehicle selected by `setVehicle`, if any.
    public var currentVehicleId: Int?
    /// Features switched off (`TRIPS`, `KILOMETERS`, `ATTENTION`): their routes answer 403 `ACCESS_DENIED`.
    public var disabledFeatures: [String]
}
