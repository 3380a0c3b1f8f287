import Foundation

/// What a browser tap on a short link got: a 302 with `Location`, or an error body.
public struct WarpLinkTap: Sendable, Equatable {
    /// HTTP status (302 on success).
    public var status: Int
    /// The `Location` header: the destination reshaped with the tap's parameters.
    public var location: String?
    /// The error of a non-302 answer.
    public var error: WarpLinkAPIError?
}
