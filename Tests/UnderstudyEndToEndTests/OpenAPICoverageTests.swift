import EmulatorCore
import Foundation
import HTTPServer
import Testing
import UnderstudyTesting

/// Every route a platform registers is described in that platform's OpenAPI document, so the
/// documents (and the conformance tests that walk them) cannot silently fall behind the code.
@Suite("OpenAPI coverage of registered routes")
struct OpenAPICoverageTests {
    @Test("each platform's SDK and control-plane routes appear in its document")
    func everyRouteDocumented() async throws {
        try await UnderstudyTestServer.with { server in
            for platform in server.server.emulator.platforms {
                let document = platform.openAPIDocument()
                let paths = document["paths"]?.objectValue ?? [:]
                // A documented path covers a route when their segments agree, a route parameter
                // standing for any segment (WarrantyLife documents its canonical client code `wi`).
                func covers(_ key: String, _ pattern: String) -> Bool {
                    let documented = key.split(separator: "/"), registered = pattern.split(separator: "/")
                    guard documented.count == registered.count else { return false }
                    return zip(documented, registered).allSatisfy { $0 == $1 || ($1.hasPrefix("{") && $1.hasSuffix("}")) }
                }
                func documented(_ method: HTTPMethod, _ candidates: [String]) -> Bool {
                    paths.contains { key, item in
                        item[method.rawValue.lowercased()] != nil && candidates.contains { covers(key, $0) }
                    }
                }
                var missing: [String] = []
                // A catch-all `{rest...}` route is no operation: it only answers unknown paths in the
                // platform's format (after checking its credential), so it is left out.
                for route in platform.routes() where !route.path.hasSuffix("...}") {
                    let full = platform.id.pathPrefix + route.path
                    if !documented(route.method, [route.path, full]) { missing.append("\(route.method.rawValue) \(full)") }
                }
                for route in platform.adminRoutes() {
                    let full = "/__admin/projects/{id}/" + platform.id.rawValue + route.path
                    if !documented(route.method, [full, route.path]) { missing.append("\(route.method.rawValue) \(full)") }
                }
                #expect(missing.isEmpty, "\(platform.id.rawValue) routes missing from its OpenAPI document: \(missing)")
            }
        }
    }
}
