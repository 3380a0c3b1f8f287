import EmulatorCore
import Foundation

/// The credentials and identity headers a request carries, as the service reads them.
struct Presented: Sendable, Equatable {
    var apiKey: String?
    var bearer: String?
    var productKey: String?
    var userAgent: String?
    var userID: String?
    var timezone: String?
}

/// Who is calling: the project and customer behind the credential, and its plan.
struct Caller: Sendable, Equatable {
    var project: ProjectID
    var customer: String
    var apiKey: String?
    var productBilling: Bool
    var productID: String?
    var settings: AsleepSettings
}
