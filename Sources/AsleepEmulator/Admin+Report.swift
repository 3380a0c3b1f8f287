import EmulatorCore
import Foundation
import HTTPServer

/// The report of a session as the SDK would read it, for inspection (the dashboard's hypnogram).
extension AsleepAdmin {
    func sessionReport(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        return .json(
            try await withSession(context) { service, session in
                try service.report(session, settings: try service.settings(project: project), zone: WireTime.utc)
            })
    }
}
