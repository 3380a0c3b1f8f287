import EmulatorCore
import Testing
@testable import WarrantyLifeEmulator

@Suite("WarrantyLife platform")
struct WarrantyLifePlatformTests {
    @Test("unknown routes answer in the platform's own error format")
    func errorFormat() throws {
        let response = WarrantyLifePlatform().errorResponse(for: .routeNotFound, requestID: "1")
        #expect(response.status == 404)
        #expect(try JSONValue.parse(response.body).objectValue != nil)
    }
}
