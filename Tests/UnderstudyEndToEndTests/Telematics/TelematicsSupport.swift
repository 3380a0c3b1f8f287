import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Shared setup for the Telematics end-to-end tests.
enum TelematicsFixture {
    /// The instant every test freezes its project clock at.
    static let epoch = "2026-11-03T12:00:00Z"
    static let epochDate = try! Date(epoch, strategy: .iso8601)
    static let epochMs = Int64(epochDate.timeIntervalSince1970 * 1000)

    /// Runs `body` with a server, a project whose clock is frozen at `epoch`, and its Telematics admin
    /// client, and stops the server before returning, also when `body` throws.
    /// The client goes through the server's pipeline in process (`.router`) unless `transport` says `.live`.
    /// Unless `expectingFindings`, the test then fails on any integration-check finding of the
    /// project: every flow these tests drive uses the SDK as its documentation says.
    static func with<T>(
        transport: UnderstudyTestServer.Transport = .router, expectingFindings: Bool = false,
        _ body: (UnderstudyTestServer, Project, TelematicsAdminClient) async throws -> T
    ) async throws -> T {
        try await UnderstudyTestServer.with(transport: transport) { server in
            let project = try await server.makeProject(name: "telematics")
            _ = try await server.client.admin.project(project.id).freezeClock(at: epoch)
            let result = try await body(server, project, server.client.telematics.admin(project.id))
            if !expectingFindings { try await server.expectNoFindings(project: project.id) }
            return result
        }
    }

    /// A straight drive northwards at `speedMps`, one sample every `intervalMs`.
    static func drive(
        startMs: Int64, count: Int, intervalMs: Int64 = 2000, speedMps: Double = 15,
        from: (Double, Double) = (40.2, -8.4)
    ) -> [TelematicsSample] {
        let metresPerDegree = 111_195.0
        return (0..<count).map { index in
            let metres = speedMps * Double(index) * Double(intervalMs) / 1000
            return TelematicsSample(
                timestampMs: startMs + Int64(index) * intervalMs, latitude: from.0 + metres / metresPerDegree, longitude: from.1,
                speedMps: speedMps, courseDeg: 0, horizontalAccuracyM: 5, screenLocked: true, handsFree: false)
        }
    }

    /// The platform's error body of a failed call, or nil.
    static func errorCode(_ error: Error) -> (status: Int, code: String)? {
        guard case UnderstudyClientError.unexpectedStatus(let status, let body)? = error as? UnderstudyClientError,
            let decoded = try? JSONDecoder().decode(TelematicsErrorBody.self, from: Data(body.utf8))
        else { return nil }
        return (status, decoded.code)
    }
}
