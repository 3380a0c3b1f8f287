import Foundation

/// `ApiErrorResponse`: WarrantyLife's error body.
public struct WarrantyLifeAPIError: Sendable, Codable, Equatable, Error {
    /// The error's category in snake_case, e.g. `validation_failed` or `voucher_not_found`.
    public var error: String
    /// The text the SDK shows (it falls back to `error` without one).
    public var errorMessage: String?
    /// Numeric code (`-1` for transport failures, as the SDK reports them).
    public var errorCode: Int
    /// HTTP status (0 for transport failures); not part of the body.
    public var status: Int?

    /// An error as the SDK would build it, for comparing with what the server sent.
    public init(error: String, errorMessage: String?, errorCode: Int, status: Int? = nil) {
        self.error = error
        self.errorMessage = errorMessage
        self.errorCode = errorCode
        self.status = status
    }

    /// The WarrantyLife error carried by a client error (`-1` for transport failures), if any.
    public init?(_ clientError: UnderstudyClientError) {
        switch clientError {
        case .unexpectedStatus(let status, let body):
            // Not WarrantyLife's envelope: there is no WarrantyLife error to report, which is what nil says.
            guard var decoded = try? JSONDecoder().decode(WarrantyLifeAPIError.self, from: Data(body.utf8)) else { return nil }
            decoded.status = status
            self = decoded
        case .transport(_, let message):
            self.init(error: "network_error", errorMessage: message, errorCode: -1, status: 0)
        default:
            return nil
        }
    }
}
