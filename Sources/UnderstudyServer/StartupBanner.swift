import EmulatorCore

/// What the server prints at start: the demo project's SDK settings, each under the SDK's own
/// setting names, and the credentials the settings do not show, labelled as what they are.
struct StartupBanner {
    let project: ProjectRecord
    let platforms: [any Platform]
    let serverURL: String

    private struct Section {
        let platform: PlatformID
        let settings: [(String, String)]
        let otherCredentials: [(String, String)]
    }

    private var sections: [Section] {
        platforms.map { platform in
            let credentials = project.credentials[platform.id] ?? [:]
            let settings = platform.sdkSettings(serverURL: serverURL, credentials: credentials).sorted { $0.key < $1.key }
            let shown = Set(settings.map(\.value))
            let other = credentials.filter { !shown.contains($0.value) }.sorted { $0.key < $1.key }
            return Section(platform: platform.id, settings: settings, otherCredentials: other)
        }
    }

    /// The banner as text lines.
    var text: String {
        var lines = ["Demo project `\(project.id)` is ready. Point the SDKs at:"]
        for section in sections {
            let settings = section.settings.map { "\($0.0)=\($0.1)" }.joined(separator: "  ")
            lines.append("  \(section.platform.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(settings)")
            if !section.otherCredentials.isEmpty {
                // Not SDK settings: other credentials of the project (a server-side API key, say).
                let other = section.otherCredentials.map { "\($0.0)=\($0.1)" }.joined(separator: "  ")
                lines.append("  \(String(repeating: " ", count: 13)) other credentials (not SDK settings): \(other)")
            }
        }
        lines.append("Control plane: \(serverURL)/__admin/projects  (OpenAPI: \(serverURL)/__admin/openapi.json)")
        lines.append("Dashboard:     \(serverURL)/__admin/ui")
        return lines.joined(separator: "\n")
    }

    /// The banner as fields of one JSON log line.
    var fields: [(String, JSONValue)] {
        var platformsObject: [String: JSONValue] = [:]
        for section in sections {
            platformsObject[section.platform.rawValue] = [
                "sdkSettings": .object(Dictionary(uniqueKeysWithValues: section.settings.map { ($0.0, JSONValue.string($0.1)) })),
                "otherCredentials": .object(Dictionary(uniqueKeysWithValues: section.otherCredentials.map { ($0.0, JSONValue.string($0.1)) })),
            ]
        }
        return [("project", .string(project.id)), ("platforms", .object(platformsObject)),
                ("controlPlane", .string(serverURL + "/__admin/projects")), ("openapi", .string(serverURL + "/__admin/openapi.json")),
                ("dashboard", .string(serverURL + "/__admin/ui"))]
    }
}
