import EmulatorCore
import Foundation
import HTTPServer

/// What the integration checks learn from a WarrantyLife SDK request: the installation is the
/// `deviceId` a lookup names, or on the item routes the device's item (`item:<itemId>`, one per
/// device), both read from the request, so answers a fault replaced are covered too. Handlers
/// note what the rules compare (a Sensor Event's `eventAt`, a report's or an image's SHA-256).
enum WarrantyLifeChecks {
    /// Routes below this are the SDK's (the platform prefix and `/mapi/{clientCode}/100`).
    static let base = PlatformID.warrantylife.pathPrefix + WarrantyLifeRoutes.base

    /// `PUT /items/{itemId}`: `createSensorEvent`.
    static let sensorEvent = base + "/items/{itemId}"
    /// `POST /items/{itemId}/events`: the same, under its alias.
    static let sensorEventAlias = base + "/items/{itemId}/events"
    /// `POST …/events/{sensorEventId}/readings`.
    static let readings = base + "/items/{itemId}/events/{sensorEventId}/readings"
    /// `POST …/clips/sound/{sensorEventId}`.
    static let audio = base + "/items/{itemId}/clips/sound/{sensorEventId}"
    /// `POST /items/{itemId}/diagnostics`.
    static let diagnostics = base + "/items/{itemId}/diagnostics"
    /// `POST …/diagnostics/{diagnosticId}/images/{kind}`.
    static let images = base + "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}"

    /// The Sensor Event's `eventAt`, as sent.
    static let eventAtFact = "eventAt"
    /// The Sensor Event's `sensorEventType`.
    static let eventTypeFact = "sensorEventType"
    /// The SHA-256 the SDK fingerprints a stage by (a report's sorted JSON, an image's bytes).
    static let fingerprintFact = "sha256"

    /// The route groups' `observe` step.
    @Sendable static func observe(_ request: Request, _ context: EmulatorContext, _ response: Response) async -> Observation? {
        let device = context.parameters["itemId"].map { "item:" + $0 } ?? deviceID(inQuery: request.query)
        let uploads = request.method == .post && (context.route == readings || context.route == images)
        return Observation(device: device, facts: context.noted, retriedBySDK: uploads)
    }

    /// The first `deviceId` of a query, decoded; nil when absent or empty. Found by its bytes:
    /// parsing the whole query (`Request.queryValue`) was half of what the checks cost a voucher lookup.
    static func deviceID(inQuery query: String) -> String? {
        let name = Array("deviceId=".utf8)
        for item in query.utf8.split(separator: UInt8(ascii: "&")) where item.starts(with: name) {
            let value = Substring(item.dropFirst(name.count))
            guard !value.isEmpty else { return nil }
            return value.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") })
                ? URLQuery.percentDecode(value, plusAsSpace: true) : String(value)
        }
        return nil
    }
}
