import Foundation

/// Removes a request body's content coding (gzip, x-gzip, deflate) as the body's pieces arrive,
/// holding at most `limit` decoded bytes: a bomb fails as soon as it inflates past the limit.
///
/// Separate from `HTTPRequestParser`, which only removes transfer framing: decoding is a step of
/// its own between framing and the application.
public struct RequestBodyDecoder {
    private var output = Data()
    private let inflater: GzipInflater?
    private let limit: Int
    private var wireBytes = 0
    /// A gzip body's bytes as they arrived, kept up to `limit` (`takeGzipStream`).
    private var stream: Data?

    /// A decoder for a request with this `Content-Encoding` (nil or `identity` for none);
    /// an unsupported coding is a 415.
    public init(contentEncoding: String?, limit: Int) throws(HTTPRequestError) {
        self.limit = limit
        let coding = contentEncoding?.trimmingASCIIWhitespace().lowercased() ?? ""
        switch coding {
        case "", "identity":
            inflater = nil
        case "gzip", "x-gzip", "deflate":
            do { inflater = try GzipInflater() } catch { throw .corruptContentEncoding }
            if coding != "deflate" { stream = Data() }
        default:
            throw .unsupportedContentEncoding(coding)
        }
    }

    /// A decoder for `request`'s `Content-Encoding`.
    public init(for request: Request, limit: Int) throws(HTTPRequestError) {
        try self.init(contentEncoding: request.headers["content-encoding"], limit: limit)
    }

    /// Body bytes on the wire so far (after transfer decoding, before content decoding).
    public var wireByteCount: Int { wireBytes }

    /// Bytes held so far: the decoded body, and a gzip body's stream as it arrived.
    public var heldByteCount: Int { output.count + (stream?.count ?? 0) }

    /// Decodes the next piece of the body.
    public mutating func append(_ piece: ArraySlice<UInt8>) throws(HTTPRequestError) {
        wireBytes += piece.count
        guard let inflater else {
            if output.count + piece.count > limit { throw .bodyTooLarge(limit: limit) }
            output.append(contentsOf: piece)
            return
        }
        if var kept = stream {
            stream = nil // so that `kept` is the only reference and appends in place
            if kept.count + piece.count <= limit {
                kept.append(contentsOf: piece)
                stream = kept
            }
        }
        let limit = limit
        var failure: Gzip.Failure?
        piece.withUnsafeBytes { raw in
            do throws(Gzip.Failure) { try inflater.inflate(raw, into: &output, limit: limit) } catch { failure = error }
        }
        switch failure {
        case .tooLarge?: throw .bodyTooLarge(limit: limit)
        case .corrupt?: throw .corruptContentEncoding
        case nil: break
        }
    }

    /// The decoded body, once every piece is in; a coded stream cut short is a 400.
    public mutating func finish() throws(HTTPRequestError) -> Data {
        do { try inflater?.finish() } catch { throw .corruptContentEncoding }
        defer { output = Data() }
        return output
    }

    /// A gzip-coded body's bytes as they arrived, once `finish` has checked them (nil for other
    /// codings, and past `limit`): a handler that keeps the body can keep these instead of
    /// compressing the decoded bytes again.
    public mutating func takeGzipStream() -> Data? {
        defer { stream = nil }
        return stream
    }
}
