import EmulatorCore
import Foundation
import Storage

/// Forgetting one installation (`DELETE /__admin/projects/{id}/devices/telematics/{device}`).
extension TelematicsStore {
    /// Deletes every token pair of `userID`, so the app's stored tokens are unknown and it must
    /// sign in again; the user, vehicles and trips stay (they are the account's, not the
    /// installation's). Returns the pairs deleted.
    func forgetTokenPairs(_ project: ProjectID, userID: Int) throws -> Int {
        try connection.run("DELETE FROM telematics_token_pairs WHERE project_id = ? AND user_id = ?", project, userID)
    }
}
