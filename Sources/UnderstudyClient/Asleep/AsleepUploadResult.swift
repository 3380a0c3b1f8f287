import Foundation

/// The result of one 30-s chunk upload.
public struct AsleepUploadResult: Sendable, Codable, Equatable {
    /// The session the chunk was added to.
    public var sessionId: String
    /// The chunk's sequence number, echoed (0 is the first 30 s).
    public var seqNum: Int
    /// Whether the emulated analysis heard snoring in the chunk.
    public var snoringDetected: Bool
    /// Whether the emulated analysis heard breathing in the chunk.
    public var breathDetected: Bool
}
