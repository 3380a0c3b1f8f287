import Foundation

/// A telemetry batch.
public struct TelematicsTelemetryBatch: Sendable, Codable, Equatable {
    /// The batch's id; an upload repeating it answers 200 `duplicate: true` and stores nothing.
    public var batchId: String?
    /// The uploading device, recorded with the batch.
    public var deviceId: String?
    /// `ios`, as the SDK sends it.
    public var platform: String?
    /// The code set by `setServiceCode`; checked against the project's allow-list.
    public var serviceCode: String?
    /// The current vehicle when the samples were taken.
    public var vehicleId: Int?
    /// The user the SDK believes it is; a mismatch with the token's user is flagged, not refused.
    public var userId: Int?
    /// Location fixes, in any order; the server sorts them.
    public var samples: [TelematicsSample]
    /// Driving events detected on the device.
    public var events: [TelematicsBatchEvent]?
    /// Attention events riding along with the samples.
    public var attentionEvents: [TelematicsAttentionEvent]?

    /// Creates a batch (a fresh `batchId` by default).
    public init(
        batchId: String? = UUID().uuidString.lowercased(), samples: [TelematicsSample], events: [TelematicsBatchEvent]? = nil,
        attentionEvents: [TelematicsAttentionEvent]? = nil, serviceCode: String? = nil, vehicleId: Int? = nil, userId: Int? = nil
    ) {
        self.batchId = batchId
        self.deviceId = "understudy-client"
        self.platform = "ios"
        self.serviceCode = serviceCode
        self.vehicleId = vehicleId
        self.userId = userId
        self.samples = samples
        self.events = events
        self.attentionEvents = attentionEvents
    }
}
