import Foundation

extension Understudy {
    /// WarrantyLife: an SDK-like repository per developer key and device, plus the control plane.
    public var warrantyLife: WarrantyLifeClient { WarrantyLifeClient(http: http, admin: admin) }
}

/// Entry point of the WarrantyLife namespace.
public struct WarrantyLifeClient: Sendable {
    let http: ClientHTTP
    let admin: AdminClient

    /// An `ApiRepository` as the SDK builds it with `build(clientCode:apiKey:…)`, for one device.
    /// `retryDelays` are the upload backoffs (the SDK uses 1, 2, 4 s). `wait` waits them out
    /// instead of sleeping: a test passes one that moves the project's frozen clock on
    /// (`ProjectAdmin.advanceClock(by:)`), so the server sees the SDK's back-off without the test waiting.
    public func repository(
        apiKey: String?, deviceID: String, clientCode: String = "wi", retryDelays: [Double] = [1, 2, 4],
        wait: (@Sendable (Double) async throws -> Void)? = nil
    ) -> WarrantyLifeRepository {
        WarrantyLifeRepository(http: http, apiKey: apiKey, deviceID: deviceID, base: "/warrantylife/mapi/\(clientCode)/100", retryDelays: retryDelays, wait: wait)
    }

    /// The control plane of `projectID`'s WarrantyLife state.
    public func admin(_ projectID: String) -> WarrantyLifeAdmin { WarrantyLifeAdmin(project: admin.project(projectID)) }
}
