import EmulatorCore
import Foundation
import HTTPServer

/// The action a voucher lookup would get now, for every voucher of the project, without
/// recording a lookup: a preview of the D-WL-15 table for a given caller and device.
extension WarrantyLifeAdmin {
    static func voucherActionRoutes() -> [Route] {
        [
            Route(.get, "/voucher-actions") { request, ctx in
                var deviceID: String?, userID: String?, isPlanTransfer = false
                for (name, value) in request.queryItems {
                    switch name {
                    case "deviceId": deviceID = value.isEmpty ? nil : value
                    case "userId": userID = value.isEmpty ? nil : value
                    case "isPlanTransfer":
                        guard ["true", "false"].contains(value) else { throw AdminError.badRequest("`isPlanTransfer` must be true or false.") }
                        isPlanTransfer = value == "true"
                    default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use deviceId, userId, isPlanTransfer.")
                    }
                }
                let p = ctx.projectID ?? "", now = ctx.now
                let (device, caller, transfer) = (deviceID, userID, isPlanTransfer)
                let rows = try await ctx.database.read { c in
                    let warranties = try device.flatMap { try WarrantyLifeStore.item(c, p, deviceID: $0) }.map { try WarrantyLifeStore.warranties(c, p, itemID: $0.id) } ?? []
                    return try WarrantyLifeStore.vouchers(c, p).map { voucher -> JSONValue in
                        let active = warranties.filter { $0.isActive(now: now) }
                        let facts = VoucherLookupFacts(
                            forcedAction: voucher.seed.forceAction, status: voucher.status, expiresAt: voucher.seed.expiresAt.flatMap(WarrantyLifeRules.parseDate),
                            transferable: voucher.transferable, claimedByUserID: voucher.claimedByUserID, originalDeviceID: voucher.originalDeviceID,
                            isPlanTransfer: transfer, activeWarrantiesInCurrentDevice: active.count,
                            deviceHasActiveWarranty: active.contains { $0.id != voucher.warrantyID }, callerUserID: caller, deviceID: device)
                        do {
                            let action = try WarrantyLifeRules.action(for: facts, now: now)
                            return ["code": .string(voucher.code), "action": .string(action.rawValue), "isError": .bool(action.isError), "error": .null]
                        } catch let error as WarrantyLifeError {
                            return ["code": .string(voucher.code), "action": .null, "isError": true, "error": .string(error.error), "status": .int(Int64(error.status))]
                        }
                    }
                }
                return list(rows, "voucherActions")
            },
        ]
    }
}
