import EmulatorCore
import Testing

@testable import WarpLinkEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("WarpLink error contract")
struct WarpLinkErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let violations = CoreFailure.contractViolations(of: WarpLinkPlatform())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
