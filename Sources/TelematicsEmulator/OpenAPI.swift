import EmulatorCore

/// The OpenAPI 3.1 document of the Telematics SDK routes and control-plane routes.
enum TelematicsOpenAPI {
    static func document(apiRoot: String) -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "Sentilant Telematics (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
