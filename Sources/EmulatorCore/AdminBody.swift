import Foundation
import HTTPServer

/// Decodes control-plane request bodies, the same way for the core and every platform: strict
/// JSON (unknown keys are errors), failures answered in the control plane's error format.
public enum AdminBody {
    /// `request`'s body as `T`; throws an `AdminError` (400) naming the problem.
    public static func decode<T: Codable>(_ type: T.Type, from request: Request) throws -> T {
        do {
            return try JSONBody.decode(type, from: request, rejectUnknownKeys: true)
        } catch {
            throw AdminError(error)
        }
    }

    /// `request`'s body as `T`, or `empty` when there is no body.
    public static func decode<T: Codable>(_ type: T.Type, from request: Request, orIfEmpty empty: @autoclosure () -> T) throws -> T {
        request.body.isEmpty ? empty() : try decode(type, from: request)
    }
}
