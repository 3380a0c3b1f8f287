import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document: filled in by `WarpLinkOpenAPI+Document.swift`.
enum WarpLinkOpenAPI {
    static func document() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "WarpLink (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
