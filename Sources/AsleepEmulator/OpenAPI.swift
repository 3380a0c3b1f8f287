import EmulatorCore

/// The OpenAPI 3.1 document of the Asleep SDK routes and control-plane routes.
enum AsleepOpenAPI {
    static func document() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "Asleep (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
