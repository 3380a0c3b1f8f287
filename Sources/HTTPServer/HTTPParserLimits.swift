/// Limits the parser enforces.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Largest request line plus header block, in bytes (→ 431); trailer sections get the same limit.
    public var maxHeaderBytes: Int
    /// Largest body, before and after content decoding (→ 413).
    public var maxBodyBytes: Int

    /// Creates limits; defaults are 16 KiB of headers and 32 MiB of body.
    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 32 * 1024 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}
