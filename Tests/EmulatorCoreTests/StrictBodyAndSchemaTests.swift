import EmulatorCore
import Foundation
import Testing

@Suite("Strict control-plane bodies")
struct StrictBodyTests {
    struct Inner: Codable, Equatable {
        var label: String?
    }

    struct Body: Codable, Equatable {
        var name: String?
        var count: Int?
        var inner: Inner?
        var list: [Inner]?
        var extra: [String: JSONValue]?
    }

    func decode(_ text: String) throws(BodyError) -> Body {
        try JSONBody.decode(Body.self, from: Data(text.utf8), rejectUnknownKeys: true)
    }

    @Test(
        "an unknown key is refused even when its value is null, at any depth",
        arguments: [
            (#"{"nmae": null}"#, "nmae"),
            (#"{"name": "a", "zzz": null}"#, "zzz"),
            (#"{"inner": {"lable": null}}"#, "inner.lable"),
            (#"{"list": [{"label": "x"}, {"lable": null}]}"#, "list.1.lable"),
        ])
    func unknownNulls(text: String, field: String) {
        #expect(throws: BodyError(status: 400, code: "unknown_field", field: field, message: "Unknown field `\(field)`.")) { _ = try decode(text) }
    }

    @Test("an explicit null for a known optional field is still accepted")
    func knownNulls() throws {
        #expect(try decode(#"{"name": null, "count": null, "inner": null, "list": null, "extra": null}"#) == Body())
        #expect(try decode(#"{"inner": {"label": null}, "list": [{"label": null}]}"#) == Body(inner: Inner(), list: [Inner()]))
        // Free-form members keep their nulls, so they are never mistaken for unknown keys.
        #expect(try decode(#"{"extra": {"anything": null}}"#) == Body(extra: ["anything": .null]))
    }

    @Test("without strictness (platform bodies) an unknown null key is ignored")
    func lenient() throws {
        #expect(try JSONBody.decode(Body.self, from: Data(#"{"nmae": null, "name": "a"}"#.utf8)) == Body(name: "a"))
    }
}

@Suite("OpenAPI builder and validator agree")
struct OpenAPINullableTests {
    /// A document whose one operation answers `schema`.
    func validator(for schema: JSONValue) -> OpenAPIValidator {
        var document = OpenAPIDocument(title: "t", description: "d")
        document.add("get", "/thing", OpenAPIOperation(id: "getThing", summary: "s", responses: ["200": OpenAPIContent.json("ok", schema)]))
        return OpenAPIValidator(document: document.json())
    }

    func problems(_ validator: OpenAPIValidator, _ body: String) -> [String] {
        validator.problems(method: "GET", path: "/thing", status: 200, body: Data(body.utf8))
    }

    @Test("nullable on an enumeration adds null to the type list and to the enum")
    func nullableEnum() {
        let schema = OpenAPISchema.nullable(OpenAPISchema.enumeration(["a", "b"]))
        #expect(schema == ["type": ["string", "null"], "enum": ["a", "b", nil]])
        let check = validator(for: OpenAPISchema.object(["state": schema]))
        #expect(problems(check, #"{"state": null}"#).isEmpty)
        #expect(problems(check, #"{"state": "a"}"#).isEmpty)
        #expect(!problems(check, #"{"state": "c"}"#).isEmpty)
        #expect(!problems(check, #"{"state": 1}"#).isEmpty)
        // The shape the builder used to write: JSON Schema checks `enum` apart from `type`, so null failed.
        let old = validator(for: OpenAPISchema.object(["state": ["type": ["string", "null"], "enum": ["a", "b"]]]))
        #expect(!problems(old, #"{"state": null}"#).isEmpty)
    }

    @Test("nullable leaves an enum that already has null and an open schema alone, and wraps references and constants in oneOf")
    func otherShapes() {
        #expect(OpenAPISchema.nullable(["type": "string", "enum": ["a", nil]]) == ["type": ["string", "null"], "enum": ["a", nil]])
        #expect(OpenAPISchema.nullable(OpenAPISchema.any) == OpenAPISchema.any)
        #expect(OpenAPISchema.nullable(OpenAPISchema.ref("X")) == ["oneOf": [["$ref": "#/components/schemas/X"], ["type": "null"]]])
        let constant: JSONValue = ["type": "string", "const": "only"]
        let nullableConstant = OpenAPISchema.nullable(constant)
        #expect(nullableConstant == ["oneOf": [constant, ["type": "null"]]])
        let check = validator(for: OpenAPISchema.object(["v": nullableConstant]))
        #expect(problems(check, #"{"v": null}"#).isEmpty && problems(check, #"{"v": "only"}"#).isEmpty && !problems(check, #"{"v": "x"}"#).isEmpty)
    }
}
