import Foundation
import UnderstudyClient

#if canImport(Testing)
import Testing
#endif

extension UnderstudyTestServer {
    /// The project's integration-check findings (all severities unless `severity` says), each as a
    /// paragraph: what the app did, the SDK's rule and the journal ids of the requests.
    public func findingTexts(project: String, severity: String? = nil) async throws -> [String] {
        try await client.admin.project(project).findings(FindingQuery(severity: severity)).map(\.description)
    }

    #if canImport(Testing)
    /// Fails the running Swift test once per finding of the project (of `severity`, when given),
    /// with the finding's text, so a test that drives an app or an SDK client asserts it used the
    /// SDK as documented:
    ///
    /// ```swift
    /// try await server.expectNoFindings(project: project.id)
    /// ```
    public func expectNoFindings(project: String, severity: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for text in try await findingTexts(project: project, severity: severity) {
            Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
        }
    }
    #endif
}
