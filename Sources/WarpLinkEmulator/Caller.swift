import EmulatorCore
import Foundation

/// Who is calling a WarpLink SDK route, as the route group's one authentication step found
/// (`WarpLinkRoutes.caller`): handlers read it and never parse the `Authorization` header again.
struct WarpLinkCaller: Sendable {
    /// The project's effective matching settings (the server's when the request has no project).
    let settings: MatchingSettings
    /// The request's rate window after counting it: what the `X-RateLimit-*` headers report.
    let window: (remaining: Int, reset: Int, allowed: Bool)
    /// The active key the request presented, or the 401 the SDKs expect for a missing,
    /// malformed, unknown or revoked one (kept, not thrown: `validate` may answer `valid: false`).
    let key: Result<KeyRecord, WarpLinkError>
}
