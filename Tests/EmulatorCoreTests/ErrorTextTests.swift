import EmulatorCore
import Foundation
import HTTPServer
import Testing

/// Errors read as sentences: their own description, never their fields.
@Suite("Error text")
struct ErrorTextTests {
    private struct Undescribed: Error { var status = 409; var code = "conflict" }

    @Test("an error that describes itself reads as its description; one that does not, never as a dump of its fields")
    func text() {
        let admin = AdminError(status: 409, code: "conflict", message: "Project `demo` already exists.")
        #expect(ErrorText.of(admin) == "Project `demo` already exists.")
        #expect("\(admin)" == "Project `demo` already exists.")
        #expect(ErrorText.of(BodyError(code: "wrong_type", message: "`name` must be a string.")) == "`name` must be a string.")
        let plain = ErrorText.of(Undescribed())
        #expect(!plain.contains("status:") && !plain.contains("Undescribed(") && !plain.contains("409"), "\(plain)")
        #expect("\(MultipartFormData.Failure.malformed("no opening boundary"))" == "no opening boundary")
        #expect("\(MultipartFormData.Failure.missingBoundary)" == "the content type names no boundary")
    }
}
