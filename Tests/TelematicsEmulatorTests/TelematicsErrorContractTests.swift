import EmulatorCore
import Foundation
import Testing

@testable import TelematicsEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("Telematics error contract")
struct TelematicsErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let violations = CoreFailure.contractViolations(of: try TelematicsPlatform())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The bodies the platform sends, by status: its catalogue's and its answers to the core's failures.
    static func produced(by platform: any Platform) throws -> [Int: [JSONValue]] {
        var bodies = CoreFailure.contractBodies(of: platform)
        for error in TelematicsError.catalogue { bodies[error.status, default: []].append(try JSONValue.parse(error.response(traceID: CoreFailure.sampleRequestID).body)) }
        return bodies
    }

    @Test("every error example of the OpenAPI document is a body the platform sends for that status")
    func documentedErrorsAreReal() throws {
        let platform = try TelematicsPlatform()
        let violations = OpenAPIErrorExamples.violations(in: platform.openAPIDocument(), produced: try Self.produced(by: platform))
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test("each SDK operation lists the errors it answers by status, not a 4XX catch-all")
    func errorsPerRoute() throws {
        let document = try TelematicsPlatform().openAPIDocument()
        let paths = document["paths"]?.objectValue ?? [:]
        for (path, item) in paths where !path.hasPrefix("/__admin") {
            for (method, operation) in item.objectValue ?? [:] {
                let statuses = Set((operation["responses"]?.objectValue ?? [:]).keys)
                #expect(!statuses.contains("4XX"), "\(method) \(path) documents a 4XX catch-all")
                #expect(statuses.isSuperset(of: ["401", "429", "5XX"]), "\(method) \(path): \(statuses.sorted())")
            }
        }
        #expect(paths["/api/v1/trips/{tripId}"]?["get"]?["responses"]?["404"]?["content"]?["application/json"]?["examples"]?["TRIP_NOT_FOUND"] != nil)
        #expect(paths["/api/v1/telemetry"]?["post"]?["responses"]?["413"] != nil)
        // Shared headers are kept under components and referred to.
        let challenge = paths["/api/v1/users/me"]?["get"]?["responses"]?["401"]?["headers"]?["WWW-Authenticate"]?["$ref"]?.stringValue ?? ""
        #expect(document["components"]?["headers"]?[String(challenge.split(separator: "/").last ?? "")]?["required"] == true)
    }
}
