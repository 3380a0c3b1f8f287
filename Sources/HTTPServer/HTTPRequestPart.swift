/// What the framing parser has to say after being fed bytes: a request arrives as its head, zero
/// or more body pieces (transfer coding removed, content coding untouched) and an end.
public enum HTTPRequestPart: Sendable {
    /// A complete request head; `.body` pieces and one `.end` follow.
    case head(Request)
    /// The next piece of the body, after chunked transfer decoding.
    case body(ArraySlice<UInt8>)
    /// The request is complete; `trailers` holds a chunked body's trailer fields.
    case end(trailers: HTTPHeaders)
    /// The client sent `Expect: 100-continue` and waits for a `100 Continue` before the body.
    case continueExpected
    /// The stream is unusable; answer the status and close. `head` is set when the request head was read.
    case failure(HTTPRequestError, head: Request?)
}

/// What a request reader has to say after being fed bytes: whole requests, body decoded.
public enum HTTPParserEvent: Sendable {
    /// A complete request, its body content-decoded.
    case request(Request)
    /// The client sent `Expect: 100-continue` and waits for a `100 Continue` before the body.
    case continueExpected
    /// The stream is unusable; answer the status and close. `head` is set when the request head was read.
    case failure(HTTPRequestError, head: Request?)
}
