import EmulatorCore
import Foundation
import HTTPServer

/// The emulator with the dashboard in front: dashboard pages and assets are answered here (not
/// journalled, no admin token: they hold no data; the API calls they make need the token), and
/// everything else goes to the emulator unchanged. The emulator's host allow-list applies to the
/// pages too: a page served under a rebinding attacker's name would run with that name's origin.
public final class DashboardApplication: HTTPApplication {
    /// The emulator behind the dashboard.
    public let emulator: Emulator
    private let pages: DashboardPages

    /// Puts `pages` in front of `emulator`.
    public init(emulator: Emulator, pages: DashboardPages = .fromEnvironment()) {
        self.emulator = emulator
        self.pages = pages
    }

    /// The dashboard's answer, or the emulator's.
    public func respond(to request: Request) async -> Response {
        // CONNECTs and requests the proxy forwards elsewhere are never dashboard pages; a Host the
        // emulator does not answer to is refused (and journalled) there, pages included.
        if emulator.answersAsProxy(request) || !emulator.admitsHost(request) { return await emulator.respond(to: request) }
        // Only `/` asks whose host it is: the host lookup is not paid on every SDK request.
        let claimed = { [emulator] in request.hostName.map { host in emulator.platforms.contains { $0.pathPrefix(forHost: host) != nil } } ?? false }
        if let response = pages.response(to: request, hostBelongsToPlatform: claimed()) { return response }
        return await emulator.respond(to: request)
    }

    /// Unreadable requests are the emulator's to answer.
    public func respond(to error: HTTPRequestError, head: Request?) async -> Response {
        await emulator.respond(to: error, head: head)
    }
}
