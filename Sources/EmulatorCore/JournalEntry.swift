import Foundation
import HTTPServer

/// One journalled request and its response.
public struct JournalEntry: Sendable, Codable, Equatable {
    /// Sequential id (also the request's trace id).
    public var id: Int
    /// When the request arrived (real time, ISO 8601).
    public var time: String
    /// Owning project, when one was identified.
    public var projectID: String?
    /// The platform's name, `admin` for the control plane, or `proxy` for what the proxy answered
    /// itself (a CONNECT, a request forwarded to a host nobody emulates).
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
    /// `proxy` when the request arrived on the proxy port (through a tunnel, in absolute form, or
    /// sent there directly); nil for the plain and TLS ports.
    public var via: String? = nil
    /// The host the client asked the proxy for: the CONNECT target's host (also for every request
    /// inside that tunnel) or an absolute-form URL's host; nil otherwise.
    public var proxyHost: String? = nil
    /// Why a request meant for an emulated service matched no project (a missing or unknown
    /// credential, a path no platform serves, a host nobody emulates); nil for the rest.
    public var unmatched: UnmatchedRequest? = nil
    /// The app installation (or user) the request concerns, as its platform's checks named it
    /// (`SERIAL:SN-0001`, a device id); absent when it names none.
    public var device: String? = nil
}

extension Request {
    /// `proxy` for requests that arrived on the proxy port, for the journal.
    var journalVia: String? { connection.viaProxy ? "proxy" : nil }

    /// The host this request asked the proxy for, for the journal.
    var journalProxyHost: String? {
        guard connection.viaProxy else { return nil }
        if let tunnel = connection.tunnelAuthority { return ProxyAuthority(authorityForm: tunnel)?.host ?? tunnel }
        if let authority = connectAuthority { return authority.host }
        return absoluteFormScheme != nil ? hostName : nil
    }
}
