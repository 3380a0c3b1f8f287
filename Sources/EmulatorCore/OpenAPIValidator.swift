import Foundation

/// Checks real responses against an OpenAPI 3.1 document: the operation exists, the status is
/// documented, and the JSON body fits the documented schema (a practical subset of JSON Schema:
/// `$ref`, `type` (also as a list, for nullable), `required`, `properties`,
/// `additionalProperties: false`, `items`, `enum`, `const`, `oneOf`/`anyOf`, `allOf`).
public struct OpenAPIValidator: Sendable {
    /// The document.
    public let document: JSONValue

    /// Wraps a document.
    public init(document: JSONValue) { self.document = document }

    /// Problems with `body` as the `status` response of `method` on `pathTemplate` (the document's
    /// path key, e.g. `/v1/links/resolve/{slug}`); empty when it conforms.
    public func problems(method: String, path pathTemplate: String, status: Int, body: Data) -> [String] {
        let response: JSONValue
        switch documentedResponse(method: method, path: pathTemplate, status: status) {
        case .failure(let problem): return [problem.text]
        case .success(let found): response = found
        }
        guard let schema = response["content"]?["application/json"]?["schema"] else {
            return [] // no JSON body documented (redirects, 204, binary)
        }
        guard let value = try? JSONValue.parse(body) else {
            return ["\(method) \(pathTemplate) \(status): body is not JSON"]
        }
        var found: [String] = []
        check(value, against: schema, at: "$", problems: &found)
        return found.map { "\(method) \(pathTemplate) \(status): \($0)" }
    }

    /// Problems with `value` against `schema` (a schema of the document, `$ref`s resolved in it).
    public func problems(of value: JSONValue, against schema: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: schema, at: "$", problems: &found)
        return found
    }

    /// The headers a client relies on, which a document must mention wherever they are sent: the
    /// trace and request ids, the rate-limit and retry hints, the bearer challenge.
    public static let contractHeaders: Set<String> = [
        "x-understudy-trace", "x-request-id", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "www-authenticate",
    ]

    /// Problems with a whole answer: the body's (see `problems(method:path:status:body:)`), a
    /// header the response documents as required that is missing or does not fit its schema, and
    /// a header of `contractHeaders` that was sent but is not documented for that response.
    /// `headers` are the answer's, names in any case.
    public func problems(method: String, path pathTemplate: String, status: Int, headers: [String: String], body: Data) -> [String] {
        var found = problems(method: method, path: pathTemplate, status: status, body: body)
        guard case .success(let response) = documentedResponse(method: method, path: pathTemplate, status: status) else { return found }
        let sent = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        let documented = Dictionary((response["headers"]?.objectValue ?? [:]).map { ($0.key.lowercased(), resolve($0.value)) }) { first, _ in first }
        let label = "\(method) \(pathTemplate) \(status)"
        for (name, header) in documented.sorted(by: { $0.key < $1.key }) {
            guard let value = sent[name] else {
                if header["required"]?.boolValue == true { found.append("\(label): header \(name) is documented as required but missing") }
                continue
            }
            // Header values are strings; what their schemas say is in their patterns.
            if let pattern = header["schema"]?["pattern"]?.stringValue, value.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(label): header \(name) `\(value)` does not match \(pattern)")
            }
        }
        for name in sent.keys.sorted() where Self.contractHeaders.contains(name) && documented[name] == nil {
            found.append("\(label): header \(name) was sent but is not documented")
        }
        return found
    }

    /// A problem found while looking an answer up in the document.
    struct Problem: Error { let text: String }

    /// The response object the document gives for `status` of the operation (its own status, the
    /// status class, or `default`), `$ref` resolved.
    private func documentedResponse(method: String, path pathTemplate: String, status: Int) -> Result<JSONValue, Problem> {
        guard let operation = document["paths"]?[pathTemplate]?[method.lowercased()] else {
            return .failure(Problem(text: "\(method) \(pathTemplate) is not in the document"))
        }
        guard let responses = operation["responses"],
            let response = responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["default"]
        else {
            return .failure(Problem(text: "\(method) \(pathTemplate): status \(status) is not documented"))
        }
        return .success(resolve(response))
    }

    /// Every path template with the methods documented for it.
    public var operations: [(path: String, method: String)] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        return paths.flatMap { path, item in
            (item.objectValue ?? [:]).keys.filter { ["get", "put", "post", "delete", "patch", "head"].contains($0) }.map { (path, $0.uppercased()) }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    private func resolve(_ value: JSONValue) -> JSONValue {
        var current = value
        var depth = 0
        while let reference = current["$ref"]?.stringValue, depth < 16 {
            depth += 1
            var target: JSONValue? = document
            for part in reference.dropFirst(2).split(separator: "/") {
                target = target?[String(part).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
            }
            guard let found = target else { return .null }
            current = found
        }
        return current
    }

    private func check(_ value: JSONValue, against rawSchema: JSONValue, at path: String, problems: inout [String]) {
        let schema = resolve(rawSchema)
        if case .bool(true) = schema { return }
        if let all = schema["allOf"]?.arrayValue {
            for part in all { check(value, against: part, at: path, problems: &problems) }
        }
        if let options = schema["oneOf"]?.arrayValue ?? schema["anyOf"]?.arrayValue {
            let fits = options.contains { option in
                var scratch: [String] = []
                check(value, against: option, at: path, problems: &scratch)
                return scratch.isEmpty
            }
            if !fits { problems.append("\(path) matches none of the allowed shapes") }
        }
        if let constant = schema["const"], constant != value { problems.append("\(path) must be \(String(decoding: constant.encoded(), as: UTF8.self))") }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            problems.append("\(path) value \(String(decoding: value.encoded(), as: UTF8.self)) is not one of the documented values")
        }
        var types: [String] = []
        if let single = schema["type"]?.stringValue { types = [single] }
        if let several = schema["type"]?.arrayValue { types = several.compactMap(\.stringValue) }
        if schema["nullable"]?.boolValue == true { types.append("null") }
        if !types.isEmpty && !types.contains(where: { Self.fits(value, type: $0) }) {
            problems.append("\(path) should be \(types.joined(separator: " or ")), is \(Self.typeName(value))")
            return
        }
        if case .object(let members) = value {
            for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[required] == nil {
                problems.append("\(path).\(required) is required but missing")
            }
            let properties = schema["properties"]?.objectValue ?? [:]
            for (key, member) in members {
                if let property = properties[key] {
                    check(member, against: property, at: "\(path).\(key)", problems: &problems)
                } else if case .bool(false)? = schema["additionalProperties"] {
                    problems.append("\(path).\(key) is not documented")
                } else if let additional = schema["additionalProperties"], additional.objectValue != nil {
                    check(member, against: additional, at: "\(path).\(key)", problems: &problems)
                }
            }
        }
        if case .array(let elements) = value, let items = schema["items"] {
            for (index, element) in elements.enumerated() { check(element, against: items, at: "\(path)[\(index)]", problems: &problems) }
        }
    }

    private static func fits(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .int): return true
        case ("integer", .double(let number)): return number.rounded() == number
        case ("number", .int), ("number", .double): return true
        default: return false
        }
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
