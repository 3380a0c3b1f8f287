import Foundation

/// How an error reads to a person: a log line, the command line, a response that quotes a cause.
///
/// `"\(error)"` of a struct or enum without a description prints its fields
/// (`AdminError(status: 409, code: "conflict", …)`), which is what a failed start once showed.
/// Every error the server makes describes itself; this is the one way to turn any of them into
/// text, and what has no description reads as Foundation's sentence for it, never as a dump.
public enum ErrorText {
    /// The error's own description, else its localized description.
    public static func of(_ error: any Error) -> String {
        // Through `Any`: cast from `any Error`, the compiler counts Foundation's bridging to NSError
        // (always describable) and warns that the cast always succeeds; at run time it does not.
        if let described = (error as Any) as? any CustomStringConvertible { return described.description }
        if let localized = error as? any LocalizedError, let text = localized.errorDescription { return text }
        return error.localizedDescription
    }
}
