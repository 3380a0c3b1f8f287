import Foundation

/// An incremental HTTP/1.1 request framing parser: feed bytes in any split, take parts out.
///
/// A pure value type with no I/O and no clock (the caller says when bytes arrived), so every
/// framing rule is tested without sockets. It removes the chunked transfer coding but leaves
/// content codings to `RequestBodyDecoder`. After a `.failure` the parser yields nothing more:
/// the connection must close. After a `CONNECT` request it yields nothing more either: what
/// follows is the tunnel's, kept for `takeUnconsumedBytes()`.
public struct HTTPRequestParser: Sendable {
    private enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        /// The request is complete; `.end` is next.
        case complete
        /// A CONNECT was read: the bytes after it are not HTTP to this parser.
        case tunnel
        case failed
    }

    /// The limits in force.
    public let limits: HTTPParserLimits
    /// Longest chunk-size line (size and extensions, without CRLF).
    static let maxChunkLineBytes = 1024
    /// The peer address stamped on each request.
    public var remoteAddress: String

    private var buffer: [UInt8] = []
    private var start = 0 // first unconsumed byte in `buffer`
    private var scanFrom = 0 // where the search for the end of the head resumes
    private var state: State = .head
    private var head: Request? // the request whose body is being read, for failures
    private var bodyByteCount = 0
    private var trailers = HTTPHeaders()
    private var trailerByteCount = 0 // trailer lines so far, with their CRLFs
    private var continueChecked = true
    private var headStartedAt: UInt64?
    private var lastFeedAt: UInt64 = 0

    /// Creates a parser.
    public init(limits: HTTPParserLimits = HTTPParserLimits(), remoteAddress: String = "") {
        self.limits = limits
        self.remoteAddress = remoteAddress
    }

    /// Bytes received but not yet consumed.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether a request has begun arriving (some bytes of it buffered) but is not complete.
    public var isMidRequest: Bool {
        switch state {
        case .head: return buffer[start...].contains { $0 != 13 && $0 != 10 }
        case .failed, .tunnel: return false
        default: return true
        }
    }

    /// Whether the head of the current request is complete (the body may still be arriving).
    public var isReadingBody: Bool {
        switch state {
        case .head, .failed, .tunnel: return false
        default: return true
        }
    }

    /// Whether a `CONNECT` request was read, so the parser yields nothing more.
    public var isTunnel: Bool {
        if case .tunnel = state { return true }
        return false
    }

    /// Whether the parser has failed and yields nothing more.
    public var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Appends bytes that arrived at `now` (monotonic ns, stamped on requests as `receivedAt`).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, now: UInt64) {
        if case .failed = state { return }
        compactIfWorthIt()
        if headStartedAt == nil { headStartedAt = now }
        lastFeedAt = now
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes that arrived at `now` (monotonic ns, stamped on requests as `receivedAt`).
    public mutating func feed<C: Collection>(_ bytes: C, now: UInt64) where C.Element == UInt8 {
        if case .failed = state { return }
        compactIfWorthIt()
        if headStartedAt == nil { headStartedAt = now }
        lastFeedAt = now
        buffer.append(contentsOf: bytes)
    }

    /// The next part, or nil when more bytes are needed.
    public mutating func next() -> HTTPRequestPart? {
        while true {
            switch state {
            case .failed, .tunnel:
                return nil

            case .head:
                // Tolerate empty lines between pipelined requests (RFC 9112 §2.2).
                while start + 1 < buffer.count, buffer[start] == 13, buffer[start + 1] == 10 { start += 2; scanFrom = max(scanFrom, start) }
                guard let end = findHeadEnd() else {
                    // Judge the head by its known length, not by what is buffered: the buffer may
                    // end with the first bytes of the blank line, which are not part of the head.
                    if buffer.count - start - partialHeadTerminatorLength() > limits.maxHeaderBytes {
                        return fail(.headersTooLarge, head: requestLineOnly())
                    }
                    return nil
                }
                if end - start > limits.maxHeaderBytes { return fail(.headersTooLarge, head: requestLineOnly()) }
                let headBytes = buffer[start..<end]
                start = end + 4
                scanFrom = start
                switch RequestHeadParser.parse(headBytes, remoteAddress: remoteAddress, receivedAt: headStartedAt ?? lastFeedAt) {
                case .failure(let error):
                    return fail(error, head: nil)
                case .success(let (request, framing)):
                    bodyByteCount = 0
                    trailers = HTTPHeaders()
                    trailerByteCount = 0
                    continueChecked = false
                    head = request
                    switch framing {
                    case .none:
                        state = .complete
                    case .length(let length):
                        if length > limits.maxBodyBytes { return fail(.bodyTooLarge(limit: limits.maxBodyBytes), head: request) }
                        state = length == 0 ? .complete : .fixedBody(remaining: length)
                    case .chunked:
                        state = .chunkSize
                    }
                    return .head(request)
                }

            case .fixedBody(let remaining):
                if let event = continueIfExpected() { return event }
                let available = buffer.count - start
                if available == 0 { return nil }
                let take = min(available, remaining)
                let piece = buffer[start..<start + take]
                start += take
                bodyByteCount += take
                state = take == remaining ? .complete : .fixedBody(remaining: remaining - take)
                return .body(piece)

            case .chunkSize:
                if let event = continueIfExpected() { return event }
                guard let lineEnd = findLineEnd() else {
                    if unterminatedLength() > Self.maxChunkLineBytes { return fail(.malformedChunk, head: head) }
                    return nil
                }
                if lineEnd - start > Self.maxChunkLineBytes { return fail(.malformedChunk, head: head) }
                let line = buffer[start..<lineEnd]
                consumeLine(endingAt: lineEnd)
                guard let size = ChunkLine.parseSize(line) else { return fail(.malformedChunk, head: head) }
                if size == 0 {
                    state = .trailers
                } else {
                    if bodyByteCount + size > limits.maxBodyBytes { return fail(.bodyTooLarge(limit: limits.maxBodyBytes), head: head) }
                    state = .chunkData(remaining: size)
                }

            case .chunkData(let remaining):
                let available = buffer.count - start
                if available == 0 { return nil }
                let take = min(available, remaining)
                let piece = buffer[start..<start + take]
                start += take
                bodyByteCount += take
                state = take == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - take)
                return .body(piece)

            case .chunkDataEnd:
                guard buffer.count - start >= 2 else { return nil }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { return fail(.malformedChunk, head: head) }
                start += 2
                state = .chunkSize

            case .trailers:
                // The trailer section gets the header block's limit; each field is parsed once,
                // into a list of its own, so N fields cost O(N).
                guard let lineEnd = findLineEnd() else {
                    if trailerByteCount + unterminatedLength() > limits.maxHeaderBytes { return fail(.headersTooLarge, head: head) }
                    return nil
                }
                if lineEnd == start {
                    consumeLine(endingAt: lineEnd)
                    state = .complete
                    continue
                }
                trailerByteCount += lineEnd - start + 2
                if trailerByteCount > limits.maxHeaderBytes { return fail(.headersTooLarge, head: head) }
                guard let field = RequestHeadParser.parseField(buffer[start..<lineEnd]) else { return fail(.malformedChunk, head: head) }
                consumeLine(endingAt: lineEnd)
                trailers.add(field.name, field.value)

            case .complete:
                state = head?.method == .connect ? .tunnel : .head
                head = nil
                headStartedAt = buffer.count > start ? lastFeedAt : nil
                defer { trailers = HTTPHeaders() }
                return .end(trailers: trailers)
            }
        }
    }

    /// When the head of the request in progress began arriving (monotonic ns), for the header timeout.
    public var currentRequestStartedAt: UInt64? { headStartedAt }

    // MARK: - Steps

    /// `.continueExpected` once per request, when it asked for it and none of its body has arrived.
    private mutating func continueIfExpected() -> HTTPRequestPart? {
        guard !continueChecked else { return nil }
        continueChecked = true
        guard let head, head.version == .http11,
            let expect = head.headers["expect"], expect.lowercased() == "100-continue",
            buffer.count == start
        else { return nil }
        return .continueExpected
    }

    private mutating func fail(_ error: HTTPRequestError, head: Request?) -> HTTPRequestPart {
        abandon()
        return .failure(error, head: head)
    }

    /// Hands over the bytes not consumed yet (after a `CONNECT` head: what the client sent before
    /// our answer, such as its TLS ClientHello) and stops parsing for good.
    public mutating func takeUnconsumedBytes() -> [UInt8] {
        let rest = Array(buffer[start...])
        abandon()
        return rest
    }

    /// Stops parsing for good (the caller refused the request): drops what is buffered, yields nothing more.
    public mutating func abandon() {
        state = .failed
        buffer = []
        start = 0
        scanFrom = 0
        head = nil
    }

    private mutating func compactIfWorthIt() {
        if start > 0 && (start == buffer.count || start > 64 * 1024) {
            buffer.removeSubrange(0..<start)
            scanFrom -= start
            start = 0
            if scanFrom < 0 { scanFrom = 0 }
        }
    }

    private mutating func findHeadEnd() -> Int? {
        var index = max(scanFrom, start)
        let end = buffer.count
        while index + 3 < end {
            if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        scanFrom = max(start, end - 3)
        return nil
    }

    /// The index of the CR ending the line at `start`, resuming where the last search stopped so
    /// a line arriving byte by byte is scanned once.
    private mutating func findLineEnd() -> Int? {
        var index = max(scanFrom, start)
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        scanFrom = max(start, buffer.count - 1)
        return nil
    }

    private mutating func consumeLine(endingAt lineEnd: Int) {
        start = lineEnd + 2
        scanFrom = start
    }

    /// How many bytes at the end of the buffer could be the start of the head's final CRLF CRLF.
    private func partialHeadTerminatorLength() -> Int {
        let terminator: [UInt8] = [13, 10, 13]
        for length in stride(from: min(3, buffer.count - start), to: 0, by: -1)
        where buffer[(buffer.count - length)...].elementsEqual(terminator[0..<length]) {
            return length
        }
        return 0
    }

    /// How long the unterminated line at `start` is known to be: what is buffered, less a final
    /// CR that may be the start of its CRLF (so the answer does not depend on how bytes are split).
    private func unterminatedLength() -> Int {
        let count = buffer.count - start
        return count > 0 && buffer[buffer.count - 1] == 13 ? count - 1 : count
    }

    private func findCRLF(from position: Int) -> Int? {
        var index = position
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// A head with only the request line, when that much arrived intact: lets a 431 be answered
    /// in the format of the platform its path names, although the headers were never read.
    private func requestLineOnly() -> Request? {
        // Only a request line that ends within the head limit: however the bytes are split, its
        // CRLF has then arrived by the time the limit is passed, so the answer does not depend on TCP.
        guard let lineEnd = findCRLF(from: start), lineEnd + 2 - start <= limits.maxHeaderBytes,
            let line = RequestHeadParser.parseRequestLine(buffer[start..<lineEnd]), let version = line.version
        else { return nil }
        return Request(
            method: line.method, target: line.target, version: version, headers: HTTPHeaders(), body: Data(),
            remoteAddress: remoteAddress, receivedAt: headStartedAt ?? lastFeedAt)
    }
}
