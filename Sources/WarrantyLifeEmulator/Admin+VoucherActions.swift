import EmulatorCore
import Foundation
import HTTPServer

/// The action a voucher lookup would get now, for every voucher of the project, without
/// recording a lookup: a preview of the decision table for a given caller and device.
extension WarrantyLifeAdmin {
    static func previewVoucherActions(_ request: Request, _ context: AdminContext) async throws -> Response {
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
        let project = context.projectID, now = context.now
        let (device, caller, transfer) = (deviceID, userID, isPlanTransfer)
        let rows = try await read(context) { store in
            let service = WarrantyLifeService(store: store, project: project, now: now)
            return try store.vouchers(project).map { voucher -> JSONValue in
                var (facts, count) = try service.voucherFacts(
                    voucher, isPlanTransfer: transfer, activeWarrantiesInCurrentDevice: 0,
                    deviceID: device, callerUserID: caller)
                facts.activeWarrantiesInCurrentDevice = count // what the SDK sends: the device's active warranties
                do throws(WarrantyLifeError) {
                    let action = try VoucherActionResolver.action(for: facts, now: now)
                    return ["code": .string(voucher.code), "action": .string(action.rawValue), "isError": .bool(action.isError), "error": .null]
                } catch {
                    return ["code": .string(voucher.code), "action": .null, "isError": true, "error": .string(error.error), "status": .int(Int64(error.status))]
                }
            }
        }
        return list(rows, "voucherActions")
    }
}
