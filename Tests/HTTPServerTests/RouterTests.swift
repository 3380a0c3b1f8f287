import Testing

@testable import HTTPServer

@Suite("Router")
struct RouterTests {
    private func router() throws -> Router<String> {
        var router = Router<String>()
        try router.add(.get, "/links/resolve/{slug}", "resolve")
        try router.add(.get, "/links/resolve/special", "special")
        try router.add(.post, "/attribution/match", "match")
        try router.add(.get, "/projects/{id}/requests", "requests")
        try router.add(.delete, "/projects/{id}/requests", "clear")
        try router.add(.get, "/files/{rest...}", "files")
        try router.add(.get, "/", "root")
        return router
    }

    @Test("literals beat parameters; parameters are percent-decoded")
    func matching() throws {
        let router = try router()
        guard case .matched(let value, let parameters, let template) = router.match(.get, path: "/links/resolve/a%20b") else {
            Issue.record("no match"); return
        }
        #expect(value == "resolve" && parameters["slug"] == "a b" && template == "/links/resolve/{slug}")
        guard case .matched(let special, _, _) = router.match(.get, path: "/links/resolve/special") else { Issue.record("no match"); return }
        #expect(special == "special")
        guard case .matched(let root, _, _) = router.match(.get, path: "/") else { Issue.record("no root"); return }
        #expect(root == "root")
        guard case .matched(_, let rest, _) = router.match(.get, path: "/files/a/b/c.txt") else { Issue.record("no wildcard"); return }
        #expect(rest["rest"] == "a/b/c.txt")
        guard case .matched(let slash, _, _) = router.match(.post, path: "/attribution/match/") else { Issue.record("trailing slash"); return }
        #expect(slash == "match")
    }

    @Test("wrong method is 405 with the allowed methods; HEAD falls back to GET")
    func methods() throws {
        let router = try router()
        guard case .methodNotAllowed(let allowed) = router.match(.put, path: "/projects/p1/requests") else { Issue.record("expected 405"); return }
        #expect(allowed.map(\.rawValue) == ["DELETE", "GET", "HEAD"])
        guard case .matched(let value, _, _) = router.match(.head, path: "/projects/p1/requests") else { Issue.record("HEAD"); return }
        #expect(value == "requests")
        guard case .notFound = router.match(.get, path: "/nothing/here") else { Issue.record("expected 404"); return }
    }

    @Test("duplicate and conflicting registrations are refused")
    func registration() throws {
        var router = try router()
        #expect(throws: Router<String>.RegistrationError.duplicate("/attribution/match")) { try router.add(.post, "/attribution/match", "again") }
        #expect(throws: Router<String>.RegistrationError.conflictingParameter("/links/resolve/{other}/x")) {
            try router.add(.get, "/links/resolve/{other}/x", "x")
        }
    }

    @Test("the exact-path table answers as the trie does, for literal, parameter, wildcard, odd and encoded paths")
    func exactTableAgreesWithTrie() throws {
        var router = try router()
        try router.add(.get, "/__admin/health", "health")
        try router.add(.get, "/a//b", "double")
        try router.add(.put, "/links/resolve/special", "special-put")
        try router.add(.get, "/v1/{id}/me", "parameter")
        try router.add(.get, "/v1/users/me", "literal")
        let pieces = [
            "", "links", "resolve", "special", "spec%69al", "attribution", "match", "projects", "p1", "requests", "files", "x", "__admin",
            "health", "a", "b", "v1", "users", "me", "%2F",
        ]
        var generator = SystemRandomNumberGenerator()
        var paths = [
            "/", "//", "/__admin/health", "/__admin/health/", "/__admin//health", "//__admin/health", "/a//b", "/a//b/", "/a/b",
            "/links/resolve/special", "/links/resolve/special/", "/links/resolve/special//", "/v1/users/me", "/v1/u/me",
        ]
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...4, using: &generator)
            let path = "/" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            paths.append(Bool.random(using: &generator) ? path : path + "/")
        }
        var hits = 0
        for path in paths {
            for method in [HTTPMethod.get, .head, .post, .put, .delete] {
                let fast = router.match(method, path: path), slow = router.matchInTrie(method, path: path)
                #expect(describe(fast) == describe(slow), "\(method.rawValue) \(path)")
                if case .matched = fast { hits += 1 }
            }
        }
        #expect(hits > 100)
    }

    @Test("splitting a path by bytes gives the segments splitting it by characters gives")
    func segmentsByBytesAgreeWithCharacters() {
        let pieces = ["", "a", "links", "%2F", "%C3%A9", "sp ace", "x.y", "~", "ünïcode", "e\u{301}", "/\u{301}", "🇩🇪", "a\u{301}/b"]
        var paths = ["", "/", "//", "///", "a", "a/", "/a", "/a/", "//a//", "/a//b/", "/\u{301}", "/a/\u{301}b", "é/", "/é"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...5, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "/")
            paths.append((Bool.random(using: &generator) ? "/" : "") + body + (Bool.random(using: &generator) ? "/" : ""))
        }
        for path in paths {
            #expect(Router<String>.segments(of: path).map(String.init) == Router<String>.segmentsByCharacter(of: path).map(String.init), "\(path.debugDescription)")
        }
    }

    private func describe(_ match: Router<String>.Match) -> String {
        switch match {
        case .matched(let value, let parameters, let template): return "\(value) \(parameters.sorted { $0.key < $1.key }) \(template)"
        case .methodNotAllowed(let allowed): return "405 \(allowed.map(\.rawValue))"
        case .notFound: return "404"
        }
    }
}
