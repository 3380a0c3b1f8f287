import EmulatorCore
import Foundation
import HTTPServer

/// The report of a session as the SDK would read it, for inspection (the dashboard's hypnogram).
extension AsleepAdmin {
    func reportRoutes() -> [Route] {
        [
            Route(.get, "/sessions/{session}/report") { _, context in
                let project = context.parameter("id"), id = context.parameter("session")
                let defaults = self.defaults
                return .json(try await self.withSession(context, project: project, id: id) { service, session, connection in
                    try service.report(session, settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)), zone: WireTime.utc)
                })
            },
        ]
    }
}
