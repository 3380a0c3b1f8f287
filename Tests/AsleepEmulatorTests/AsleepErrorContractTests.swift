import EmulatorCore
import Testing

@testable import AsleepEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("Asleep error contract")
struct AsleepErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let platform = AsleepPlatform()
        for failure in CoreFailure.contractSamples {
            let response = platform.errorResponse(for: failure, requestID: "42")
            #expect(response.status == failure.status, "\(failure) answered \(response.status)")
            #expect(!response.body.isEmpty, "\(failure) answered no body")
        }
    }
}
