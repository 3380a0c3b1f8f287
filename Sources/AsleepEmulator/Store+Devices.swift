import EmulatorCore
import Foundation
import Storage

/// Forgetting one installation (`DELETE /__admin/projects/{id}/devices/asleep/{device}`).
extension AsleepStore {
    /// Deletes the product registrations of `identifierType:identifierValue` (one per customer
    /// and model) with their product keys, so the next `POST /ai/v1/products` is a first
    /// registration (`created: true`). Sessions stay: they are the user's. Returns the rows deleted.
    func forgetProducts(_ project: ProjectID, identifierType: String, identifierValue: String) throws -> Int {
        try connection.run(
            "DELETE FROM asleep_products WHERE project_id = ? AND identifier_type = ? AND identifier_value = ?", project, identifierType, identifierValue)
    }
}
