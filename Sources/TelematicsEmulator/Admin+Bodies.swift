import EmulatorCore
import Foundation

/// Control-plane request bodies, decoded strictly with `AdminBody` (unknown keys are 400s).
extension TelematicsAdmin {
    /// `POST /users`.
    struct UserBody: Codable {
        var userId: Int?
        var userName: String?
        var state: String?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var disabledFeatures: [String]?
    }

    /// `PATCH /users/{userId}`.
    struct UserPatch: Codable {
        var userName: String?
        var state: String?
        var currentVehicleId: Int?
        var clearCurrentVehicle: Bool?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var disabledFeatures: [String]?
    }

    /// `POST /tokens`.
    struct TokenBody: Codable {
        var userId: Int
        var userName: String?
        var accessTtlSeconds: Double?
        var refreshTtlSeconds: Double?
        var withRefreshToken: Bool?
        var tokenExpires: String?
        var refreshTokenExpires: String?
    }

    /// `POST /tokens/expire` and `/tokens/revoke`.
    struct TokenActionBody: Codable {
        var token: String
    }

    /// `POST /vehicles`.
    struct VehicleBody: Codable {
        var plate: String
        var internalPlate: String?
        var type: Int
        var fuelType: Int
        var addReason: Int?
        var currentForUserId: Int?
    }

    /// `POST /vehicles/{vehicleId}/kilometers`.
    struct KilometersBody: Codable {
        var kilometers: Double
        var observations: String?
        var readAt: String?
    }

    /// `PUT /service-codes`.
    struct ServiceCodesBody: Codable {
        var mode: String
        var codes: [TelematicsSettings.ServiceCode]?
    }

    /// `POST /trips`: samples (with events), or summary numbers.
    struct TripBody: Codable {
        var userId: Int
        var vehicleId: Int?
        var samples: [JSONValue]?
        var events: [JSONValue]?
        var attentionEvents: [JSONValue]?
        var startedAt: String?
        var endedAt: String?
        var distanceKm: Double?
        var maxSpeedKmh: Double?
    }

    /// `POST /periods`.
    struct PeriodBody: Codable {
        var userId: Int
        var startedAt: String
        var endedAt: String?
        var isProcessed: Bool?
        var count: Int?
        var spacingSeconds: Double?
        var vehicleId: Int?
        var serviceCode: String?
    }

    /// The three catalogues, each a settings key.
    enum Catalogue: String, Sendable {
        case vehicleTypes, fuelTypes, addReasons

        /// The catalogue in `settings`.
        func entries(_ settings: TelematicsSettings) -> [String: Int] {
            switch self {
            case .vehicleTypes: return settings.vehicleTypes
            case .fuelTypes: return settings.fuelTypes
            case .addReasons: return settings.addReasons
            }
        }
    }

    // MARK: Control-plane views

    static func adminUser(_ user: UserRecord) -> JSONValue {
        [
            "userId": .int(Int64(user.userID)), "userName": .string(user.userName), "state": .string(user.state.rawValue),
            "currentVehicleId": Wire.int(user.currentVehicleID), "accessTtlSeconds": user.accessTtl.map { .double($0) } ?? .null,
            "refreshTtlSeconds": user.refreshTtl.map { .double($0) } ?? .null, "createdAt": .string(user.createdAt),
            "disabledFeatures": .array(user.disabledFeatures.map { .string($0) }),
        ]
    }

    static func adminPair(_ pair: PairRecord, now: Date) -> JSONValue {
        [
            "id": .string(pair.id), "userId": .int(Int64(pair.userID)), "token": .string(pair.accessToken), "tokenExpires": Wire.iso(pair.accessExpires),
            "refreshToken": Wire.str(pair.refreshToken), "refreshTokenExpires": Wire.iso(pair.refreshExpires),
            "accessState": .string(TelematicsService.accessState(pair, now: now)), "refreshState": Wire.str(TelematicsService.refreshState(pair, now: now)),
            "parentId": Wire.str(pair.parentID), "successorId": Wire.str(pair.successorID),
            "rotatedAt": Wire.iso(pair.rotatedAt), "createdAt": Wire.iso(pair.createdAt),
        ]
    }

    static func batch(_ batch: BatchRecord) -> JSONValue {
        let declared = batch.declaredUserID
        return [
            "batchId": .string(batch.batchID), "userId": .int(Int64(batch.userID)), "declaredUserId": Wire.int(declared),
            "userMismatch": .bool(declared != nil && declared != batch.userID), "vehicleId": Wire.int(batch.vehicleID),
            "serviceCode": Wire.str(batch.serviceCode), "deviceId": Wire.str(batch.deviceID),
            "accepted": .int(Int64(batch.sampleCount)), "eventCount": .int(Int64(batch.eventCount)),
            "attentionEventCount": .int(Int64(batch.attentionEventCount)),
            "repeatCount": .int(Int64(batch.repeatCount)), "receivedAt": Wire.iso(batch.receivedAt),
        ]
    }

    static func serviceCodes(_ settings: TelematicsSettings) throws -> JSONValue {
        guard let codes = settings.serviceCodes else { return ["mode": "open", "codes": []] }
        return ["mode": "allowList", "codes": try JSONValue.from(codes)]
    }
}
