/// The control plane's OpenAPI 3.1 document, served at `/__admin/openapi.json`.
enum CoreOpenAPI {
    static func document(serverURL: String) -> JSONValue {
        [
            "openapi": "3.1.0",
            "info": ["title": "Understudy control plane", "version": "1.0.0"],
            "servers": [["url": .string(serverURL)]],
            "paths": [:],
        ]
    }
}
