/// Why a request could not be read; each maps to the status the server answers before closing.
public enum HTTPRequestError: Error, Equatable, Sendable {
    /// The first line is not `METHOD target HTTP/x.y` or ends in a bare LF (400).
    case malformedRequestLine
    /// A well-formed request line naming an HTTP version other than 1.0 or 1.1 (505).
    case unsupportedVersion
    /// A header line that is not `name: value`, or ends in a bare LF (400).
    case malformedHeader
    /// The header block, or a chunked body's trailers, exceed the configured header size (431).
    case headersTooLarge
    /// An HTTP/1.1 request with no Host header (400).
    case missingHost
    /// More than one Host header, or one that is not `host[:port]`.
    case invalidHost
    /// A request target that is not valid for the method (`GET *`, an absolute URL without a host).
    case invalidTarget
    /// A Content-Length that is not a plain decimal number, or several that disagree (400).
    case invalidContentLength
    /// Both Content-Length and Transfer-Encoding, refused because it is how requests get smuggled (400).
    case conflictingFraming
    /// An HTTP/1.0 request with `Transfer-Encoding` (RFC 9112 §6.1: its framing is faulty).
    case transferEncodingInHTTP10
    /// A Transfer-Encoding other than exactly `chunked` (501).
    case unsupportedTransferEncoding
    /// A chunked body with a bad size line, a missing CRLF after a chunk, or a bad trailer (400).
    case malformedChunk
    /// A body, declared or decoded, longer than `limit` bytes (413).
    case bodyTooLarge(limit: Int)
    /// An `Expect` header other than `100-continue` (417).
    case unsupportedExpectation
    /// A request Content-Encoding other than gzip, deflate or identity; carries the coding (415).
    case unsupportedContentEncoding(String)
    /// A gzip or deflate body that does not decompress (400).
    case corruptContentEncoding
    /// The request headers did not all arrive within the header timeout (408).
    case headerTimeout
    /// The server holds as many request bodies as its memory budget allows; retry shortly.
    case serverBusy

    /// The status code the server answers with.
    public var status: Int {
        switch self {
        case .headersTooLarge: return 431
        case .bodyTooLarge: return 413
        case .unsupportedVersion: return 505
        case .unsupportedTransferEncoding: return 501
        case .unsupportedExpectation: return 417
        case .unsupportedContentEncoding: return 415
        case .headerTimeout: return 408
        case .serverBusy: return 503
        default: return 400
        }
    }

    /// Seconds a client should wait before retrying (sent as `Retry-After`), for errors that pass.
    public var retryAfterSeconds: Int? {
        self == .serverBusy ? 1 : nil
    }

    /// A short machine-readable code.
    public var code: String {
        switch self {
        case .malformedRequestLine: return "malformed_request_line"
        case .unsupportedVersion: return "unsupported_http_version"
        case .malformedHeader: return "malformed_header"
        case .headersTooLarge: return "headers_too_large"
        case .missingHost: return "missing_host"
        case .invalidHost: return "invalid_host"
        case .invalidTarget: return "invalid_target"
        case .invalidContentLength: return "invalid_content_length"
        case .conflictingFraming: return "conflicting_framing"
        case .transferEncodingInHTTP10: return "transfer_encoding_in_http10"
        case .unsupportedTransferEncoding: return "unsupported_transfer_encoding"
        case .malformedChunk: return "malformed_chunk"
        case .bodyTooLarge: return "body_too_large"
        case .unsupportedExpectation: return "unsupported_expectation"
        case .unsupportedContentEncoding: return "unsupported_content_encoding"
        case .corruptContentEncoding: return "corrupt_content_encoding"
        case .headerTimeout: return "header_timeout"
        case .serverBusy: return "server_busy"
        }
    }

    /// A sentence for humans reading the error body or the log.
    public var message: String {
        switch self {
        case .malformedRequestLine: return "The request line is not `METHOD target HTTP/1.x`."
        case .unsupportedVersion: return "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .malformedHeader: return "A header line is malformed."
        case .headersTooLarge: return "The request header block is larger than allowed."
        case .missingHost: return "HTTP/1.1 requests must carry a Host header."
        case .invalidHost: return "The request must carry one Host header, of the form host[:port]."
        case .invalidTarget: return "The request target is not valid for this method."
        case .invalidContentLength: return "Content-Length is not a valid number."
        case .conflictingFraming: return "The request has conflicting Content-Length/Transfer-Encoding headers."
        case .transferEncodingInHTTP10: return "HTTP/1.0 requests cannot use Transfer-Encoding."
        case .unsupportedTransferEncoding: return "Only the chunked transfer coding is supported."
        case .malformedChunk: return "The chunked body is malformed."
        case .bodyTooLarge(let limit): return "The request body is larger than the limit of \(limit) bytes."
        case .unsupportedExpectation: return "Only `Expect: 100-continue` is supported."
        case .unsupportedContentEncoding(let coding): return "Content-Encoding `\(coding)` is not supported (use gzip, deflate or identity)."
        case .corruptContentEncoding: return "The request body is not valid for its Content-Encoding."
        case .headerTimeout: return "The request headers did not arrive in time."
        case .serverBusy: return "The server is holding as many request bodies as it can; retry shortly."
        }
    }
}
