import EmulatorCore
import Foundation
import Storage

/// Forgetting one installation (`DELETE /__admin/projects/{id}/devices/warplink/{device}`).
extension WarpLinkStore {
    /// Deletes every install recorded for the device `deviceID` (the deferred check's
    /// `device_id`, any case, as the matcher compares it) and releases the clicks they claimed
    /// (unclaimed and filed in their deferred-match buckets again), so the next deferred check of
    /// that device is a first install that can claim one once more. Returns the installs deleted
    /// plus the clicks released.
    func forgetDevice(_ project: ProjectID, deviceID: String) throws -> Int {
        let installs = try connection.query(
            "SELECT id FROM warplink_installs WHERE project_id = ? AND device_id = ? COLLATE NOCASE", project, deviceID
        ).map { try $0.decode("id", as: String.self) }
        var changed = 0
        for installID in installs {
            let claimed = try connection.fetchAll(ClickRecord.self, "SELECT * FROM warplink_clicks WHERE project_id = ? AND claimed_by = ?", project, installID)
            for click in claimed {
                try connection.run("UPDATE warplink_clicks SET claimed_by = NULL, claimed_at = NULL WHERE project_id = ? AND id = ?", project, click.id)
                for bucket in click.bucketKeys() {
                    try connection.run(
                        "INSERT INTO warplink_click_buckets (project_id, bucket, click_id, clicked_at) VALUES (?, ?, ?, ?)",
                        project, bucket, click.id, click.clickedAt.timeIntervalSince1970)
                }
            }
            changed += try connection.run("DELETE FROM warplink_installs WHERE project_id = ? AND id = ?", project, installID) + claimed.count
        }
        return changed
    }
}
