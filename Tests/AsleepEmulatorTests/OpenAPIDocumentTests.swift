import EmulatorCore
import Foundation
import Testing

@testable import AsleepEmulator

@Suite("Asleep OpenAPI document shape")
struct OpenAPIDocumentTests {
    let document = AsleepOpenAPI.document()
    let methods = ["get", "put", "post", "delete", "patch"]

    /// Every (path, method, operation) of the document.
    var operations: [(path: String, method: String, operation: JSONValue)] {
        (document["paths"]?.objectValue ?? [:]).flatMap { path, item in
            methods.compactMap { method in item[method].map { (path, method, $0) } }
        }
    }

    @Test("every operation has a unique operationId, a description and an example")
    func operationsAreDescribed() {
        var ids: [String] = []
        for (path, method, operation) in operations {
            let name = "\(method.uppercased()) \(path)"
            let id = operation["operationId"]?.stringValue ?? ""
            #expect(id.isEmpty == false, "\(name) has no operationId")
            ids.append(id)
            let description = operation["description"]?.stringValue ?? ""
            #expect(description.isEmpty == false, "\(name) has no description")
            if let body = operation["requestBody"] {
                let media = body["content"]?.objectValue?.values.first
                #expect(media?["example"] != nil, "\(name) has a body but no body example")
            }
            let responses = operation["responses"]?.objectValue ?? [:]
            let success = responses.filter { $0.key.hasPrefix("2") }
            #expect(!success.isEmpty, "\(name) documents no success response")
            for (status, response) in success where response["content"] != nil {
                #expect(response["content"]?["application/json"]?["example"] != nil, "\(name) \(status) has no example")
            }
            let bodiless = success.allSatisfy { $0.value["content"] == nil }
            if bodiless && operation["requestBody"] == nil {
                let pathParameters = document["paths"]?[path]?["parameters"]?.arrayValue ?? []
                let parameters = (operation["parameters"]?.arrayValue ?? []) + pathParameters
                #expect(parameters.contains { $0["example"] != nil }, "\(name) has no example anywhere")
            }
        }
        #expect(Set(ids).count == ids.count, "duplicate operationIds: \(ids.sorted())")
        #expect(operations.count == 40)
    }

    @Test("control-plane paths carry a server-root server entry; SDK paths are relative to /asleep without repeating it")
    func serversResolve() {
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            if path.hasPrefix("/__admin/") {
                #expect(path.hasPrefix("/__admin/projects/{id}/asleep/"))
                #expect(item["servers"]?[0]?["url"]?.stringValue == "/", "\(path) resolves against the /asleep server")
            } else {
                #expect(!path.hasPrefix("/asleep"), "\(path) doubles the prefix")
                #expect(item["servers"] == nil)
            }
        }
        #expect(document["servers"] == nil) // the core adds the served one
    }

    @Test("request schemas state the server's limits")
    func schemasMatchValidation() {
        let schemas = document["components"]?["schemas"]
        let patch = schemas?["SettingsPatch"]
        #expect(patch?["additionalProperties"] == false)
        #expect(patch?["properties"]?["webhookMaxAttempts"]?["maximum"] == 10)
        #expect(patch?["properties"]?["completionDelaySeconds"]?["exclusiveMaximum"] == 30)
        #expect(schemas?["UploadForm"]?["properties"]?["seq_num"]?["maximum"] == .int(Int64(AsleepRoutes.maxSeqNum)))
        #expect(schemas?["ProductBody"]?["properties"]?["model"]?["maxLength"] == 100)
        #expect(schemas?["ZoneName"]?["enum"]?.arrayValue?.contains("Asia/Seoul") == true)
        // An enumeration that admits null lists null, or null would not validate.
        #expect(schemas?["KeyBody"]?["properties"]?["state"]?["enum"]?.arrayValue?.contains(.null) == true)
        #expect(schemas?["UpdateUserBody"]?["required"] == ["metadata"])
    }
}
