import AsleepEmulator
import EmulatorCore
import TelematicsEmulator
import WarpLinkEmulator
import WarrantyLifeEmulator

/// The platforms this server emulates: a fifth one is a new module plus one line here.
enum PlatformRegistry {
    /// A platform's name and how to build it from its configuration-file section (throwing when
    /// the section is unusable, so the server refuses to start).
    struct Entry: Sendable {
        let id: PlatformID
        let make: @Sendable (JSONValue) throws -> any Platform
    }

    /// Every platform, in the order routes, banners and listings show them.
    static let entries: [Entry] = [
        Entry(id: .warplink) { WarpLinkPlatform(configuration: $0) },
        Entry(id: .asleep) { AsleepPlatform(configuration: $0) },
        Entry(id: .warrantylife) { WarrantyLifePlatform(configuration: $0) },
        Entry(id: .telematics) { try TelematicsPlatform(configuration: $0) },
    ]

    /// Whether `name` is a registered platform's name.
    static func isRegistered(_ name: String) -> Bool { entries.contains { $0.id.rawValue == name } }

    /// Every platform built from its section of `settings`.
    static func makePlatforms(_ settings: EmulatorSettings) throws -> [any Platform] {
        try entries.map { try $0.make(settings.configuration(for: $0.id)) }
    }
}
