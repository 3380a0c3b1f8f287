import EmulatorCore
import Foundation
import Testing

@testable import AsleepEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("Asleep error contract")
struct AsleepErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let violations = CoreFailure.contractViolations(of: AsleepPlatform())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The bodies the platform sends, by status: its catalogue's and its answers to the core's failures.
    static func produced(by platform: any Platform) throws -> [Int: [JSONValue]] {
        var bodies = CoreFailure.contractBodies(of: platform)
        for error in AsleepError.catalogue { bodies[error.status, default: []].append(try JSONValue.parse(error.response.body)) }
        return bodies
    }

    @Test("every error example of the OpenAPI document is a body the platform sends for that status")
    func documentedErrorsAreReal() throws {
        let platform = AsleepPlatform()
        let violations = OpenAPIErrorExamples.violations(in: platform.openAPIDocument(), produced: try Self.produced(by: platform))
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
