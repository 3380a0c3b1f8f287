import EmulatorCore
import Testing
@testable import TelematicsEmulator

@Suite("Telematics platform")
struct TelematicsPlatformTests {
    @Test("unknown routes answer in the platform's own error format")
    func errorFormat() throws {
        let response = TelematicsPlatform().errorResponse(for: .routeNotFound, requestID: "1")
        #expect(response.status == 404)
        #expect(try JSONValue.parse(response.body).objectValue != nil)
    }
}
