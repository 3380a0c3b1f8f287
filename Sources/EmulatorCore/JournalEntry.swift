import Foundation

/// One journalled request and its response.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Sequential id (also the request's trace id).
    public var id: Int
    /// When the request arrived (real time, ISO 8601).
    public var time: String
    /// Owning project, when one was identified.
    public var projectID: String?
    /// The platform's name, or `admin` for the control plane.
    public var platform: String
    /// Method.
    public var method: String
    /// Path as routed (with the platform prefix, also for host-routed requests).
    public var path: String
    /// The route pattern that matched, if any.
    public var route: String?
    /// Raw query string.
    public var query: String
    /// Response status.
    public var status: Int
    /// Time spent answering, in milliseconds.
    public var durationMs: Double
    /// Request headers, secrets redacted.
    public var requestHeaders: [String: String]
    /// Request body (decompressed, capped) as text when UTF-8, else base64 with a `base64:` prefix.
    public var requestBody: String?
    /// Decoded request body size before capping.
    public var requestBodySize: Int
    /// Response headers.
    public var responseHeaders: [String: String]
    /// Response body (capped), encoded like `requestBody`.
    public var responseBody: String?
    /// Response body size before capping.
    public var responseBodySize: Int
    /// The fault applied (`rule flt_…: status 503`, `header: reset`), if any.
    public var fault: String?
}
