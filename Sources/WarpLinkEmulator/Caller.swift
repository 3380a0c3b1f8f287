import EmulatorCore
import Foundation
import Storage

/// Who is calling a WarpLink SDK route, as the route group's one authentication step found
/// (`WarpLinkRoutes.caller`): handlers read it and never parse the `Authorization` header again.
struct WarpLinkCaller: StoreCaller {
    /// The project's effective matching settings (the server's when the request has no project).
    let settings: MatchingSettings
    /// The request's rate window after counting it: what the `X-RateLimit-*` headers report.
    let window: (remaining: Int, reset: Int, allowed: Bool)
    /// The active key the request presented, or the 401 the SDKs expect for a missing,
    /// malformed, unknown or revoked one (kept, not thrown: `validate` may answer `valid: false`).
    let key: Result<KeyRecord, WarpLinkError>
}

extension WarpLinkCaller {
    /// The service of the key's project (the project a credential-less tap named when there is
    /// no key) at the request's instant.
    func service(on connection: any StoreConnection, context: EmulatorContext) throws -> WarpLinkService {
        guard let project = (try? key.get())?.projectID ?? context.projectID else { throw WarpLinkError.notFound }
        return WarpLinkService(store: WarpLinkStore(connection: connection), project: project, now: context.now)
    }
}
