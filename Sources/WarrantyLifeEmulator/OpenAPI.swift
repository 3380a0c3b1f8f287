import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document for WarrantyLife's SDK routes and control-plane routes.
enum WarrantyLifeOpenAPI {
    static func document() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "WarrantyLife (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
