import EmulatorCore
import Foundation

/// Settings from the `warrantylife` configuration section (the contract's "Alternatives (config)"),
/// laid over the defaults with `SettingsDocument`. WarrantyLife has no per-project settings
/// document; a value outside what the contract allows is ignored (the default stays), as it
/// always was, so a typo in the file never stops the server.
struct WarrantyLifeSettings: Decodable, Sendable, Equatable {
    /// Status of a login mismatch: 404 (2022) or 401.
    var loginFailureStatus = 404
    /// Status of a successful login: 202 (2022) or 200.
    var loginStatus = 202
    /// New accounts need a control-plane activation before they can log in.
    var requireActivation = false
    /// Largest readings (uncompressed), audio or image upload.
    var maxUploadBytes = 20 * 1024 * 1024
    /// `bare` answers unwrapped payloads (2022 behaviour).
    var bareEnvelope = false
    /// Opt-in: a repeated sensor event (same item, `eventAt`, type) is answered with the first
    /// event's id. Off by default, so a repeat gets a new id and an SDK that re-uploads shows up.
    var sensorEventDedupe = false
    /// Opt-in: a repeated diagnostic report (same sorted-JSON hash on the item) is answered with
    /// the first report's id. Off by default, like `sensorEventDedupe`.
    var uploadDedupe = false
    /// Opt-in: the dedicated Smart Saver routes (`GET /items/{itemId}/smart-saver`, `POST
    /// …/smart-saver/opt-ins`), which the SDK does not call. Off by default, so they answer as
    /// unknown routes; opt-ins travel in sensor events.
    var smartSaverRoutes = false

    /// The defaults.
    init() {}

    /// The defaults under the configuration file's section.
    init(_ configuration: JSONValue) {
        // The configuration section may be absent (null) or not an object; then only the defaults apply.
        guard case .object = configuration else { self.init(); return }
        do {
            self = try SettingsDocument.resolve(WarrantyLifeSettings.self, layers: [.object([:]), configuration])
        } catch {
            // Unreachable: `init(from:)` ignores unusable members instead of throwing.
            self.init()
        }
    }

    private enum CodingKeys: String, CodingKey {
        case loginFailureStatus, loginStatus, requireActivation, maxUploadBytes, envelope, sensorEventDedupe, uploadDedupe, smartSaverRoutes
    }

    /// Reads each member the contract allows; anything else keeps the default.
    init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // `try?` per member: a mistyped member is one the contract does not allow, so the default stays.
        if let value = try? container.decodeIfPresent(Int.self, forKey: .loginFailureStatus), value == 401 || value == 404 { loginFailureStatus = value }
        if let value = try? container.decodeIfPresent(Int.self, forKey: .loginStatus), value == 200 || value == 202 { loginStatus = value }
        if let value = try? container.decodeIfPresent(Bool.self, forKey: .requireActivation) { requireActivation = value }
        if let value = try? container.decodeIfPresent(Int.self, forKey: .maxUploadBytes), value > 0 { maxUploadBytes = value }
        bareEnvelope = (try? container.decodeIfPresent(String.self, forKey: .envelope)) == "bare"
        if let value = try? container.decodeIfPresent(Bool.self, forKey: .sensorEventDedupe) { sensorEventDedupe = value }
        if let value = try? container.decodeIfPresent(Bool.self, forKey: .uploadDedupe) { uploadDedupe = value }
        if let value = try? container.decodeIfPresent(Bool.self, forKey: .smartSaverRoutes) { smartSaverRoutes = value }
    }
}
