import Foundation

/// How a request's body is framed on the wire.
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
}

/// Turns the bytes of a request head (request line and header lines, without the final blank
/// line) into a `Request` and its body framing. Pure functions over byte slices.
enum RequestHeadParser {
    /// Parses a complete head.
    static func parse(_ bytes: ArraySlice<UInt8>, remoteAddress: String, receivedAt: UInt64) -> Result<(Request, BodyFraming), HTTPRequestError> {
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

        guard let requestLine = lines.first, let line = parseRequestLine(requestLine) else {
            return .failure(.malformedRequestLine)
        }
        guard let version = line.version else { return .failure(.unsupportedVersion) }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let field = parseField(line) else { return .failure(.malformedHeader) }
            headers.add(field.name, field.value)
        }
        if line.method == .connect {
            // §3.2.3: CONNECT names `host:port` and nothing else; that authority is the host.
            guard line.absolute == nil, ProxyAuthority(authorityForm: line.target) != nil else { return .failure(.invalidTarget) }
            headers.replaceFirst("Host", with: line.target)
        }
        // RFC 9112 §3.2: a 400 for no Host in 1.1, for more than one, and for an invalid one.
        let hosts = headers.values(for: "host")
        if hosts.count > 1 { return .failure(.invalidHost) }
        if let host = hosts.first, !HostSyntax.isValid(host) { return .failure(.invalidHost) }
        if version == .http11 && hosts.isEmpty { return .failure(.missingHost) }
        if line.target == "*" && line.method != .options { return .failure(.invalidTarget) }
        if let absolute = line.absolute {
            // §3.2.3: with an absolute-form target, the URL's authority is the host, not Host.
            guard !absolute.authority.isEmpty, HostSyntax.isValid(absolute.authority) else { return .failure(.invalidTarget) }
            headers.replaceFirst("Host", with: absolute.authority)
        }

        var request = Request(
            method: line.method, target: line.target, version: version, headers: headers, body: Data(),
            remoteAddress: remoteAddress, receivedAt: receivedAt)
        request.absoluteFormScheme = line.absolute?.scheme

        if let expect = headers["expect"], expect.lowercased() != "100-continue" {
            return .failure(.unsupportedExpectation)
        }
        return framing(of: request).map { (request, $0) }
    }

    /// The body framing the headers declare (RFC 9112 §6.3).
    private static func framing(of request: Request) -> Result<BodyFraming, HTTPRequestError> {
        // What follows a CONNECT head is the tunnel's, whatever framing headers it carries.
        if request.method == .connect { return .success(.none) }
        let transferEncodings = request.headers.values(for: "transfer-encoding")
        let lengths = request.headers.values(for: "content-length")
        if !transferEncodings.isEmpty {
            // RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding must be treated as having
            // faulty framing (1.0 intermediaries may not know chunked), even with a Content-Length,
            // and the connection closed after "processing" it. We answer 400 rather than guess at
            // the body, and the connection closes as after every unreadable request.
            if request.version == .http10 { return .failure(.transferEncodingInHTTP10) }
            // Both framings at once is how requests get smuggled; refuse rather than pick one.
            if !lengths.isEmpty { return .failure(.conflictingFraming) }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIIWhitespace().lowercased() }
            guard codings == ["chunked"] else { return .failure(.unsupportedTransferEncoding) }
            return .success(.chunked)
        }
        if !lengths.isEmpty {
            var value: Int?
            for text in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
                let trimmed = text.trimmingASCIIWhitespace()
                guard !trimmed.isEmpty, trimmed.utf8.count <= 18, trimmed.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let parsed = Int(trimmed)
                else { return .failure(.invalidContentLength) }
                if let value, value != parsed { return .failure(.invalidContentLength) }
                value = parsed
            }
            return .success(.length(value ?? 0))
        }
        return .success(.none)
    }

    /// The parts of a request line; `version` is nil for a well-formed but unsupported version.
    struct RequestLine {
        var method: HTTPMethod
        /// Origin form (`/path?query`), `*`, or a CONNECT's authority form (`host:port`); an
        /// absolute-form target is reduced to its path and query.
        var target: String
        var version: HTTPVersion?
        /// The scheme (lower-cased) and authority of an absolute-form target.
        var absolute: (scheme: String, authority: String)?
    }

    /// Parses `METHOD SP target SP HTTP/x.y`.
    ///
    /// Checked on the bytes, before any string is made: splitting into arrays and comparing
    /// lowered `Character` prefixes was a third of parsing a small request's head.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> RequestLine? {
        let space = UInt8(ascii: " ")
        guard let firstSpace = line.firstIndex(of: space), let secondSpace = line[(firstSpace + 1)...].firstIndex(of: space),
            !line[(secondSpace + 1)...].contains(space)
        else { return nil }
        let methodBytes = line[line.startIndex..<firstSpace], targetBytes = line[(firstSpace + 1)..<secondSpace]
        let versionBytes = line[(secondSpace + 1)...]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenByte) else { return nil }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        guard versionBytes.count == 8, versionBytes.starts(with: "HTTP/".utf8) else { return nil }
        let v = versionBytes.startIndex
        let major = versionBytes[v + 5], dot = versionBytes[v + 6], minor = versionBytes[v + 7]
        guard dot == UInt8(ascii: "."), (48...57).contains(major), (48...57).contains(minor) else { return nil }
        let version: HTTPVersion?
        switch (major, minor) {
        case (49, 49): version = .http11
        case (49, 48): version = .http10
        default: version = nil
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        var absolute: (scheme: String, authority: String)?
        // The target is printable ASCII (checked above): its bytes are its characters.
        if let scheme = absoluteFormScheme(targetBytes) {
            // Absolute form (sent to proxies): keep the authority aside, path and query as the target.
            let afterScheme = target.dropFirst(scheme.count + 3)
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            absolute = (scheme, String(afterScheme[..<authorityEnd]))
            let rest = afterScheme[authorityEnd...]
            target = rest.isEmpty ? "/" : rest.hasPrefix("?") ? "/" + rest : String(rest)
        }
        let method = HTTPMethod(String(decoding: methodBytes, as: UTF8.self))
        // Authority form (`host:port`) belongs to CONNECT alone; `parse` checks it names a port.
        let first = targetBytes[targetBytes.startIndex]
        let originOrAsterisk = first == UInt8(ascii: "/") || (targetBytes.count == 1 && first == UInt8(ascii: "*"))
        if absolute == nil && !originOrAsterisk && method != .connect { return nil }
        return RequestLine(method: method, target: target, version: version, absolute: absolute)
    }

    /// `http` or `https` when the target starts with `http://` or `https://` in any letter case.
    private static func absoluteFormScheme(_ target: ArraySlice<UInt8>) -> String? {
        func startsIgnoringCase(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard target.count >= count else { return false }
            var index = target.startIndex
            for offset in 0..<count {
                let byte = target[index]
                if (byte &- 0x41 < 26 ? byte | 0x20 : byte) != prefix.utf8Start[offset] { return false }
                index += 1
            }
            return true
        }
        if startsIgnoringCase("https://") { return "https" }
        if startsIgnoringCase("http://") { return "http" }
        return nil
    }

    /// Parses `name: value` (no obs-fold, no whitespace before the colon, no control bytes).
    static func parseField(_ line: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return nil } // also rejects obs-fold and "Name :"
        var value = line[(colon + 1)...]
        while let first = value.first, first == 32 || first == 9 { value.removeFirst() }
        while let last = value.last, last == 32 || last == 9 { value.removeLast() }
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else { return nil }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// Whether `byte` may appear in an RFC 9110 token.
    static func isTokenByte(_ byte: UInt8) -> Bool {
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
