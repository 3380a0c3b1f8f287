import EmulatorCore
import Testing

@testable import TelematicsEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("Telematics error contract")
struct TelematicsErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let platform = try TelematicsPlatform()
        for failure in CoreFailure.contractSamples {
            let response = platform.errorResponse(for: failure, requestID: "42")
            #expect(response.status == failure.status, "\(failure) answered \(response.status)")
            #expect(!response.body.isEmpty, "\(failure) answered no body")
        }
    }
}
