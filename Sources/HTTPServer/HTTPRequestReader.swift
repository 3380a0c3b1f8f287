/// Bytes in, whole requests out: the framing parser followed by the body decoder.
///
/// Pure, like its parts. The connection state machine reads requests through one of these; tests
/// and the fuzz target use it to see exactly what an application would receive.
public struct HTTPRequestReader {
    /// The framing parser underneath.
    public private(set) var parser: HTTPRequestParser
    private var request: Request?
    private var decoder: RequestBodyDecoder?

    /// Creates a reader.
    public init(limits: HTTPParserLimits = HTTPParserLimits(), remoteAddress: String = "") {
        parser = HTTPRequestParser(limits: limits, remoteAddress: remoteAddress)
    }

    /// The limits in force.
    public var limits: HTTPParserLimits { parser.limits }

    /// Bytes received but not yet consumed by the parser.
    public var bufferedByteCount: Int { parser.bufferedByteCount }

    /// Decoded body bytes held for the request in progress.
    public var heldBodyByteCount: Int { decoder?.heldByteCount ?? 0 }

    /// Whether a request has begun arriving but is not complete.
    public var isMidRequest: Bool { parser.isMidRequest }

    /// Whether the head of the request in progress is complete and its body is being read.
    public var isReadingBody: Bool { request != nil }

    /// Appends bytes that arrived at `now` (monotonic ns).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, now: UInt64) { parser.feed(bytes, now: now) }

    /// Appends bytes that arrived at `now` (monotonic ns).
    public mutating func feed<C: Collection>(_ bytes: C, now: UInt64) where C.Element == UInt8 { parser.feed(bytes, now: now) }

    /// The next event, or nil when more bytes are needed.
    public mutating func next() -> HTTPParserEvent? {
        while let part = parser.next() {
            switch part {
            case .head(let head):
                do {
                    decoder = try RequestBodyDecoder(for: head, limit: parser.limits.maxBodyBytes)
                    request = head
                } catch {
                    return fail(error, head: head)
                }
            case .body(let piece):
                do { try decoder?.append(piece) } catch { return fail(error, head: request) }
            case .end(let trailers):
                guard var complete = request, var decoder else { continue }
                do { complete.body = try decoder.finish() } catch { return fail(error, head: complete) }
                complete.wireBodySize = decoder.wireByteCount
                complete.gzipStream = decoder.takeGzipStream()
                complete.trailers = trailers
                request = nil
                self.decoder = nil
                return .request(complete)
            case .continueExpected:
                return .continueExpected
            case .failure(let error, let head):
                request = nil
                decoder = nil
                return .failure(error, head: head)
            }
        }
        return nil
    }

    /// Whether a `CONNECT` request was read: nothing more is parsed; the rest is the tunnel's.
    public var isTunnel: Bool { parser.isTunnel }

    /// The bytes not consumed by a request (after a `CONNECT`: the tunnel's first bytes); the
    /// reader yields nothing more.
    public mutating func takeUnconsumedBytes() -> [UInt8] {
        request = nil
        decoder = nil
        return parser.takeUnconsumedBytes()
    }

    /// Gives up on the stream (the caller refused the request for a reason of its own); the
    /// reader yields nothing more.
    public mutating func abandon() {
        parser.abandon()
        request = nil
        decoder = nil
    }

    /// The request whose body is being read, if any.
    public var currentHead: Request? { request }

    private mutating func fail(_ error: HTTPRequestError, head: Request?) -> HTTPParserEvent {
        abandon()
        return .failure(error, head: head)
    }
}
