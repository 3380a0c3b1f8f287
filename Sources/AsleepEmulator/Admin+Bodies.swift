import EmulatorCore
import Foundation

/// Control-plane request bodies (camelCase; decoded strictly, so unknown keys are a 400).
extension AsleepAdmin {
    /// An API key to add or change.
    struct KeyBody: Codable {
        var apiKey: String?
        var customer: String?
        var state: String?
        var productBilling: Bool?
    }

    /// An app credential to add.
    struct AppBody: Codable {
        var appId: String?
        var appSecret: String?
        var customer: String?
        var state: String?
        var productBilling: Bool?
    }

    /// Which tokens to expire (`access`, `refresh` or `all`).
    struct ExpireBody: Codable {
        var kind: String?
    }

    /// A user to seed.
    struct UserBody: Codable {
        var userId: String?
        var apiKey: String?
        var customer: String?
        var metadata: JSONValue?
    }

    /// A session to seed, in any state.
    struct SessionBody: Codable {
        var sessionId: String?
        var userId: String
        var state: String?
        var startTime: String?
        var endTime: String?
        var unexpected: Bool?
        var completeTime: String?
        var timezone: String?
        var service: String?
        var inferenceType: String?
        var callbackUrl: String?
        var chunks: Int?
        var missingSeqNums: [Int]?
        var sleepStages: [Int]?
        var snoringStages: [Int]?
        var breathStages: [Int]?
        var peculiarities: [String]?
        var stat: JSONValue?
        var hold: Bool?
        var snoringDetected: [Int]?
        var breathDetected: [Int]?
    }

    /// Changes to a live session.
    struct SessionPatch: Codable {
        var callbackUrl: String?
        var hold: Bool?
        var sleepStages: [Int]?
        var snoringStages: [Int]?
        var breathStages: [Int]?
        var peculiarities: [String]?
        var stat: JSONValue?
        var snoringDetected: [Int]?
        var breathDetected: [Int]?
    }

    /// A product to seed (as if the device had registered).
    struct ProductBody: Codable {
        var model: String
        var identifierType: String?
        var identifierValue: String
        var apiKey: String?
        var customer: String?
        var productKey: String?
    }

    /// A webhook to fire now.
    struct EventBody: Codable {
        var event: String
        var callbackUrl: String?
    }
}
