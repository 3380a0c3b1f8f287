import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What can go wrong talking to Understudy.
public enum UnderstudyClientError: Error, Equatable, CustomStringConvertible {
    /// The request never got a complete response (refused, reset, timed out, cut short).
    case transport(code: Int, message: String)
    /// The server answered with a status the call does not expect.
    case unexpectedStatus(Int, body: String)
    /// The body did not decode as the expected type.
    case decoding(type: String, status: Int, body: String, reason: String)
    /// A request body could not be encoded.
    case encoding(String)

    /// Whether the failure was a timeout.
    public var isTimeout: Bool {
        if case .transport(let code, _) = self { return code == URLError.timedOut.rawValue }
        return false
    }

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .transport(let code, let message): return "transport error \(code): \(message)"
        case .unexpectedStatus(let status, let body): return "unexpected status \(status): \(body.prefix(500))"
        case .decoding(let type, let status, let body, let reason): return "cannot decode \(type) from \(status) response \(body.prefix(300)): \(reason)"
        case .encoding(let reason): return "cannot encode request: \(reason)"
        }
    }
}
