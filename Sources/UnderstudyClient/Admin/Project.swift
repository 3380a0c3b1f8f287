import Foundation

/// A project as the control plane returns it.
public struct Project: Sendable, Codable, Equatable {
    /// The project's id (`prj_…`, or `demo`), the `{id}` of every project route.
    public var id: String
    /// A label for people; names need not be unique.
    public var name: String
    /// The seed of its ids, when given.
    public var seed: Int64?
    /// When the project was created (ISO 8601).
    public var createdAt: String
    /// Whether it is the demo project.
    public var isDemo: Bool
    /// The project's virtual clock, which its expiries and timestamps follow.
    public var clock: ClockState
    /// Credentials per platform (`warplink`: `sdkKey`, `apiKey`; `asleep`: `apiKey`; …).
    public var credentials: [String: [String: String]]
    /// The URL to give each platform's SDK, e.g. `http://127.0.0.1:8080/asleep`.
    public var baseURLs: [String: String]
    /// SDK settings to paste, per platform, named as each SDK names them.
    public var sdkSettings: [String: [String: String]]

    /// Credential `name` of `platform`, or "".
    public func credential(_ platform: String, _ name: String) -> String { credentials[platform]?[name] ?? "" }
}
