import Foundation

/// `TelematicsVehicleDetails`: a vehicle with its catalogue names and latest odometer.
public struct TelematicsVehicleDetails: Sendable, Codable, Equatable {
    /// The vehicle's id, unique within the project.
    public var id: Int
    /// The licence plate the vehicle is selected by.
    public var plate: String
    /// The fleet's own plate or number, if given.
    public var internalPlate: String?
    /// The vehicle-type code from the `getVehicleTypes()` catalogue.
    public var type: Int
    /// The catalogue name of `type`.
    public var typeName: String
    /// The fuel-type code from the `getFuelTypes()` catalogue.
    public var fuelType: Int
    /// The catalogue name of `fuelType`.
    public var fuelTypeName: String
    /// The add-reason code from the `getAddVehicleReasons()` catalogue, if given.
    public var addReason: Int?
    /// The catalogue name of `addReason`.
    public var addReasonName: String?
    /// When the vehicle was first set (ISO 8601).
    public var createdAt: String
    /// The odometer of the latest kilometer report; nil before the first.
    public var lastReportedKilometers: Double?
    /// When that odometer was read (ISO 8601).
    public var lastReportedAt: String?
}
