import EmulatorCore

/// The `telematics` section of the configuration file, checked once when the server starts: a
/// setting of the wrong type there would otherwise surface on every SDK request as the SDK's
/// 400, which no request could fix.
struct TelematicsConfiguration: Sendable {
    /// Real host names served without the `/telematics` prefix, lower-cased.
    let hosts: Set<String>
    /// Where the API is mounted under the platform prefix.
    let apiRoot: String
    /// The `settings` object: per-server defaults under what each project's control plane changes.
    let settings: JSONValue

    /// The section's keys.
    static let keys = ["apiRoot", "hosts", "settings"]

    /// Reads and checks `section` (null: every default).
    init(_ section: JSONValue) throws(TelematicsConfigurationError) {
        if section.isNull {
            (hosts, apiRoot, settings) = ([], "/api/v1", .null)
            return
        }
        guard case .object(let members) = section else { throw .init("telematics must be an object of \(Self.keys.joined(separator: ", "))") }
        if let unknown = members.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw .init("unknown setting telematics.\(unknown); known: \(Self.keys.joined(separator: ", "))")
        }
        var hosts: Set<String> = []
        if let value = members["hosts"], !value.isNull {
            let names = value.arrayValue?.compactMap(\.stringValue)
            guard let names, names.count == value.arrayValue?.count else { throw .init("telematics.hosts must be an array of host names") }
            hosts = Set(names.map { $0.lowercased() })
        }
        var apiRoot = "/api/v1"
        if let value = members["apiRoot"], !value.isNull {
            // The root is put in front of every route path, so it must be empty or one clean `/…` prefix.
            guard let text = value.stringValue, text.isEmpty || (text.hasPrefix("/") && !text.hasSuffix("/")) else {
                throw .init("telematics.apiRoot must be \"\" or a path such as \"/api/v1\" (leading slash, no trailing slash)")
            }
            apiRoot = text
        }
        let settings = members["settings"] ?? .null
        try Self.check(settings)
        (self.hosts, self.apiRoot, self.settings) = (hosts, apiRoot, settings)
    }

    /// The settings layer must name known settings with values of the right type and range, as a
    /// control-plane `PATCH` must.
    private static func check(_ settings: JSONValue) throws(TelematicsConfigurationError) {
        if settings.isNull { return }
        guard case .object(let members) = settings else { throw .init("telematics.settings must be an object") }
        if let unknown = members.keys.sorted().first(where: { TelematicsSettings.CodingKeys(rawValue: $0) == nil }) {
            throw .init("unknown setting telematics.settings.\(unknown)")
        }
        let resolved: TelematicsSettings
        do { resolved = try TelematicsSettings.resolve([settings]) } catch {
            throw .init("telematics.settings: \(ErrorText.of(error))")
        }
        if let problem = resolved.problems.first { throw .init("telematics.settings: \(problem)") }
    }
}

/// A `telematics` configuration section the server cannot start with.
public struct TelematicsConfigurationError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the setting.
    public let description: String

    init(_ description: String) { self.description = description }
}
