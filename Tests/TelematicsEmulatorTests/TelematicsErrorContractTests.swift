import EmulatorCore
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
}
