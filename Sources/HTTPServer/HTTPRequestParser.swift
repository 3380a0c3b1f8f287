import Foundation

/// Limits the parser enforces.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Largest request line plus header block, in bytes (→ 431).
    public var maxHeaderBytes: Int
    /// Largest body, before and after content decoding (→ 413).
    public var maxBodyBytes: Int

    /// Creates limits; defaults are 16 KiB of headers and 32 MiB of body.
    public init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 32 * 1024 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

/// What the parser has to say after being fed bytes.
public enum HTTPParserEvent: Sendable {
    /// A complete request.
    case request(Request)
    /// The client sent `Expect: 100-continue` and waits for a `100 Continue` before the body.
    case continueExpected
    /// The stream is unusable; answer the status and close. `head` is set when the request head was read.
    case failure(HTTPRequestError, head: Request?)
}

/// An incremental HTTP/1.1 request parser: feed bytes in any split, take events out.
///
/// A pure value type with no I/O, so every framing rule is tested without sockets. After a
/// `.failure` the parser yields nothing more: the connection must close.
public struct HTTPRequestParser: Sendable {
    private enum State: Sendable {
        case head
        case fixedBody(Request, remaining: Int)
        case chunkSize(Request)
        case chunkData(Request, remaining: Int)
        case chunkDataEnd(Request)
        case trailers(Request)
        case failed
    }

    /// The limits in force.
    public let limits: HTTPParserLimits
    /// The peer address stamped on each request.
    public var remoteAddress: String

    private var buffer: [UInt8] = []
    private var start = 0 // first unconsumed byte in `buffer`
    private var scanFrom = 0 // where the search for the end of the head resumes
    private var state: State = .head
    private var body: [UInt8] = []
    private var continueSent = false
    private var headStartedAt: UInt64?

    /// Creates a parser.
    public init(limits: HTTPParserLimits = HTTPParserLimits(), remoteAddress: String = "") {
        self.limits = limits
        self.remoteAddress = remoteAddress
    }

    /// Bytes received but not yet consumed by a complete request.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether a request has begun arriving (some bytes of it buffered) but is not complete.
    public var isMidRequest: Bool {
        if case .head = state { return buffer[start...].contains { $0 != 13 && $0 != 10 } }
        if case .failed = state { return false }
        return true
    }

    /// Whether the head of the current request is complete (the body may still be arriving).
    public var isReadingBody: Bool {
        switch state {
        case .head, .failed: return false
        default: return true
        }
    }

    /// Appends received bytes.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if case .failed = state { return }
        compactIfWorthIt()
        if headStartedAt == nil { headStartedAt = MonotonicClock.nanoseconds() }
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func feed<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if case .failed = state { return }
        compactIfWorthIt()
        if headStartedAt == nil { headStartedAt = MonotonicClock.nanoseconds() }
        buffer.append(contentsOf: bytes)
    }

    /// The next event, or nil when more bytes are needed.
    public mutating func next() -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed:
                return nil

            case .head:
                // Tolerate empty lines between pipelined requests (RFC 9112 §2.2).
                while start + 1 < buffer.count, buffer[start] == 13, buffer[start + 1] == 10 { start += 2; scanFrom = max(scanFrom, start) }
                guard let end = findHeadEnd() else {
                    if buffer.count - start > limits.maxHeaderBytes { return fail(.headersTooLarge, head: requestLineOnly()) }
                    return nil
                }
                if end - start > limits.maxHeaderBytes { return fail(.headersTooLarge, head: requestLineOnly()) }
                let headBytes = buffer[start..<end]
                start = end + 4
                scanFrom = start
                let parsed = parseHead(headBytes)
                switch parsed {
                case .failure(let error):
                    return fail(error, head: nil)
                case .success(let (request, framing)):
                    continueSent = false
                    body.removeAll(keepingCapacity: true)
                    switch framing {
                    case .none:
                        return finish(request)
                    case .length(let length):
                        if length > limits.maxBodyBytes { return fail(.bodyTooLarge(limit: limits.maxBodyBytes), head: request) }
                        if length == 0 { return finish(request) }
                        state = .fixedBody(request, remaining: length)
                        if let event = continueIfExpected(request) { return event }
                    case .chunked:
                        state = .chunkSize(request)
                        if let event = continueIfExpected(request) { return event }
                    }
                }

            case .fixedBody(let request, let remaining):
                let available = buffer.count - start
                if available == 0 { return nil }
                let take = min(available, remaining)
                body.append(contentsOf: buffer[start..<start + take])
                start += take
                if take == remaining { return finish(request) }
                state = .fixedBody(request, remaining: remaining - take)
                return nil

            case .chunkSize(let request):
                guard let lineEnd = findCRLF(from: start) else {
                    if buffer.count - start > 1024 { return fail(.malformedChunk, head: request) }
                    return nil
                }
                let line = buffer[start..<lineEnd]
                start = lineEnd + 2
                guard let size = Self.parseChunkSize(line) else { return fail(.malformedChunk, head: request) }
                if size == 0 {
                    state = .trailers(request)
                } else {
                    if body.count + size > limits.maxBodyBytes { return fail(.bodyTooLarge(limit: limits.maxBodyBytes), head: request) }
                    state = .chunkData(request, remaining: size)
                }

            case .chunkData(let request, let remaining):
                let available = buffer.count - start
                if available == 0 { return nil }
                let take = min(available, remaining)
                body.append(contentsOf: buffer[start..<start + take])
                start += take
                state = take == remaining ? .chunkDataEnd(request) : .chunkData(request, remaining: remaining - take)
                if take < remaining { return nil }

            case .chunkDataEnd(let request):
                guard buffer.count - start >= 2 else { return nil }
                guard buffer[start] == 13, buffer[start + 1] == 10 else { return fail(.malformedChunk, head: request) }
                start += 2
                state = .chunkSize(request)

            case .trailers(var request):
                guard let lineEnd = findCRLF(from: start) else {
                    if buffer.count - start > limits.maxHeaderBytes { return fail(.headersTooLarge, head: request) }
                    return nil
                }
                if lineEnd == start {
                    start += 2
                    return finish(request)
                }
                guard let field = Self.parseField(buffer[start..<lineEnd]) else { return fail(.malformedChunk, head: request) }
                start = lineEnd + 2
                request.trailers.add(field.name, field.value)
                state = .trailers(request)
            }
        }
    }

    /// When the head of the request in progress began arriving (monotonic ns), for the header timeout.
    public var currentRequestStartedAt: UInt64? { headStartedAt }

    // MARK: - Steps

    private enum Framing { case none, length(Int), chunked }

    private mutating func continueIfExpected(_ request: Request) -> HTTPParserEvent? {
        guard !continueSent, request.version == .http11,
              let expect = request.headers["expect"], expect.lowercased() == "100-continue",
              buffer.count == start else { return nil }
        continueSent = true
        return .continueExpected
    }

    private mutating func finish(_ head: Request) -> HTTPParserEvent {
        var request = head
        request.wireBodySize = body.count
        if let coding = request.headers["content-encoding"]?.trimmingASCIIWhitespace().lowercased(), !coding.isEmpty, coding != "identity" {
            guard coding == "gzip" || coding == "x-gzip" || coding == "deflate" else {
                return fail(.unsupportedContentEncoding(coding), head: request)
            }
            if body.isEmpty {
                request.body = Data()
            } else {
                do {
                    request.body = try Gzip.decompress(Data(body), limit: limits.maxBodyBytes)
                } catch .tooLarge {
                    return fail(.bodyTooLarge(limit: limits.maxBodyBytes), head: request)
                } catch {
                    return fail(.corruptContentEncoding, head: request)
                }
            }
        } else {
            request.body = Data(body)
        }
        body.removeAll(keepingCapacity: body.capacity <= 64 * 1024)
        state = .head
        headStartedAt = buffer.count > start ? MonotonicClock.nanoseconds() : nil
        return .request(request)
    }

    private mutating func fail(_ error: HTTPRequestError, head: Request?) -> HTTPParserEvent {
        state = .failed
        buffer = []
        start = 0
        return .failure(error, head: head)
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
        guard let lineEnd = findCRLF(from: start), lineEnd - start <= 8192,
              let (method, target, version) = Self.parseRequestLine(buffer[start..<lineEnd]), let version else { return nil }
        var request = Request(method: method, target: target, version: version, remoteAddress: remoteAddress)
        request.receivedAt = headStartedAt ?? MonotonicClock.nanoseconds()
        return request
    }

    // MARK: - Head

    private func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<(Request, Framing), HTTPRequestError> {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13 {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 10 else { return .failure(lines.isEmpty ? .malformedRequestLine : .malformedHeader) }
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            } else if bytes[index] == 10 {
                return .failure(lines.isEmpty ? .malformedRequestLine : .malformedHeader) // bare LF
            } else {
                index += 1
            }
        }
        lines.append(bytes[lineStart..<bytes.endIndex])

        guard let requestLine = lines.first, let (method, target, version) = Self.parseRequestLine(requestLine) else {
            return .failure(.malformedRequestLine)
        }
        guard let version else { return .failure(.unsupportedVersion) }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let field = Self.parseField(line) else { return .failure(.malformedHeader) }
            headers.add(field.name, field.value)
        }
        if version == .http11 && !headers.contains("host") { return .failure(.missingHost) }

        var request = Request(method: method, target: target, version: version, headers: headers, remoteAddress: remoteAddress)
        request.receivedAt = headStartedAt ?? MonotonicClock.nanoseconds()

        if let expect = headers["expect"], expect.lowercased() != "100-continue" {
            return .failure(.unsupportedExpectation)
        }
        let transferEncodings = headers.values(for: "transfer-encoding")
        let lengths = headers.values(for: "content-length")
        if !transferEncodings.isEmpty {
            // Both framings at once is how requests get smuggled; refuse rather than pick one.
            if !lengths.isEmpty { return .failure(.conflictingFraming) }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIIWhitespace().lowercased() }
            guard codings == ["chunked"] else { return .failure(.unsupportedTransferEncoding) }
            return .success((request, .chunked))
        }
        if !lengths.isEmpty {
            var value: Int?
            for text in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
                let trimmed = text.trimmingASCIIWhitespace()
                guard !trimmed.isEmpty, trimmed.utf8.count <= 18, trimmed.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                      let parsed = Int(trimmed) else { return .failure(.invalidContentLength) }
                if let value, value != parsed { return .failure(.invalidContentLength) }
                value = parsed
            }
            return .success((request, .length(value ?? 0)))
        }
        return .success((request, .none))
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) -> (HTTPMethod, String, HTTPVersion?)? {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenByte) else { return nil }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        guard versionBytes.count == 8, versionBytes.starts(with: Array("HTTP/".utf8)) else { return nil }
        let digits = Array(versionBytes.suffix(3))
        guard digits[1] == UInt8(ascii: "."), (48...57).contains(digits[0]), (48...57).contains(digits[2]) else { return nil }
        let version: HTTPVersion?
        switch (digits[0], digits[2]) {
        case (49, 49): version = .http11
        case (49, 48): version = .http10
        default: version = nil
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            // Absolute form (sent to proxies): keep only path and query.
            let afterScheme = target.dropFirst(target.hasPrefix("https://") ? 8 : 7)
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                let rest = afterScheme[slash...]
                target = rest.hasPrefix("?") ? "/" + rest : String(rest)
            } else {
                target = "/"
            }
        } else if !(target.hasPrefix("/") || target == "*") {
            return nil
        }
        return (HTTPMethod(String(decoding: methodBytes, as: UTF8.self)), target, version)
    }

    private static func parseField(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return nil } // also rejects obs-fold and "Name :"
        var value = line[(colon + 1)...]
        while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
        while let last = value.last, last == 32 || last == 9 { value.removeLast() }
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return nil }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    private static func parseChunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var digits = line
        if let semicolon = line.firstIndex(of: UInt8(ascii: ";")) { digits = line[line.startIndex..<semicolon] }
        while let last = digits.last, last == 32 || last == 9 { digits.removeLast() }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var size = 0
        for byte in digits {
            guard let value = URLQuery.hexValue(byte) else { return nil }
            size = size << 4 | Int(value)
        }
        return size
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
