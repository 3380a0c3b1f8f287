import Foundation

/// One journalled request.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Sequential id, also the request's trace id (`X-Understudy-Trace`).
    public var id: Int
    /// When the request arrived (real time, ISO 8601).
    public var time: String
    /// The project the request was identified as, if any.
    public var projectID: String?
    /// `warplink`, `asleep`, `warrantylife`, `telematics`, `admin`, or `proxy` for what the proxy answered itself.
    public var platform: String
    /// The request method, e.g. `POST`.
    public var method: String
    /// The path as routed, with the platform prefix even for host-routed requests.
    public var path: String
    /// The route pattern that matched, e.g. `/asleep/ai/v1/users/{userId}`; nil when none did.
    public var route: String?
    /// The raw query string, without `?`.
    public var query: String
    /// Status sent; 0 when a fault sent none (reset, hang).
    public var status: Int
    /// Time spent answering, in milliseconds.
    public var durationMs: Double
    /// Request headers with secrets redacted, names lower-cased.
    public var requestHeaders: [String: String]
    /// The request body (decompressed, capped) as text when UTF-8, else `base64:` and the bytes in base64.
    public var requestBody: String?
    /// The decoded request body's size before capping.
    public var requestBodySize: Int
    /// The headers sent back, names lower-cased.
    public var responseHeaders: [String: String]
    /// The response body (capped), encoded like `requestBody`.
    public var responseBody: String?
    /// The response body's size before capping.
    public var responseBodySize: Int
    /// The fault applied, e.g. `rule flt_…: status 503` or `header: reset`; nil when none was.
    public var fault: String?
    /// `proxy` when the request came to the proxy port; nil for the plain and HTTPS ports.
    public var via: String?
    /// The host the client asked the proxy for (a CONNECT target's or an absolute-form URL's host), if any.
    public var proxyHost: String?
    /// Why a request meant for an emulated service matched no project; nil on every other entry.
    public var unmatched: UnmatchedRequest?
    /// The app installation (or user) the request concerns, as its platform names it; nil when it names none.
    public var device: String?

    /// The request body parsed as JSON; nil when there is none or it is not JSON (a form, an upload, a capped body).
    public var requestJSON: AnyJSON? { requestBody.flatMap(Self.parse) }
    /// The response body parsed as JSON; nil when there is none or it is not JSON.
    public var responseJSON: AnyJSON? { responseBody.flatMap(Self.parse) }

    fileprivate static func parse(_ text: String) -> AnyJSON? {
        // Journalled bodies are often not JSON at all; "not JSON" is the answer, not an error.
        try? JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8))
    }
}

/// Why a journalled request matched no project (`JournalEntry.unmatched`).
public struct UnmatchedRequest: Sendable, Codable, Equatable {
    /// `no_credential`, `unknown_credential`, `no_platform`, `host_not_emulated`, `host_not_allowed`
    /// or `proxy_unauthorized` (a string, so a reason a newer server adds still decodes).
    public var reason: String
    /// `unknown_credential`: the platform's name for the credential's kind (`key`, `apiKey`, `developerKey`, …).
    public var credential: String?
    /// `unknown_credential`: the header that carried it, e.g. `Authorization`.
    public var header: String?
    /// `unknown_credential`: the body field that carried it, e.g. `app_id`.
    public var field: String?
    /// `unknown_credential`: the value, redacted to its last 4 characters.
    public var value: String?
    /// The host asked for (`host_not_emulated`, `host_not_allowed`, `proxy_unauthorized`).
    public var host: String?

    /// An account of `reason` with the details that reason has (for comparisons in tests).
    public init(reason: String, credential: String? = nil, header: String? = nil, field: String? = nil, value: String? = nil, host: String? = nil) {
        self.reason = reason
        self.credential = credential
        self.header = header
        self.field = field
        self.value = value
        self.host = host
    }
}
