extension CoreOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// `ProjectBundle`, the document export writes and import reads.
    static func bundleSchemas(_ platforms: [PlatformID]) -> [String: JSONValue] {
        let table = S.object(["columns": S.array(S.string), "rows": S.array(S.array(S.any))])
        let project = S.object(
            [
                "id": ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"], "name": S.string,
                "seed": S.described(S.integer, "The project's seed as a signed 64-bit integer (its bit pattern)."),
                "createdAt": S.described(S.string, "ISO 8601; kept by import."),
            ], optional: ["id", "name", "seed", "createdAt"])
        let clock = S.object(
            [
                "mode": ["type": "string", "enum": ["real", "frozen", "offset"]],
                "frozenAt": S.described(S.string, "ISO 8601 (mode `frozen`)."), "offsetSeconds": S.number,
            ], optional: ["frozenAt", "offsetSeconds"])
        let credentials = S.object(Dictionary(uniqueKeysWithValues: platforms.map { ($0.rawValue, S.map(S.string)) }), optional: Set(platforms.map(\.rawValue)))
        return [
            "ProjectBundle": S.described(
                S.object(
                    [
                        "format": ["const": .string(ProjectBundle.format)],
                        "version": S.described(
                            ["type": "integer", "minimum": 0],
                            "Written as \(ProjectBundle.currentVersion); read: \(ProjectBundle.supportedVersions.map(String.init).joined(separator: ", ")) (older ones are migrated)."
                        ),
                        "exportedAt": S.string, "exportedBy": S.string,
                        "project": project, "clock": clock,
                        "credentials": S.described(
                            credentials, "Platform → credential name → value; a platform left out gets fresh credentials (or, on replace, keeps the replaced project's)."),
                        "faultRules": S.described(
                            S.array(["type": "object"]), "Fault rules as submitted, with their `matched`/`hits` counters; ids, project and expiry are set again at import."),
                        "tables": S.described(
                            S.map(table), "Per-project table → its columns (without `project_id`) and rows in primary-key order; blobs are `{\"blob\": base64}`."),
                    ], optional: ["exportedAt", "exportedBy", "project", "clock", "credentials", "faultRules", "tables"]),
                "A project's whole state. Two exports of the same state differ only in `exportedAt` and, after an import under another id, `project.id`.")
        ]
    }

    static func addBundleRoutes(to document: inout OpenAPIDocument, sample: String) {
        let example: JSONValue = ["format": .string(ProjectBundle.format), "version": .int(Int64(ProjectBundle.currentVersion)), "project": ["name": "checkout-tests"]]
        document.add(
            "get", "/__admin/projects/{id}/export",
            operation(
                "exportProject", "The project's whole state as a bundle",
                "Every per-project table, the clock, credentials and fault rules; sorted keys, rows in primary-key order, so it diffs well in a repository.",
                parameters: [projectID],
                responses: ["200": C.json("The bundle.", S.ref("ProjectBundle"), example: example), "404": error], tag: "projects"))
        document.add(
            "post", "/__admin/projects/import",
            operation(
                "importProject", "Import a bundle as a project, in one transaction",
                "The project's id is `id`, else the bundle's, else a generated one; ids are unique ignoring case. `replace` swaps an existing project's state "
                    + "atomically (it keeps its id; looked up exactly). A bundle that does not fit the live schema, or holds one key twice in a table, is a 400 "
                    + "naming the table and row; nothing is imported.",
                body: body("ProjectBundle", example: example),
                parameters: [P.query("id", S.string, "The new project's id."), P.query("replace", S.string, "The id of the project to replace.")],
                responses: [
                    "201": C.json("The imported project.", S.ref("Project"), example: projectExample(sample)),
                    "400": error, "404": error,
                    "409": C.json(
                        "The project id exists (ignoring case), or a credential or key belongs to another project (named).", S.ref("Error"),
                        example: [
                            "error": [
                                "code": "credential_conflict",
                                "message": .string(
                                    "Credential `\(sample).apiKey` (`k3v9x0a1…`) is already used by project `prj_k2v9x0a1b2c3`; "
                                        + "delete that project or import with `?replace=prj_k2v9x0a1b2c3`."),
                                "details": ["platform": .string(sample), "name": "apiKey", "project": "prj_k2v9x0a1b2c3"],
                            ]
                        ]),
                    "413": error,
                ], tag: "projects"))
    }
}
