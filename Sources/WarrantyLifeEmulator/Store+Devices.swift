import EmulatorCore
import Foundation
import Storage

/// Forgetting one installation (`DELETE /__admin/projects/{id}/devices/warrantylife/{device}`).
extension WarrantyLifeStore {
    /// The tables of an item's registration stages and what hangs off it, by `item_id`.
    static let itemTables = [
        "wl_sensor_events", "wl_readings", "wl_audio_clips", "wl_diagnostics", "wl_images", "wl_fcm_tokens", "wl_opt_ins", "wl_insights",
        "wl_warranties",
    ]

    /// Deletes the device's voucher lookups, its item and every row of the item (stages, opt-ins,
    /// insights, warranties); `device` is a `deviceId` or `item:<id>` (the same installation seen
    /// from the item routes). Vouchers keep their state: they are the project's data. Returns the
    /// rows deleted.
    func forgetDevice(_ device: String, project: ProjectID) throws -> Int {
        var deviceID: String? = device
        var itemIDs: [String] = []
        if device.hasPrefix("item:") {
            let id = String(device.dropFirst("item:".count))
            deviceID = try connection.scalar("SELECT device_id FROM wl_items WHERE project_id = ? AND id = ?", project, id).string
            itemIDs = [id]
        } else {
            itemIDs = try connection.query("SELECT id FROM wl_items WHERE project_id = ? AND device_id = ?", project, device).compactMap { $0.string("id") }
        }
        var deleted = 0
        if let deviceID { deleted += try connection.run("DELETE FROM wl_voucher_lookups WHERE project_id = ? AND device_id = ?", project, deviceID) }
        for item in itemIDs {
            for table in Self.itemTables { deleted += try connection.run("DELETE FROM \(table) WHERE project_id = ? AND item_id = ?", project, item) }
            deleted += try connection.run("DELETE FROM wl_items WHERE project_id = ? AND id = ?", project, item)
        }
        return deleted
    }
}
