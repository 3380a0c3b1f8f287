import Foundation

/// Schema constructors shared by every OpenAPI 3.1 document the server serves, so the five
/// documents are written in one vocabulary with one argument order.
public enum OpenAPISchema {
    /// `{"type": "string"}`.
    public static let string: JSONValue = ["type": "string"]
    /// `{"type": "integer"}`.
    public static let integer: JSONValue = ["type": "integer"]
    /// `{"type": "number"}`.
    public static let number: JSONValue = ["type": "number"]
    /// `{"type": "boolean"}`.
    public static let boolean: JSONValue = ["type": "boolean"]
    /// An RFC 3339 date-time string.
    public static let dateTime: JSONValue = ["type": "string", "format": "date-time"]
    /// Any JSON value.
    public static let any: JSONValue = [:]

    /// A reference to `#/components/schemas/<name>`.
    public static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    /// `schema` or null: a type list for plain types (with `null` added to an `enum`, which
    /// JSON Schema checks apart from `type`), `any` itself, `oneOf` otherwise.
    public static func nullable(_ schema: JSONValue) -> JSONValue {
        if schema == any { return schema } // already allows null; a oneOf with it would match null twice
        if case .object(var members) = schema, let type = members["type"], members["$ref"] == nil, members["const"] == nil {
            switch type {
            case .string(let name): members["type"] = [.string(name), "null"]
            case .array(let names): members["type"] = .array(names.contains("null") ? names : names + ["null"])
            default: return ["oneOf": [schema, ["type": "null"]]]
            }
            if case .array(let values)? = members["enum"], !values.contains(.null) { members["enum"] = .array(values + [.null]) }
            return .object(members)
        }
        return ["oneOf": [schema, ["type": "null"]]]
    }

    /// An array of `items`.
    public static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    /// An object whose members are all required unless listed in `optional`; closed
    /// (`additionalProperties: false`) unless `open`.
    public static func object(_ properties: [String: JSONValue], optional: Set<String> = [], open: Bool = false) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": "object", "properties": .object(properties),
            "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map(JSONValue.string)),
        ]
        if !open { members["additionalProperties"] = false }
        return .object(members)
    }

    /// An object mapping any key to `values`.
    public static func map(_ values: JSONValue) -> JSONValue { ["type": "object", "additionalProperties": values] }

    /// A string restricted to `values`.
    public static func enumeration(_ values: [String]) -> JSONValue { ["type": "string", "enum": .array(values.map(JSONValue.string))] }

    /// `schema` with a `description`.
    public static func described(_ schema: JSONValue, _ description: String) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        members["description"] = .string(description)
        return .object(members)
    }
}

/// Parameter constructors: name first, then schema, then description.
public enum OpenAPIParameter {
    /// A required path parameter.
    public static func path(_ name: String, _ schema: JSONValue = OpenAPISchema.string, _ description: String) -> JSONValue {
        parameter(name, in: "path", required: true, schema, description)
    }

    /// A query parameter.
    public static func query(_ name: String, _ schema: JSONValue = OpenAPISchema.string, _ description: String, required: Bool = false) -> JSONValue {
        parameter(name, in: "query", required: required, schema, description)
    }

    /// A header parameter.
    public static func header(_ name: String, _ schema: JSONValue = OpenAPISchema.string, _ description: String, required: Bool = false) -> JSONValue {
        parameter(name, in: "header", required: required, schema, description)
    }

    private static func parameter(_ name: String, in location: String, required: Bool, _ schema: JSONValue, _ description: String) -> JSONValue {
        ["name": .string(name), "in": .string(location), "required": .bool(required), "schema": schema, "description": .string(description)]
    }
}

/// Response and request-body constructors: description first, then schema.
public enum OpenAPIContent {
    /// A JSON response.
    public static func json(_ description: String, _ schema: JSONValue, example: JSONValue? = nil) -> JSONValue {
        var media: [String: JSONValue] = ["schema": schema]
        if let example { media["example"] = example }
        return ["description": .string(description), "content": ["application/json": .object(media)]]
    }

    /// A response without a body.
    public static func empty(_ description: String) -> JSONValue { ["description": .string(description)] }

    /// A JSON request body.
    public static func jsonBody(_ schema: JSONValue, required: Bool = true, example: JSONValue? = nil) -> JSONValue {
        var media: [String: JSONValue] = ["schema": schema]
        if let example { media["example"] = example }
        return ["required": .bool(required), "content": ["application/json": .object(media)]]
    }
}

/// One operation of a path. `id` and `summary` are required, so no operation goes without an
/// `operationId`.
public struct OpenAPIOperation: Sendable {
    /// The `operationId`, unique in the document.
    public var id: String
    /// One line for the operation list.
    public var summary: String
    /// What it does in more words, when the summary is not enough.
    public var description: String?
    /// Parameters (see `OpenAPIParameter`).
    public var parameters: [JSONValue]
    /// The request body (see `OpenAPIContent.jsonBody`), if any.
    public var requestBody: JSONValue?
    /// Responses by status (`"200"`, `"4XX"`).
    public var responses: [String: JSONValue]
    /// Security requirements, if the operation needs credentials.
    public var security: JSONValue?
    /// Tags for grouping.
    public var tags: [String]

    /// An operation.
    public init(
        id: String, summary: String, description: String? = nil, parameters: [JSONValue] = [], requestBody: JSONValue? = nil,
        responses: [String: JSONValue], security: JSONValue? = nil, tags: [String] = []
    ) {
        self.id = id
        self.summary = summary
        self.description = description
        self.parameters = parameters
        self.requestBody = requestBody
        self.responses = responses
        self.security = security
        self.tags = tags
    }

    /// The operation object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["operationId": .string(id), "summary": .string(summary), "responses": .object(responses)]
        if let description { members["description"] = .string(description) }
        if !parameters.isEmpty { members["parameters"] = .array(parameters) }
        if let requestBody { members["requestBody"] = requestBody }
        if let security { members["security"] = security }
        if !tags.isEmpty { members["tags"] = .array(tags.map(JSONValue.string)) }
        return .object(members)
    }
}

/// An OpenAPI 3.1 document under construction: add paths, then take `json`.
public struct OpenAPIDocument: Sendable {
    /// `info.title`.
    public var title: String
    /// `info.description`.
    public var description: String
    /// `info.version`.
    public var version: String
    /// Reusable schemas by name.
    public var schemas: [String: JSONValue]
    /// Security schemes by name.
    public var securitySchemes: [String: JSONValue]
    private var paths: [String: [String: JSONValue]] = [:]

    /// An empty document.
    public init(
        title: String, description: String, version: String = "1.0.0", schemas: [String: JSONValue] = [:],
        securitySchemes: [String: JSONValue] = [:]
    ) {
        self.title = title
        self.description = description
        self.version = version
        self.schemas = schemas
        self.securitySchemes = securitySchemes
    }

    /// Adds `operation` for `method` (lower-case, `get`) at `path`, relative to the document's server.
    public mutating func add(_ method: String, _ path: String, _ operation: OpenAPIOperation, pathParameters: [JSONValue] = []) {
        var item = paths[path] ?? [:]
        item[method.lowercased()] = operation.json
        if !pathParameters.isEmpty { item["parameters"] = .array(pathParameters) }
        paths[path] = item
    }

    /// Adds a control-plane operation: its path is absolute (`/__admin/…`), so the path item
    /// carries its own `servers` entry pointing at the server root, and tools resolve it right
    /// whatever the document's base server is.
    public mutating func addControlPlane(_ method: String, _ path: String, _ operation: OpenAPIOperation, pathParameters: [JSONValue] = []) {
        add(method, path, operation, pathParameters: pathParameters)
        paths[path]?["servers"] = [["url": "/", "description": "The server root (control plane)."]]
    }

    /// The document, with `serverURL` as its server when given. Response headers and named
    /// response examples used more than once are kept once under `components` and referred to.
    public func json(serverURL: String? = nil) -> JSONValue {
        var components: [String: JSONValue] = ["schemas": .object(schemas)]
        if !securitySchemes.isEmpty { components["securitySchemes"] = .object(securitySchemes) }
        let shared = OpenAPISharedParts(paths: paths)
        if !shared.headers.isEmpty { components["headers"] = .object(shared.headers) }
        if !shared.examples.isEmpty { components["examples"] = .object(shared.examples) }
        var members: [String: JSONValue] = [
            "openapi": "3.1.0",
            "info": ["title": .string(title), "version": .string(version), "description": .string(description)],
            "paths": .object(shared.paths.mapValues(JSONValue.object)),
            "components": .object(components),
        ]
        if let serverURL { members["servers"] = [["url": .string(serverURL)]] }
        return .object(members)
    }
}
