import Foundation
import HTTPServer
import Storage

/// An error that knows its HTTP answer. Each platform's `Errors.swift` conforms its error type,
/// so handlers just throw and the answer has that platform's envelope; `ErrorAnswers` is the one
/// place that asks for it.
public protocol ResponseError: Error {
    /// The response to send for this error when it ends `request` (a trace id or an echoed
    /// request header comes from the context and the request, never from the thrower).
    func response(to request: Request, in context: EmulatorContext) -> Response
}

/// A `ResponseError` whose answer is the same whatever the request.
public protocol FixedResponseError: ResponseError {
    /// The response to send for this error.
    var response: Response { get }
}

extension FixedResponseError {
    /// The fixed `response`.
    public func response(to request: Request, in context: EmulatorContext) -> Response { response }
}

/// Control-plane errors: `{"error": {"code", "message", "details"?}}`, camelCase like all of `/__admin`.
public struct AdminError: FixedResponseError, Sendable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// Machine-readable code, e.g. `not_found`.
    public let code: String
    /// What went wrong, for the developer.
    public let message: String
    /// Extra structured information (such as what a wait saw).
    public let details: JSONValue?

    /// Creates an error.
    public init(status: Int, code: String, message: String, details: JSONValue? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    /// 404 for a missing resource.
    public static func notFound(_ what: String) -> AdminError {
        AdminError(status: 404, code: "not_found", message: "\(what) not found.")
    }

    /// 400 for a bad body or parameter.
    public static func badRequest(_ message: String, code: String = "bad_request") -> AdminError {
        AdminError(status: 400, code: code, message: message)
    }

    /// A write that broke a database constraint, without the statement or the database's text:
    /// a unique clash is a 409 `conflict`, any other constraint a 400 `invalid_value`.
    public init(constraint: SQLiteError) {
        if constraint.isUniqueViolation {
            self.init(status: 409, code: "conflict", message: "This conflicts with an existing record of the project.")
        } else {
            self.init(status: 400, code: "invalid_value", message: "The body does not fit the stored records.")
        }
    }

    /// From a body decoding failure.
    public init(_ error: BodyError) {
        self.init(status: error.status, code: error.code, message: error.message, details: error.field.map { ["field": .string($0)] })
    }

    /// The message: what a log line or the command line shows (never the struct's fields).
    public var description: String { message }

    /// The JSON envelope.
    public var response: Response {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if let details { error["details"] = details }
        return .json(status: status, bytes: JSONValue.object(["error": .object(error)]).encoded())
    }
}
