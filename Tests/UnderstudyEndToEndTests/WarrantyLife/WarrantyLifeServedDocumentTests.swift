import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The WarrantyLife OpenAPI document as a tool reads it from the server: URLs resolve to real
/// routes, every path parameter is declared, and every operation is described with examples.
@Suite("WarrantyLife served OpenAPI document")
struct WarrantyLifeServedDocumentTests {
    static let methods = ["get", "put", "post", "delete", "patch"]

    /// The served document.
    static func served(_ f: WarrantyLifeFixture) async throws -> JSONValue {
        try JSONValue.parse(JSONEncoder().encode(try await f.client.admin.openAPI("warrantylife")))
    }

    @Test("SDK paths are relative to the document's server, as in the other documents, and a resolved URL answers")
    func urlsResolve() async throws {
        try await WarrantyLifeFixture.with { f in
            let document = try await Self.served(f)
            let paths = try #require(document["paths"]?.objectValue)
            let base = try #require(document["servers"]?[0]?["url"]?.stringValue)
            #expect(base.hasSuffix("/warrantylife"))
            for (path, item) in paths {
                // A path item's own servers win over the document's (OpenAPI 3.1 §4.8.9); only the control plane has them.
                let server = item["servers"]?[0]?["url"]?.stringValue ?? base
                #expect(
                    (item["servers"] != nil) == path.hasPrefix("/__admin"), "\(path): servers \(item["servers"].map { String(decoding: $0.encoded(), as: UTF8.self) } ?? "none")")
                let resolved = (server == "/" ? "" : URL(string: server)?.path ?? server) + path
                #expect(resolved.hasPrefix("/warrantylife/mapi/wi/100/") || resolved.hasPrefix("/__admin/projects/{id}/warrantylife/"), "\(path) resolves to \(resolved)")
            }
            // The resolved URL of an operation reaches its route.
            #expect(paths["/mapi/wi/100/app-config"] != nil)
            let answer = try await f.client.send(ClientRequest(method: "GET", path: URL(string: base)!.path + "/mapi/wi/100/app-config", headers: ["X-WL-Developer-Key": f.key]))
            #expect(answer.status == 200)
        }
    }

    @Test("every path parameter is declared; every operation has an id, a description and examples")
    func operationsAreComplete() async throws {
        try await WarrantyLifeFixture.with { f in
            let document = try await Self.served(f)
            var ids: [String] = []
            for (path, item) in document["paths"]?.objectValue ?? [:] {
                let templated = path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
                for method in Self.methods {
                    guard let operation = item[method] else { continue }
                    let label = "\(method.uppercased()) \(path)"
                    let parameters = (item["parameters"]?.arrayValue ?? []) + (operation["parameters"]?.arrayValue ?? [])
                    let declared = Set(parameters.filter { $0["in"] == "path" }.compactMap { $0["name"]?.stringValue })
                    #expect(declared == Set(templated), "\(label): path parameters \(declared.sorted()) for \(templated)")
                    if let id = operation["operationId"]?.stringValue { ids.append(id) } else { Issue.record("\(label) has no operationId") }
                    let description = operation["description"]?.stringValue ?? ""
                    #expect(description.count > 10, "\(label) has no description")
                    let responses = operation["responses"]?.objectValue ?? [:]
                    let successes = responses.filter { $0.key.hasPrefix("2") }
                    #expect(!successes.isEmpty, "\(label) documents no success")
                    for (status, response) in successes {
                        guard let content = response["content"]?.objectValue else { continue } // 204: no body
                        #expect(content.values.contains { $0["example"] != nil }, "\(label) \(status) has no example")
                    }
                    if let body = operation["requestBody"]?["content"]?.objectValue {
                        #expect(body.values.contains { $0["example"] != nil }, "\(label) body has no example")
                    }
                }
            }
            #expect(ids.count == Set(ids).count, "operationIds repeat: \(ids.sorted())")
            #expect(ids.count > 60)
        }
    }

    @Test("schemas say what the server enforces: documented-valid bodies are accepted, documented-invalid ones refused")
    func schemasMatchEnforcement() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("jane@example.com")
            let login = try await f.repository().getTokenViaUserPassword(username: "jane@example.com", password: "secret-pass")
            let json = ["Content-Type": "application/json"]
            func status(_ method: String, _ path: String, _ body: String) async throws -> Int {
                try await f.raw(method, path, headers: json, body: Data(body.utf8), login: login).status
            }
            // Whole numbers arrive as integers or integral doubles alike; a state alone may be any country's province.
            #expect(try await status("POST", "/items", #"{"deviceId":1234.0}"#) == 201)
            #expect(try await status("POST", "/auth/user", #"{"email":"a@b.c","password":"pw","state":"202"}"#) == 201)
            #expect(try await status("POST", "/auth/user", #"{"email":"b@b.c","password":"pw","country":1,"state":202}"#) == 400)
            // Dates follow the documented grammar, not the format style's leniency.
            #expect(try await status("POST", "/warranties", #"{"voucherCode":"X","dateOfPurchase":"2026-01-01T24:00:00Z"}"#) == 400)
            #expect(try await status("POST", "/warranties", #"{"voucherCode":"X","dateOfPurchase":"2026-01-01T10:00:00+18:00"}"#) == 404)
            // Content replacements must fit what the SDK route serves.
            let bad = try await f.client.send(
                ClientRequest(
                    method: "PUT", path: "/__admin/projects/\(f.project.id)/warrantylife/content/offers", headers: json,
                    body: Data(#"[{"id":"1"}]"#.utf8)))
            #expect(bad.status == 400 && bad.text.contains("GET /offers"))
        }
    }
}
