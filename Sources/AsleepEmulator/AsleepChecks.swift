import EmulatorCore
import Foundation
import HTTPServer

/// What the integration checks learn from an Asleep SDK request: the installation is the
/// registered product (`SERIAL:…` or `MAC_ADDRESS:…`, as 3.3's `ProductInfo` names the device),
/// read from a registration's body or from the `x-product-key` the SDK attaches afterwards; a
/// request without either concerns its user (`user:<id>`), which only the generic rules compare.
enum AsleepChecks {
    /// `POST /ai/v1/products`: `setup(apiKey:productInfo:delegate:)` on a first launch.
    static let registration = PlatformID.asleep.pathPrefix + "/ai/v1/products"
    /// `GET /ai/v1/users/{user_id}`: `initAsleepConfig` with a user id.
    static let join = PlatformID.asleep.pathPrefix + "/ai/v1/users/{user_id}"
    /// `POST /ai/v1/users`: `initAsleepConfig` without a user id.
    static let newUser = PlatformID.asleep.pathPrefix + "/ai/v1/users"
    /// `POST /ai/v1/sessions`: start tracking.
    static let sessions = PlatformID.asleep.pathPrefix + "/ai/v1/sessions"

    /// The fact that says the device is a registered product (not a user standing in for one).
    static let productFact = "product"
    /// The credential a successful registration answered with.
    static let credentialFact = "credential"

    /// The project state cache's kind for a product key's device (cached like the SDK's credentials).
    private static let productKeyKind = "productKeyDevice"

    /// The `sdk` route group's `observe` step.
    @Sendable static func observe(_ request: Request, _ context: EmulatorContext, _ response: Response) async -> Observation? {
        if context.route == registration, request.method == .post {
            var facts = [productFact: "1"]
            if (200..<300).contains(response.status), let key = try? JSONValue.parse(response.body)["result"]?["product_key"]?.stringValue {
                facts[credentialFact] = key // not JSON: no credential to compare, which only skips a rule
            }
            return Observation(device: registeredDevice(request.body), facts: facts, retriedBySDK: true)
        }
        if let key = request.headers["x-product-key"], !key.isEmpty, let project = context.projectID, let device = await device(productKey: key, project: project, context) {
            return Observation(device: device, facts: [productFact: "1"])
        }
        let user = context.parameters["user_id"] ?? request.headers["x-user-id"]
        return Observation(device: user.flatMap { $0.isEmpty ? nil : "user:" + $0 })
    }

    /// `TYPE:value` of a registration body (any of the SDKs' spellings), also of one the server
    /// refused for its model or lengths, so a retried rejection names the same device; nil when
    /// the body names no identifier at all.
    static func registeredDevice(_ body: Data) -> String? {
        guard case .object(let fields)? = try? JSONValue.parse(body) else { return nil } // not JSON: no device to name
        guard let type = (fields["identifier_type"] ?? fields["identifierType"])?.stringValue,
            let value = (fields["identifier_value"] ?? fields["identifierValue"])?.stringValue
        else { return nil }
        return (AsleepService.identifierType(type) ?? type) + ":" + value
    }

    /// The device of a product key, read once and kept in the project state cache until the
    /// project changes; nil for a key the project never issued.
    private static func device(productKey: String, project: ProjectID, _ context: EmulatorContext) async -> String? {
        let presented = PresentedCredential(kind: productKeyKind, value: productKey)
        let record = try? await context.services.projectCache.resolve(presented, platform: .asleep) { presented in
            try await context.database.read { connection in
                try AsleepStore(connection: connection).product(productKey: presented.value, project: project)
            }.map { CredentialRecord(project: project, kind: presented.kind, value: presented.value, details: $0.identifierType + ":" + $0.identifierValue) }
        } // a failed read names no device: the checks skip the request rather than fail it
        guard let record, record.project == project else { return nil }
        return record.details(as: String.self)
    }
}
