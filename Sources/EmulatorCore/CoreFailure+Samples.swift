import HTTPServer

extension CoreFailure {
    /// One failure of every kind (and the statuses faults and unreadable requests can carry), for
    /// checking a platform's `errorResponse(for:requestID:)` against its contract: the answer's
    /// status is `failure.status`, which the core does not correct afterwards.
    public static let contractSamples: [CoreFailure] =
        [
            .routeNotFound,
            .methodNotAllowed([.get, .post]),
            .unreadableRequest(.malformedHeader),
            .unreadableRequest(.bodyTooLarge(limit: 1_024)),
            .unreadableRequest(.headersTooLarge),
            .unreadableRequest(.unsupportedExpectation),
            .unreadableRequest(.unsupportedContentEncoding("br")),
            .unreadableRequest(.corruptContentEncoding),
            .unreadableRequest(.headerTimeout),
            .unreadableRequest(.serverBusy),
            .invalidBody(BodyError(code: "invalid_json", message: "Not JSON.")),
            .internalError("a sample"),
            .storageUnavailable,
            .storedStateUnreadable(project: "sample", detail: "a clock beyond its range"),
            .misdirectedRequest(host: "attacker.example"),
            .constraintViolation(unique: true),
            .constraintViolation(unique: false),
        ] + [400, 401, 403, 404, 408, 409, 410, 418, 422, 429, 500, 502, 503, 504].map { CoreFailure.injected(status: $0) }

    /// The request id the samples are answered for: what an error body or header that carries the
    /// journal id shows in a documented example.
    /// It is `0`, which no request is given (journal ids start at 1): a real id in an example would
    /// read as that request's, and the replay harness, which numbers journal ids by first
    /// appearance, would pair it with whichever request happened to get it in a run.
    public static let sampleRequestID = "0"

    /// The bodies `platform` answers the samples with, by status: what a documented error example
    /// may be besides the platform's own catalogue.
    public static func contractBodies(of platform: any Platform) -> [Int: [JSONValue]] {
        var bodies: [Int: [JSONValue]] = [:]
        for failure in contractSamples {
            let response = platform.errorResponse(for: failure, requestID: sampleRequestID)
            if let body = try? JSONValue.parse(response.body) { bodies[response.status, default: []].append(body) }
        }
        return bodies
    }

    /// How `platform` breaks that contract: each sample it answers with another status than the
    /// failure's, or with no body; empty when it keeps it.
    public static func contractViolations(of platform: any Platform) -> [String] {
        contractSamples.compactMap { failure in
            let response = platform.errorResponse(for: failure, requestID: sampleRequestID)
            if response.status != failure.status { return "\(failure) answered \(response.status)" }
            return response.body.isEmpty ? "\(failure) answered no body" : nil
        }
    }
}
