import EmulatorCore
import Foundation

/// The control-plane half of the WarpLink document.
extension WarpLinkOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// Adds every control-plane operation, each path item with its own server-root `servers` entry.
    static func addControlPlane(to document: inout OpenAPIDocument) {
        let base = "/__admin/projects/{id}/warplink"
        let project = P.path("id", S.string, "Project id.")
        let bad = C.json("Invalid body or value (`invalid_json`, `unknown_field`, `invalid_value`, …).", S.ref("AdminError"))
        let missing = C.json("Project or item not found.", S.ref("AdminError"))
        let conflict = C.json("Already exists (`conflict`).", S.ref("AdminError"))
        let done = C.empty("Done.")
        func one(_ schema: String) -> JSONValue { C.json(schema + ".", S.ref(schema), example: examples[schema]) }
        func list(_ key: String, _ schema: String) -> JSONValue {
            C.json(key.capitalized + ".", S.object([key: S.array(S.ref(schema))]), example: [key: [examples[schema] ?? [:]]])
        }
        func storedLink() -> JSONValue { C.json("Link.", S.ref("StoredLink"), example: examples["StoredLink"]) }
        // A body's example is its schema's, or the one given by name for the free-form bodies.
        func body(_ schema: JSONValue, _ example: String) -> JSONValue { C.jsonBody(schema, example: examples[example]) }
        func add(
            _ method: String, _ path: String, _ parameters: [JSONValue], _ id: String, _ summary: String, _ description: String,
            body: JSONValue? = nil, query: [JSONValue] = [], _ responses: [String: JSONValue]
        ) {
            let example = body?["$ref"]?.stringValue.map { String($0.split(separator: "/").last ?? "") }
            document.addControlPlane(
                method, base + path,
                OpenAPIOperation(
                    id: id, summary: summary, description: description, parameters: query,
                    requestBody: body.map { $0["$ref"] == nil ? $0 : C.jsonBody($0, example: example.flatMap { examples[$0] }) },
                    responses: responses),
                pathParameters: [project] + parameters)
        }
        let appID = P.path("appId", S.string, "App id.")
        let keyValue = P.path("value", S.string, "Key value.")
        let hostname = P.path("hostname", S.string, "Custom domain.")
        let linkID = P.path("linkId", S.string, "Link id.")
        let limit = P.query("limit", S.integer, "1–10000 (500).")

        add(
            "get", "/settings", [], "getSettings", "Matching settings.", "The project's effective settings: its own over the configuration's over the contract's defaults.",
            ["200": one("Settings"), "404": missing])
        add(
            "put", "/settings", [], "updateSettings", "Change some settings.", "Members given replace the project's values; null returns a member to the server default.",
            body: body(["type": "object"], "SettingsInput"), ["200": one("Settings"), "400": bad, "404": missing])
        add(
            "post", "/apps", [], "createApp", "Create an app.", "Its handle gives it `<handle>.aplnk.to`; handles are unique server-wide.",
            body: S.ref("AppInput"), ["201": one("App"), "400": bad, "404": missing, "409": conflict])
        add("get", "/apps", [], "listApps", "Apps.", "The project's apps, oldest first.", ["200": list("apps", "App"), "404": missing])
        add(
            "delete", "/apps/{appId}", [appID], "deleteApp", "Delete an app without keys, domains or links.",
            "Refused with 409 while keys, domains or links are bound to it.", ["204": done, "404": missing, "409": conflict])
        add(
            "post", "/keys", [], "createKey", "Create an SDK or API key.", "A key value belongs to one project server-wide.",
            body: S.ref("KeyInput"), ["201": one("Key"), "400": bad, "404": missing, "409": conflict])
        add("get", "/keys", [], "listKeys", "Keys.", "The project's keys, oldest first.", ["200": list("keys", "Key"), "404": missing])
        add("delete", "/keys/{value}", [keyValue], "deleteKey", "Delete a key.", "Requests with it get 401 at once.", ["204": done, "404": missing])
        add(
            "post", "/keys/{value}/revoke", [keyValue], "revokeKey", "Revoke a key.", "Requests with it get 401 until it is restored.",
            ["200": one("Key"), "404": missing])
        add("post", "/keys/{value}/restore", [keyValue], "restoreKey", "Re-activate a key.", "Undoes a revocation.", ["200": one("Key"), "404": missing])
        add(
            "post", "/domains", [], "addDomain", "Add a custom domain.", "Requests with this Host are routed to the project's short links.",
            body: S.ref("DomainInput"), ["201": one("Domain"), "400": bad, "404": missing, "409": conflict])
        add("get", "/domains", [], "listDomains", "Custom domains.", "The project's custom domains.", ["200": list("domains", "Domain"), "404": missing])
        add("delete", "/domains/{hostname}", [hostname], "deleteDomain", "Remove a domain.", "Its links stop being served.", ["204": done, "404": missing])
        add(
            "post", "/domains/{hostname}/verify", [hostname], "verifyDomain", "Verify (un-suspend).", "Its links are served again.",
            ["200": one("Domain"), "404": missing])
        add(
            "post", "/domains/{hostname}/suspend", [hostname], "suspendDomain", "Suspend.", "Its links answer 404 until verified.",
            ["200": one("Domain"), "404": missing])
        add(
            "post", "/links", [], "createLink", "Create a link.", "Validated like the real service; slugs are unique per domain.",
            body: S.ref("LinkInput"), ["201": storedLink(), "400": bad, "404": missing, "409": conflict])
        add(
            "get", "/links", [], "listLinks", "Links.", "The project's links, oldest first: every link unless `limit` or `offset` is given, and always the total.",
            query: [P.query("limit", S.integer, "1–10000 (500 when only `offset` is given)."), P.query("offset", S.integer, "Links to skip.")],
            [
                "200": C.json(
                    "Links and how many the project has.", S.object(["links": S.array(S.ref("StoredLink")), "total": S.integer]),
                    example: ["links": [examples["StoredLink"] ?? [:]], "total": 1]), "400": bad, "404": missing,
            ])
        add(
            "get", "/links/{linkId}", [linkID], "getLink", "One link.", "The stored link (the password only as `password_protected`).",
            ["200": storedLink(), "404": missing])
        add(
            "patch", "/links/{linkId}", [linkID], "updateLink", "Change fields; null clears.", "The changed link is validated as a whole again.",
            body: body(["type": "object"], "LinkPatch"), ["200": storedLink(), "400": bad, "404": missing, "409": conflict])
        add(
            "delete", "/links/{linkId}", [linkID], "deleteLink", "Delete (installs attributed to it then match routeless).",
            "Clicks and installs keep its id.", ["204": done, "404": missing])
        add(
            "post", "/links/{linkId}/expire", [linkID], "expireLink", "Expire now (project clock).", "Resolving it then answers 410.",
            ["200": storedLink(), "404": missing])
        add(
            "post", "/clicks", [], "seedClick", "Seed a click (deferred-match input).", "Filed under the same match buckets as a browser's click.",
            body: S.ref("ClickInput"), ["201": one("Click"), "400": bad, "404": missing])
        add(
            "get", "/clicks", [], "listClicks", "Clicks, newest first, with claim state.", "Filter by link or source.",
            query: [P.query("link_id", S.string, "Only this link."), P.query("source", S.string, "redirect, resolve or seed."), limit],
            ["200": list("clicks", "Click"), "400": bad, "404": missing])
        add(
            "post", "/installs", [], "seedInstall", "Seed an earlier install.", "Lets a device-id match find an earlier attribution.",
            body: S.ref("InstallInput"), ["201": one("Install"), "400": bad, "404": missing, "409": conflict])
        add(
            "get", "/installs", [], "listInstalls", "Install records, newest first.", "What each attribution call decided.",
            query: [limit], ["200": list("installs", "Install"), "400": bad, "404": missing])
    }
}
