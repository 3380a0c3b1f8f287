import EmulatorCore
import Testing

@testable import WarrantyLifeEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("WarrantyLife error contract")
struct WarrantyLifeErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let platform = WarrantyLifePlatform()
        for failure in CoreFailure.contractSamples {
            let response = platform.errorResponse(for: failure, requestID: "42")
            #expect(response.status == failure.status, "\(failure) answered \(response.status)")
            #expect(!response.body.isEmpty, "\(failure) answered no body")
        }
    }
}
