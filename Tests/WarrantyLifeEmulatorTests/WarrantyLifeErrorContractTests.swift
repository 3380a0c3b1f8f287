import EmulatorCore
import Testing

@testable import WarrantyLifeEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("WarrantyLife error contract")
struct WarrantyLifeErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let violations = CoreFailure.contractViolations(of: WarrantyLifePlatform())
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
