import EmulatorCore
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
}
