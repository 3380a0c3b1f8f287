import EmulatorCore
import Foundation
import HTTPServer
import Testing
import UnderstudyClient
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

    @Test("every operation of every served document has a unique id, a description, and examples that fit its schemas")
    func operationsAreComplete() async throws {
        try await UnderstudyTestServer.with { server in
            var documents = ["openapi.json"]
            documents += server.server.emulator.platforms.map { "openapi/\($0.id.rawValue).json" }
            for name in documents {
                let response = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/" + name))
                let document = try JSONValue.parse(response.body)
                let validator = OpenAPIValidator(document: document)
                var ids: [String] = []
                for (path, item) in document["paths"]?.objectValue ?? [:] {
                    for (method, operation) in item.objectValue ?? [:] where ["get", "put", "post", "delete", "patch"].contains(method) {
                        let label = "\(name) \(method.uppercased()) \(path)"
                        if let id = operation["operationId"]?.stringValue { ids.append(id) } else { Issue.record("\(label) has no operationId") }
                        #expect((operation["description"]?.stringValue ?? "").count > 5, "\(label) has no description")
                        if let media = operation["requestBody"]?["content"]?["application/json"] {
                            #expect(media["example"] != nil, "\(label) body has no example")
                        }
                        for (status, response) in operation["responses"]?.objectValue ?? [:] where status.hasPrefix("2") {
                            guard let media = response["content"]?["application/json"] else { continue } // no JSON body (204, HTML)
                            guard let example = media["example"] else { Issue.record("\(label) \(status) has no example"); continue }
                            let problems = validator.problems(method: method, path: path, status: Int(status) ?? 200, body: example.encoded())
                            #expect(problems.isEmpty, "\(label) \(status) example: \(problems)")
                        }
                    }
                }
                #expect(!ids.isEmpty && ids.count == Set(ids).count, "\(name): operationIds repeat or are missing")
                // Every example of every answer, named ones and errors included, fits the schema it illustrates.
                for (path, item) in document["paths"]?.objectValue ?? [:] {
                    for (method, operation) in item.objectValue ?? [:] where ["get", "put", "post", "delete", "patch"].contains(method) {
                        for (status, response) in operation["responses"]?.objectValue ?? [:] {
                            guard let schema = response["content"]?["application/json"]?["schema"] else { continue }
                            for (example, value) in OpenAPIContent.examples(of: response, in: document) {
                                let problems = validator.problems(of: value, against: schema)
                                #expect(problems.isEmpty, "\(name) \(method.uppercased()) \(path) \(status) example \(example): \(problems)")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("the four platform documents are alike: SDK paths relative to the platform's server, only control-plane paths with their own")
    func documentsAreAlike() async throws {
        try await UnderstudyTestServer.with { server in
            for platform in server.server.emulator.platforms {
                let name = platform.id.rawValue
                let response = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/openapi/\(name).json"))
                let document = try JSONValue.parse(response.body)
                #expect(document["servers"]?[0]?["url"]?.stringValue == server.url.absoluteString + platform.id.pathPrefix, "\(name)")
                for (path, item) in document["paths"]?.objectValue ?? [:] {
                    let controlPlane = path.hasPrefix("/__admin/")
                    #expect(!path.hasPrefix(platform.id.pathPrefix + "/"), "\(name): \(path) repeats the server's \(platform.id.pathPrefix)")
                    #expect((item["servers"] != nil) == controlPlane, "\(name): \(path) \(controlPlane ? "lacks" : "has") its own servers")
                }
            }
        }
    }
}
