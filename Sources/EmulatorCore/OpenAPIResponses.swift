import Foundation

/// Response headers as the platform documents describe them: one constructor, and the headers
/// more than one platform sends, worded once.
public enum OpenAPIHeader {
    /// A header object; `required` when every answer it is documented on carries it.
    public static func header(_ description: String, _ schema: JSONValue = OpenAPISchema.string, required: Bool = false) -> JSONValue {
        ["description": .string(description), "schema": schema, "required": .bool(required)]
    }

    /// `X-Understudy-Trace`: the request's journal id, on every error answer of the platforms that send it.
    public static let trace = header(
        "The request's journal id (`id` of its entry in GET /__admin/projects/{id}/requests), to find the request from the error.",
        ["type": "string", "pattern": "^[0-9]+$"], required: true)

    /// `Retry-After` in whole seconds, described by `when` it is sent.
    public static func retryAfter(_ when: String, required: Bool) -> JSONValue {
        header("Seconds to wait before retrying: \(when)", ["type": "string", "pattern": "^[0-9]+$"], required: required)
    }

    /// `Retry-After` on a 5xx: the server sends it when waiting helps, whatever the platform.
    public static let retryAfterWhenUnavailable = retryAfter(
        "on a 503 when the emulator's store is unavailable or the server is at its connection limit, and on any answer of a fault rule "
            + "with `retryAfter`.",
        required: false)
}

extension OpenAPIContent {
    /// `response` with `headers` added to those it documents.
    public static func withHeaders(_ response: JSONValue, _ headers: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = response, !headers.isEmpty else { return response }
        members["headers"] = .object((members["headers"]?.objectValue ?? [:]).merging(headers) { _, new in new })
        return .object(members)
    }

    /// A JSON response with named examples (OpenAPI 3.1's `examples`; a later body under a name
    /// already used replaces the earlier one).
    public static func json(_ description: String, _ schema: JSONValue, examples: [(name: String, value: JSONValue)]) -> JSONValue {
        var named: [String: JSONValue] = [:]
        for (name, value) in examples { named[name] = ["value": value] }
        return ["description": .string(description), "content": ["application/json": ["schema": schema, "examples": .object(named)]]]
    }

    /// `response` with the named examples of `other` (another answer for the same status) added,
    /// and `other`'s description after its own: an operation's own 401 and the 401 every
    /// operation of the platform can give become one response.
    public static func mergingExamples(_ response: JSONValue, _ other: JSONValue) -> JSONValue {
        let all = examples(of: response) + examples(of: other).filter { name, _ in !examples(of: response).contains { $0.name == name } }
        guard let schema = response["content"]?["application/json"]?["schema"] else { return response }
        let description = [response["description"]?.stringValue, other["description"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        var merged = json(description, schema, examples: all)
        if case .object(var members) = merged {
            let headers = (other["headers"]?.objectValue ?? [:]).merging(response["headers"]?.objectValue ?? [:]) { _, own in own }
            if !headers.isEmpty { members["headers"] = .object(headers) }
            merged = .object(members)
        }
        return merged
    }

    /// The examples of a JSON response, named (`example` gets the name `example`); a shared one
    /// (`$ref` to `#/components/examples/…`) is looked up in `document`.
    public static func examples(of response: JSONValue, in document: JSONValue? = nil) -> [(name: String, value: JSONValue)] {
        guard let media = response["content"]?["application/json"] else { return [] }
        if let single = media["example"] { return [("example", single)] }
        return (media["examples"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { name, entry in
            var example = entry
            if let reference = entry["$ref"]?.stringValue, reference.hasPrefix("#/components/examples/") {
                example = document?["components"]?["examples"]?[String(reference.dropFirst("#/components/examples/".count))] ?? .null
            }
            return (name, example["value"] ?? .null) // an example that cannot be found is no body the platform sends
        }
    }
}

/// Checks a platform document's error examples against the bodies the platform really sends.
public enum OpenAPIErrorExamples {
    /// Every example of every SDK error response of `document` (4xx, 5xx, `4XX`, `5XX`; control-plane
    /// paths, under `/__admin`, are left out) that is none of `produced`'s bodies for a status its
    /// response key covers, and every such response with a JSON body but no example; empty when
    /// each example is a body the platform sends for that status.
    public static func violations(in document: JSONValue, produced: [Int: [JSONValue]]) -> [String] {
        var found: [String] = []
        for (path, item) in (document["paths"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where !path.hasPrefix("/__admin") {
            for (method, operation) in (item.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) where operation["responses"] != nil {
                for (key, response) in (operation["responses"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    let statuses = statuses(covered: key)
                    guard statuses.contains(where: { $0 >= 400 }), response["content"]?["application/json"] != nil else { continue }
                    let label = "\(method.uppercased()) \(path) \(key)"
                    let examples = OpenAPIContent.examples(of: response, in: document)
                    if examples.isEmpty { found.append("\(label) has no example") }
                    for (name, example) in examples where !statuses.contains(where: { produced[$0]?.contains(example) ?? false }) {
                        found.append("\(label) example `\(name)` is no body the platform sends for \(key): \(String(decoding: example.encoded(), as: UTF8.self))")
                    }
                }
            }
        }
        return found
    }

    /// The statuses a response key stands for: one (`404`), a class (`4XX`), or every one (`default`).
    static func statuses(covered key: String) -> ClosedRange<Int> {
        if let status = Int(key) { return status...status }
        if key.count == 3, key.hasSuffix("XX"), let digit = Int(key.prefix(1)) { return (digit * 100)...(digit * 100 + 99) }
        return 100...599
    }
}

/// The response headers and named response examples a document repeats, moved to `components`
/// and referred to (`$ref`): the same error body on every operation of a platform is written once.
struct OpenAPISharedParts {
    /// Shared header objects by component name.
    private(set) var headers: [String: JSONValue] = [:]
    /// Shared example objects by component name.
    private(set) var examples: [String: JSONValue] = [:]
    /// The paths, referring to the shared parts.
    private(set) var paths: [String: [String: JSONValue]]

    /// Finds what `paths` repeats and rewrites them to refer to it.
    init(paths: [String: [String: JSONValue]]) {
        self.paths = paths
        var headerUses: [JSONValue: Int] = [:], exampleUses: [JSONValue: Int] = [:]
        var headerOrder: [(name: String, value: JSONValue)] = [], exampleOrder: [(name: String, value: JSONValue)] = []
        visit { response in
            for (name, header) in (response["headers"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                let key: JSONValue = [.string(name), header]
                if headerUses[key, default: 0] == 0 { headerOrder.append((name, header)) }
                headerUses[key, default: 0] += 1
            }
            for (name, example) in (response["content"]?["application/json"]?["examples"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                if exampleUses[example, default: 0] == 0 { exampleOrder.append((name, example)) }
                exampleUses[example, default: 0] += 1
            }
            return response
        }
        var headerNames: [JSONValue: String] = [:], exampleNames: [JSONValue: String] = [:]
        for (name, header) in headerOrder where headerUses[[.string(name), header], default: 0] > 1 {
            let unique = Self.unused(name, in: headers)
            headers[unique] = header
            headerNames[[.string(name), header]] = unique
        }
        for (name, example) in exampleOrder where exampleUses[example, default: 0] > 1 {
            let unique = Self.unused(name, in: examples)
            examples[unique] = example
            exampleNames[example] = unique
        }
        visit { response in
            guard case .object(var members) = response else { return response }
            if case .object(var list)? = members["headers"] {
                for (name, header) in list {
                    if let shared = headerNames[[.string(name), header]] { list[name] = ["$ref": .string("#/components/headers/\(shared)")] }
                }
                members["headers"] = .object(list)
            }
            if case .object(var content)? = members["content"], case .object(var media)? = content["application/json"],
                case .object(var list)? = media["examples"]
            {
                for (name, example) in list {
                    if let shared = exampleNames[example] { list[name] = ["$ref": .string("#/components/examples/\(shared)")] }
                }
                media["examples"] = .object(list)
                content["application/json"] = .object(media)
                members["content"] = .object(content)
            }
            return .object(members)
        }
    }

    /// `name`, or `name-2`, `name-3`… when `taken` has it.
    private static func unused(_ name: String, in taken: [String: JSONValue]) -> String {
        guard taken[name] != nil else { return name }
        var counter = 2
        while taken["\(name)-\(counter)"] != nil { counter += 1 }
        return "\(name)-\(counter)"
    }

    /// Calls `change` on every response of every operation, in path and method order, keeping what it returns.
    private mutating func visit(_ change: (JSONValue) -> JSONValue) {
        for path in paths.keys.sorted() {
            guard var item = paths[path] else { continue }
            for method in item.keys.sorted() {
                guard case .object(var operation)? = item[method], case .object(var responses)? = operation["responses"] else { continue }
                for status in responses.keys.sorted() { responses[status] = responses[status].map(change) }
                operation["responses"] = .object(responses)
                item[method] = .object(operation)
            }
            paths[path] = item
        }
    }
}
