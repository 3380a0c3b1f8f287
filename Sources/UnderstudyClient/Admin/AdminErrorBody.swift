import Foundation

/// The control plane's error body.
public struct AdminErrorBody: Sendable, Codable, Equatable {
    /// What went wrong, as the server names it.
    public struct Detail: Sendable, Codable, Equatable {
        /// A stable snake_case code, e.g. `not_found`, `invalid_json`, `unknown_field`.
        public var code: String
        /// A sentence for people.
        public var message: String
        /// More about the error when the server has it, e.g. `{"field": …}` for a bad field.
        public var details: AnyJSON?
    }
    /// The `error` member of the body.
    public var error: Detail
}
