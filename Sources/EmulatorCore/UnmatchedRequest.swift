import Foundation

/// Why a request that was meant for an emulated service matched no project: what a new user gets
/// wrong first (a missing or wrong key, a mistyped path prefix, a host nobody emulates). Recorded
/// as the request is answered, since only then is it known what the request presented and whether
/// any of it named a project; a key made later does not change what happened to this request.
public struct UnmatchedRequest: Sendable, Codable, Equatable {
    /// The reasons, by their names in the journal.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The request carried none of the platform's credentials that name a project, and
        /// nothing else in it named one (`Platform.identifyProjectWithoutCredential`).
        case noCredential = "no_credential"
        /// It carried a credential no project has (`header` or `field` says where, `value` which, redacted).
        case unknownCredential = "unknown_credential"
        /// No platform serves the path (a mistyped or missing prefix such as `/warplnk/…`).
        case noPlatform = "no_platform"
        /// A proxy request (a `CONNECT`, an absolute-form URL) for a host no platform emulates.
        case hostNotEmulated = "host_not_emulated"
        /// The `Host` header names a host this server does not answer to (421).
        case hostNotAllowed = "host_not_allowed"
        /// A proxy request without the proxy password (`--proxy-password`), answered 407.
        case proxyUnauthorized = "proxy_unauthorized"
    }

    /// Why it matched no project.
    public var reason: Reason
    /// `unknown_credential`: the platform's name for the credential's kind (`key`, `apiKey`, `developerKey`, …).
    public var credential: String?
    /// `unknown_credential`: the header that carried it (`Authorization`, `X-API-Key`, …).
    public var header: String?
    /// `unknown_credential`: the body field that carried it (`app_id`, `refresh_token`, …).
    public var field: String?
    /// `unknown_credential`: the value, redacted as the journal redacts secrets (its last 4 characters).
    public var value: String?
    /// `host_not_emulated`, `host_not_allowed`, `proxy_unauthorized`: the host asked for.
    public var host: String?

    /// An account of `reason`, with the details that reason has.
    public init(
        reason: Reason, credential: String? = nil, header: String? = nil, field: String? = nil, value: String? = nil, host: String? = nil
    ) {
        self.reason = reason
        self.credential = credential
        self.header = header
        self.field = field
        self.value = value
        self.host = host
    }

    /// `unknown_credential` for `presented`, its value redacted.
    static func unknown(_ presented: PresentedCredential) -> UnmatchedRequest {
        var header: String?, field: String?
        switch presented.carrier {
        case .header(let name)?: header = name
        case .bodyField(let name)?: field = name
        case nil: break
        }
        return UnmatchedRequest(
            reason: .unknownCredential, credential: presented.kind, header: header, field: field, value: Journal.redact(presented.sent))
    }

    /// The compact JSON the journal's `unmatched` column holds.
    var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings cannot fail; an empty object would still list the entry.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The account stored as `text`; nil for NULL.
    static func stored(_ text: String?) -> UnmatchedRequest? {
        text.flatMap { try? JSONDecoder().decode(UnmatchedRequest.self, from: Data($0.utf8)) }
    }
}
