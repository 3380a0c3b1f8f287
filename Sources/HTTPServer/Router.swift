/// Method + path-pattern routing over a trie of path segments.
///
/// Patterns are `/literal/{param}/more` with an optional trailing wildcard `{name...}` (or `*`),
/// which captures the rest of the path. Literal segments win over parameters, parameters over
/// wildcards; lookup cost grows with path depth, not with the number of routes.
public struct Router<Value: Sendable>: Sendable {
    /// The outcome of a lookup.
    public enum Match: Sendable {
        /// A route matched: its value, decoded path parameters, and the pattern it was registered with.
        case matched(Value, parameters: [String: String], template: String)
        /// The path exists but not for this method; `allowed` lists the methods that do exist.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has this path.
        case notFound
    }

    // The lookup is @inlinable, so that the router's one user in another module (the emulator's
    // Router<RouteTarget>) runs it specialised: unspecialised, every dictionary probe and copy of
    // the router went through generic metadata (routes with a parameter, which walk the trie,
    // measured 0.91 of their CPU once specialised; exact-table hits did not move).
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var template: String
    }

    @usableFromInline
    struct Node: Sendable {
        @usableFromInline var literals: [String: Node] = [:]
        @usableFromInline var parameterName: String?
        @usableFromInline var parameterChild: [Node] = [] // zero or one node; an array because a struct cannot nest itself directly
        @usableFromInline var wildcardName: String?
        @usableFromInline var wildcardEntries: [HTTPMethod: Entry] = [:]
        @usableFromInline var entries: [HTTPMethod: Entry] = [:]
    }

    /// Why a pattern could not be registered.
    public enum RegistrationError: Error, Equatable {
        /// The same method and pattern (or an equivalent one) were registered twice.
        case duplicate(String)
        /// Two patterns name the parameter at the same position differently.
        case conflictingParameter(String)
        /// A wildcard is not the last segment.
        case wildcardNotLast(String)
    }

    @usableFromInline var root = Node()
    /// Patterns without parameters or wildcards, under the paths that reach them exactly
    /// (`/a/b` and `/a/b/`): most SDK requests are one dictionary lookup instead of a split, a
    /// decode and a lookup per segment. Only a hit for the request's method is taken; anything
    /// else goes through the trie, whose literal-first search would have found the same entry.
    @usableFromInline var exact: [String: [HTTPMethod: Entry]] = [:]
    /// Every registered pattern, in registration order (metrics pre-allocate a counter per pattern).
    public private(set) var templates: [String] = []
    /// `templates` as a set: a server registers some 400 patterns at start, and a linear search
    /// per pattern made registration quadratic.
    private var knownTemplates: Set<String> = []

    /// An empty router.
    public init() {}

    /// Registers `value` for `method` and `pattern`.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ value: Value) throws {
        let segments = Self.segments(of: pattern)
        let entry = Entry(value: value, template: pattern)
        try Self.insert(into: &root, segments: segments[...], method: method, entry: entry, pattern: pattern)
        if knownTemplates.insert(pattern).inserted { templates.append(pattern) }
        // By bytes: `Substring.contains(_:)` with a string goes through Foundation's string search.
        let literal = segments.allSatisfy { !$0.hasPrefix("{") && $0 != "*" && !$0.utf8.contains(UInt8(ascii: "%")) }
        let joined = segments.joined(separator: "/")
        // Empty first or last segments trim differently from a request path: the trie decides those.
        if literal, let first = segments.first, let last = segments.last, !first.isEmpty, !last.isEmpty {
            exact["/" + joined, default: [:]][method] = entry
            exact["/" + joined + "/", default: [:]][method] = entry
        }
    }

    private static func insert(into node: inout Node, segments: ArraySlice<Substring>, method: HTTPMethod, entry: Entry, pattern: String) throws {
        guard let segment = segments.first else {
            if node.entries[method] != nil { throw RegistrationError.duplicate(pattern) }
            node.entries[method] = entry
            return
        }
        let rest = segments.dropFirst()
        if segment == "*" || (segment.hasPrefix("{") && segment.hasSuffix("...}")) {
            guard rest.isEmpty else { throw RegistrationError.wildcardNotLast(pattern) }
            let name = segment == "*" ? "*" : String(segment.dropFirst().dropLast(4))
            if let existing = node.wildcardName, existing != name { throw RegistrationError.conflictingParameter(pattern) }
            if node.wildcardEntries[method] != nil { throw RegistrationError.duplicate(pattern) }
            node.wildcardName = name
            node.wildcardEntries[method] = entry
        } else if segment.hasPrefix("{") && segment.hasSuffix("}") {
            let name = String(segment.dropFirst().dropLast())
            if let existing = node.parameterName, existing != name { throw RegistrationError.conflictingParameter(pattern) }
            node.parameterName = name
            if node.parameterChild.isEmpty { node.parameterChild = [Node()] }
            try insert(into: &node.parameterChild[0], segments: rest, method: method, entry: entry, pattern: pattern)
        } else {
            let key = String(segment)
            var child = node.literals[key] ?? Node()
            try insert(into: &child, segments: rest, method: method, entry: entry, pattern: pattern)
            node.literals[key] = child
        }
    }

    /// Finds the route for `method` and `path` (percent-encoded, without query).
    /// `HEAD` falls back to `GET` when no `HEAD` route exists.
    @inlinable
    public func match(_ method: HTTPMethod, path: String) -> Match {
        if let entries = exact[path], let entry = Self.pick(entries, method) {
            return .matched(entry.value, parameters: [:], template: entry.template)
        }
        return matchInTrie(method, path: path)
    }

    /// The lookup without the exact-path table (the table's differential test compares the two).
    @inlinable
    func matchInTrie(_ method: HTTPMethod, path: String) -> Match {
        let segments = Self.segments(of: path)
        var parameters: [String: String] = [:]
        var allowed: Set<String> = []
        if let entry = Self.find(root, segments[...], method: method, parameters: &parameters, allowed: &allowed) {
            return .matched(entry.value, parameters: parameters, template: entry.template)
        }
        if !allowed.isEmpty {
            var methods = allowed
            if methods.contains("GET") { methods.insert("HEAD") }
            return .methodNotAllowed(allowed: methods.sorted().map(HTTPMethod.init(rawValue:)))
        }
        return .notFound
    }

    @inlinable
    static func pick(_ entries: [HTTPMethod: Entry], _ method: HTTPMethod) -> Entry? {
        if let entry = entries[method] { return entry }
        if method == .head { return entries[.get] }
        return nil
    }

    @inlinable
    static func find(
        _ node: Node, _ segments: ArraySlice<Substring>, method: HTTPMethod,
        parameters: inout [String: String], allowed: inout Set<String>
    ) -> Entry? {
        guard let segment = segments.first else {
            if let entry = pick(node.entries, method) { return entry }
            allowed.formUnion(node.entries.keys.map(\.rawValue))
            if let entry = pick(node.wildcardEntries, method), let name = node.wildcardName {
                parameters[name] = ""
                return entry
            }
            allowed.formUnion(node.wildcardEntries.keys.map(\.rawValue))
            return nil
        }
        let rest = segments.dropFirst()
        let decoded = URLQuery.percentDecode(segment) ?? String(segment)
        if let child = node.literals[decoded],
            let entry = find(child, rest, method: method, parameters: &parameters, allowed: &allowed)
        {
            return entry
        }
        if let name = node.parameterName, let child = node.parameterChild.first, !segment.isEmpty {
            if let entry = find(child, rest, method: method, parameters: &parameters, allowed: &allowed) {
                parameters[name] = decoded
                return entry
            }
        }
        if let name = node.wildcardName {
            if let entry = pick(node.wildcardEntries, method) {
                let remainder = segments.joined(separator: "/")
                parameters[name] = URLQuery.percentDecode(remainder) ?? remainder
                return entry
            }
            allowed.formUnion(node.wildcardEntries.keys.map(\.rawValue))
        }
        return nil
    }

    /// The path's segments between `/`s, without a leading and a trailing `/`.
    ///
    /// Split on the UTF-8 bytes: a request target is ASCII (the parser refuses anything else), and
    /// splitting by `Character` (grapheme breaking for every byte) was most of a lookup, about
    /// 2 µs of every request to a route with a parameter. Anything else splits as before.
    @inlinable
    static func segments(of path: String) -> [Substring] {
        let utf8 = path.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        if start < end, utf8[start] == UInt8(ascii: "/") { start = utf8.index(after: start) }
        if start < end, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        if start == end { return [] }
        return URLQuery.splitASCII(path[start..<end], on: UInt8(ascii: "/"), omittingEmpty: false) ?? segmentsByCharacter(of: path)
    }

    /// `segments(of:)` by `Character`, for paths with non-ASCII text (in-process callers).
    @inlinable
    static func segmentsByCharacter(of path: String) -> [Substring] {
        var trimmed = Substring(path)
        if trimmed.hasPrefix("/") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() } // `/a/b/` routes like `/a/b`
        if trimmed.isEmpty { return [] }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}
