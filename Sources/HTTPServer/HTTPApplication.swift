import Foundation

/// What the server calls to turn requests into responses.
public protocol HTTPApplication: Sendable {
    /// Answers a well-formed request.
    func respond(to request: Request) async -> Response
    /// Answers a request that could not be read; `head` is set when its head was parsed, so the
    /// answer can be shaped (and journalled) like the rest of that path's responses. The
    /// connection closes after this response.
    func respond(to error: HTTPRequestError, head: Request?) async -> Response
}

extension HTTPApplication {
    /// A generic JSON error for unreadable requests.
    public func respond(to error: HTTPRequestError, head: Request?) async -> Response {
        HTTPApplicationDefaults.errorResponse(error)
    }
}

/// Default answers shared by applications.
public enum HTTPApplicationDefaults {
    /// `{"error": {"code", "message"}}` with the error's status.
    public static func errorResponse(_ error: HTTPRequestError) -> Response {
        let body = "{\"error\":{\"code\":\"\(error.code)\",\"message\":\(jsonString(error.message))}}"
        return .json(status: error.status, bytes: Data(body.utf8))
    }

    /// `text` as a JSON string literal.
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// An application built from a closure (handy in tests).
public struct ClosureApplication: HTTPApplication {
    private let handler: @Sendable (Request) async -> Response

    /// Wraps `handler`.
    public init(_ handler: @escaping @Sendable (Request) async -> Response) { self.handler = handler }

    /// Calls the closure.
    public func respond(to request: Request) async -> Response { await handler(request) }
}
