import EmulatorCore
import Testing
@testable import AsleepEmulator

@Suite("Asleep platform")
struct AsleepPlatformTests {
    @Test("unknown routes answer in the platform's own error format")
    func errorFormat() throws {
        let response = AsleepPlatform().errorResponse(for: .routeNotFound, requestID: "1")
        #expect(response.status == 404)
        #expect(try JSONValue.parse(response.body).objectValue != nil)
    }
}
