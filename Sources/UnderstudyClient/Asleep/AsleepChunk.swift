import Foundation

/// One chunk a session received, as the control plane lists it (`GET …/sessions/{id}/chunks`).
public struct AsleepChunk: Sendable, Codable, Equatable {
    /// The chunk's sequence number.
    public var seqNum: Int
    /// The uploaded file's length in bytes; 0 for a seeded chunk.
    public var size: Int
    /// The SHA-256 of the uploaded file, lower-case hex (of the first copy when it was re-sent); nil for a seeded chunk.
    public var sha256: String?
    /// When the first copy arrived (project clock, ISO 8601).
    public var receivedAt: String
    /// Whether the chunk was seeded with the session (`seedSession` with `chunks`) rather than uploaded.
    public var seeded: Bool

    /// A chunk as the server would list it: what a test expects, to compare with `==`.
    public init(seqNum: Int, size: Int, sha256: String?, receivedAt: String, seeded: Bool) {
        self.seqNum = seqNum
        self.size = size
        self.sha256 = sha256
        self.receivedAt = receivedAt
        self.seeded = seeded
    }
}
