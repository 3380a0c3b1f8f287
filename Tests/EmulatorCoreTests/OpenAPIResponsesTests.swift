import EmulatorCore
import Foundation
import Testing

/// The response pieces the platform documents share: documented headers checked against real
/// answers, and error examples checked against the bodies a platform sends.
@Suite("OpenAPI responses: headers and error examples")
struct OpenAPIResponsesTests {
    static let error = OpenAPISchema.object(["code": OpenAPISchema.string])

    /// A document with one SDK operation whose 404 carries `examples` and whose 429 documents `Retry-After`.
    static func document(notFound examples: [(name: String, value: JSONValue)], withoutExample: Bool = false) -> JSONValue {
        var document = OpenAPIDocument(title: "t", description: "d")
        let notFound = withoutExample ? OpenAPIContent.json("Not found", error) : OpenAPIContent.json("Not found", error, examples: examples)
        document.add(
            "get", "/x",
            OpenAPIOperation(
                id: "x", summary: "x",
                responses: [
                    "200": OpenAPIContent.empty("OK"),
                    "404": OpenAPIContent.withHeaders(notFound, ["X-Understudy-Trace": OpenAPIHeader.trace]),
                    "429": OpenAPIContent.withHeaders(
                        OpenAPIContent.json("Slow down", error, examples: [("rate", ["code": "RATE"])]),
                        ["Retry-After": OpenAPIHeader.retryAfter("always.", required: true)]),
                    "5XX": OpenAPIContent.json("Fault", error, examples: [("down", ["code": "DOWN"])]),
                ]))
        document.addControlPlane("get", "/__admin/x", OpenAPIOperation(id: "y", summary: "y", responses: ["404": OpenAPIContent.json("No", error)]))
        return document.json()
    }

    @Test("a required header that is missing, a header off its pattern and an undocumented contract header are problems")
    func headers() {
        let validator = OpenAPIValidator(document: Self.document(notFound: [("missing", ["code": "NOPE"])]))
        let body = Data(#"{"code":"NOPE"}"#.utf8)
        #expect(validator.problems(method: "GET", path: "/x", status: 404, headers: ["x-understudy-trace": "7"], body: body).isEmpty)
        #expect(validator.problems(method: "GET", path: "/x", status: 404, headers: ["X-Understudy-Trace": "7", "X-Other": "1"], body: body).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 404, headers: [:], body: body).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 404, headers: ["x-understudy-trace": "seven"], body: body).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 404, headers: ["x-understudy-trace": "7", "retry-after": "1"], body: body).isEmpty)
        #expect(validator.problems(method: "GET", path: "/x", status: 429, headers: ["retry-after": "1"], body: Data(#"{"code":"RATE"}"#.utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 429, headers: [:], body: Data(#"{"code":"RATE"}"#.utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/x", status: 200, headers: ["x-ratelimit-limit": "60"], body: Data()).isEmpty)
    }

    @Test("an error example must be a body produced for a status its key covers, and an error response must have one")
    func errorExamples() {
        let produced: [Int: [JSONValue]] = [404: [["code": "NOPE"]], 429: [["code": "RATE"]], 503: [["code": "DOWN"]], 400: [["code": "BAD"]]]
        #expect(OpenAPIErrorExamples.violations(in: Self.document(notFound: [("nope", ["code": "NOPE"])]), produced: produced).isEmpty)
        // A body the platform sends, but for another status.
        let misplaced = OpenAPIErrorExamples.violations(in: Self.document(notFound: [("nope", ["code": "NOPE"]), ("bad", ["code": "BAD"])]), produced: produced)
        #expect(misplaced.count == 1 && misplaced[0].contains("`bad`"), "\(misplaced)")
        // A body written by hand.
        #expect(OpenAPIErrorExamples.violations(in: Self.document(notFound: [("made-up", ["code": "MADE_UP"])]), produced: produced).count == 1)
        // No example at all (the control plane's example-less error is not the platform's to check).
        let bare = OpenAPIErrorExamples.violations(in: Self.document(notFound: [], withoutExample: true), produced: produced)
        #expect(bare == ["GET /x 404 has no example"])
        // `5XX` is any 5xx status the platform answers.
        #expect(OpenAPIErrorExamples.violations(in: Self.document(notFound: [("nope", ["code": "NOPE"])]), produced: produced.filter { $0.key != 503 }).count == 1)
    }

    @Test("merging two answers of one status keeps both sets of examples and headers")
    func merging() {
        let own = OpenAPIContent.json("Own.", Self.error, examples: [("a", ["code": "A"])])
        let common = OpenAPIContent.withHeaders(OpenAPIContent.json("Common.", Self.error, examples: [("b", ["code": "B"])]), ["X-Understudy-Trace": OpenAPIHeader.trace])
        let merged = OpenAPIContent.mergingExamples(own, common)
        #expect(OpenAPIContent.examples(of: merged).map(\.name) == ["a", "b"])
        #expect(merged["description"] == "Own. Common.")
        #expect(merged["headers"]?["X-Understudy-Trace"] != nil)
    }

    @Test("headers and examples a document repeats are kept once under components, and still read and check as before")
    func sharedParts() {
        var document = OpenAPIDocument(title: "t", description: "d")
        let notFound = OpenAPIContent.withHeaders(
            OpenAPIContent.json("Not found", Self.error, examples: [("nope", ["code": "NOPE"])]), ["X-Understudy-Trace": OpenAPIHeader.trace])
        let once = OpenAPIContent.json("Gone", Self.error, examples: [("gone", ["code": "GONE"])])
        document.add("get", "/a", OpenAPIOperation(id: "a", summary: "a", responses: ["404": notFound]))
        document.add("get", "/b", OpenAPIOperation(id: "b", summary: "b", responses: ["404": notFound, "410": once]))
        let json = document.json()
        #expect(json["components"]?["examples"]?.objectValue?.keys.sorted() == ["nope"])
        #expect(json["components"]?["headers"]?.objectValue?.keys.sorted() == ["X-Understudy-Trace"])
        let response = json["paths"]?["/b"]?["get"]?["responses"]?["404"] ?? .null
        #expect(response["content"]?["application/json"]?["examples"]?["nope"]?["$ref"] == "#/components/examples/nope")
        #expect(OpenAPIContent.examples(of: response, in: json).map(\.value) == [["code": "NOPE"]])
        #expect(json["paths"]?["/b"]?["get"]?["responses"]?["410"]?["content"]?["application/json"]?["examples"]?["gone"]?["value"] == ["code": "GONE"])
        let validator = OpenAPIValidator(document: json)
        #expect(validator.problems(method: "GET", path: "/a", status: 404, headers: ["X-Understudy-Trace": "3"], body: Data(#"{"code":"NOPE"}"#.utf8)).isEmpty)
        #expect(!validator.problems(method: "GET", path: "/a", status: 404, headers: [:], body: Data(#"{"code":"NOPE"}"#.utf8)).isEmpty)
        #expect(OpenAPIErrorExamples.violations(in: json, produced: [404: [["code": "NOPE"]], 410: [["code": "GONE"]]]).isEmpty)
        #expect(OpenAPIErrorExamples.violations(in: json, produced: [404: [["code": "OTHER"]], 410: [["code": "GONE"]]]).count == 2)
    }
}
