/// Names an emulated backend. Each platform module declares its own (`extension PlatformID {
/// public static let acme = PlatformID("acme") }`), so the core names none of them and a
/// new platform is a new module plus one line where the server lists its platforms.
public struct PlatformID: RawRepresentable, Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The name used in paths (`/acme`), configuration sections, fault rules and the journal.
    public let rawValue: String

    /// A platform named `rawValue` (lower-case letters and digits by convention).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A platform named `name`.
    public init(_ name: String) { self.rawValue = name }

    /// Decodes the bare name.
    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the bare name.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The path prefix the platform is served under on the shared port, e.g. `/acme`.
    public var pathPrefix: String { "/" + rawValue }

    /// The name.
    public var description: String { rawValue }

    /// Orders by name (stable listings).
    public static func < (lhs: PlatformID, rhs: PlatformID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Identifies a project (tenant). Every piece of platform state carries one.
public typealias ProjectID = String
