/// The four emulated backends.
public enum PlatformID: String, Sendable, CaseIterable, Codable, Hashable {
    case warplink
    case asleep
    case warrantylife
    case telematics

    /// The path prefix the platform is served under on the shared port, e.g. `/warplink`.
    public var pathPrefix: String { "/" + rawValue }
}

/// Identifies a project (tenant). Every piece of platform state carries one.
public typealias ProjectID = String
