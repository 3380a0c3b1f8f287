import EmulatorCore
import Testing

@testable import WarpLinkEmulator

/// The core hands failures it detects to the platform and sends its answer unchanged.
@Suite("WarpLink error contract")
struct WarpLinkErrorContractTests {
    @Test("every core failure is answered with its own status, in a body the platform wrote")
    func statusIsTheFailures() throws {
        let platform = WarpLinkPlatform()
        for failure in CoreFailure.contractSamples {
            let response = platform.errorResponse(for: failure, requestID: "42")
            #expect(response.status == failure.status, "\(failure) answered \(response.status)")
            #expect(!response.body.isEmpty, "\(failure) answered no body")
        }
    }
}
