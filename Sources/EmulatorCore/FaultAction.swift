import Foundation

/// What happens to a request a fault rule matches. On the wire it is
/// `{"type": "status", "status": 503, "body": …, "delayMs": …, "bytes": …, "retryAfter": …}`.
public struct FaultAction: Sendable, Equatable, Codable {
    /// The kinds of failure a rule can inject.
    public enum Kind: Sendable, Equatable {
        /// Answer `status` without running the handler, with `body` or the platform's own error body.
        case status(Int, body: JSONValue?)
        /// Wait this long, then answer normally.
        case delay(milliseconds: Int)
        /// Hold the connection, write nothing, for at most this long.
        case hang(milliseconds: Int)
        /// Reset the connection (TCP RST) without answering.
        case reset
        /// Run the handler, write the head only, then close.
        case closeAfterHeaders
        /// Run the handler, write the head and this many body bytes (default half), then close.
        case truncate(bytes: Int?)
        /// Run the handler, then cut its JSON body mid-value.
        case malformedJSON

        /// The wire name (`status`, `delay`, …).
        public var name: String {
            switch self {
            case .status: return "status"
            case .delay: return "delay"
            case .hang: return "hang"
            case .reset: return "reset"
            case .closeAfterHeaders: return "closeAfterHeaders"
            case .truncate: return "truncate"
            case .malformedJSON: return "malformedJSON"
            }
        }

        /// Whether the handler is skipped (the fault replaces the response, so no state changes).
        public var replacesResponse: Bool {
            switch self {
            case .status, .hang, .reset: return true
            case .delay, .closeAfterHeaders, .truncate, .malformedJSON: return false
            }
        }
    }

    /// The wire names understood.
    public static let names = ["status", "delay", "hang", "reset", "closeAfterHeaders", "truncate", "malformedJSON"]
    /// The default hang when a rule gives none.
    public static let defaultHangMilliseconds = 30_000

    /// The failure.
    public var kind: Kind
    /// Adds `Retry-After` with this many seconds to whatever answer goes out.
    public var retryAfter: Int?

    /// An action of `kind`.
    public init(_ kind: Kind, retryAfter: Int? = nil) {
        self.kind = kind
        self.retryAfter = retryAfter
    }

    private enum CodingKeys: String, CodingKey { case type, status, body, delayMs, retryAfter, bytes }

    /// Decodes the wire form; an unknown `type` is a decoding error naming the known ones.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        retryAfter = try container.decodeIfPresent(Int.self, forKey: .retryAfter)
        let delay = try container.decodeIfPresent(Int.self, forKey: .delayMs)
        switch type {
        case "status": kind = .status(try container.decodeIfPresent(Int.self, forKey: .status) ?? 500, body: try container.decodeIfPresent(JSONValue.self, forKey: .body))
        case "delay": kind = .delay(milliseconds: delay ?? 0)
        case "hang": kind = .hang(milliseconds: delay ?? Self.defaultHangMilliseconds)
        case "reset": kind = .reset
        case "closeAfterHeaders": kind = .closeAfterHeaders
        case "truncate": kind = .truncate(bytes: try container.decodeIfPresent(Int.self, forKey: .bytes))
        case "malformedJSON": kind = .malformedJSON
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "must be one of \(Self.names.joined(separator: ", ")); got `\(type)`")
        }
    }

    /// Encodes the wire form.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.name, forKey: .type)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        switch kind {
        case .status(let status, let body):
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(body, forKey: .body)
        case .delay(let milliseconds), .hang(let milliseconds):
            try container.encode(milliseconds, forKey: .delayMs)
        case .truncate(let bytes):
            try container.encodeIfPresent(bytes, forKey: .bytes)
        case .reset, .closeAfterHeaders, .malformedJSON:
            break
        }
    }

    /// A problem with the action's values, or nil.
    public var validationProblem: String? {
        switch kind {
        case .status(let status, _) where !(200...599).contains(status):
            return "action.status must be 200–599 (1xx answers are not final responses)."
        case .delay(let milliseconds) where milliseconds < 0 || milliseconds > 600_000,
            .hang(let milliseconds) where milliseconds < 0 || milliseconds > 600_000:
            return "action.delayMs must be 0–600000."
        case .truncate(let bytes?) where bytes < 0:
            return "action.bytes must not be negative."
        default:
            return nil
        }
    }
}
