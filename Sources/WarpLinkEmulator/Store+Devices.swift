import EmulatorCore
import Foundation
import Storage

/// Forgetting one installation (`DELETE /__admin/projects/{id}/devices/warplink/{device}`).
extension WarpLinkStore {
    /// Deletes the install record `installID` and releases the click it claimed (unclaimed and
    /// filed in its deferred-match buckets again), so the next deferred check of that device is a
    /// first install that can claim it once more. Returns the installs deleted plus the clicks released.
    func forgetInstall(_ project: ProjectID, installID: String) throws -> Int {
        let claimed = try connection.fetchAll(ClickRecord.self, "SELECT * FROM warplink_clicks WHERE project_id = ? AND claimed_by = ?", project, installID)
        for click in claimed {
            try connection.run("UPDATE warplink_clicks SET claimed_by = NULL, claimed_at = NULL WHERE project_id = ? AND id = ?", project, click.id)
            for bucket in click.bucketKeys() {
                try connection.run(
                    "INSERT INTO warplink_click_buckets (project_id, bucket, click_id, clicked_at) VALUES (?, ?, ?, ?)",
                    project, bucket, click.id, click.clickedAt.timeIntervalSince1970)
            }
        }
        return try connection.run("DELETE FROM warplink_installs WHERE project_id = ? AND id = ?", project, installID) + claimed.count
    }
}
