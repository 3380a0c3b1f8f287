import Foundation
import HTTPServer
import Testing

@testable import UnderstudyDashboard

/// What the dashboard answers without a server: page URLs, assets, caching, redirects, and
/// that the compiled assets are the files in the repository.
@Suite("Dashboard pages")
struct DashboardPagesTests {
    let pages = DashboardPages()

    func get(_ path: String, headers: HTTPHeaders = HTTPHeaders(), claimed: Bool = false) -> Response? {
        pages.response(to: Request(method: .get, target: path, headers: headers), hostBelongsToPlatform: claimed)
    }

    static var assetsFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/UnderstudyDashboard/Assets").path
    }

    @Test("/ and /__admin redirect to the dashboard, unless a platform's host claims /")
    func redirects() {
        for path in ["/", "/__admin", "/__admin/"] {
            let response = get(path)
            #expect(response?.status == 302 && response?.headers["location"] == "/__admin/ui", "\(path)")
        }
        #expect(get("/", claimed: true) == nil)
        #expect(get("/warplink/v1/sdk/validate") == nil)
        #expect(get("/__admin/projects") == nil)
        #expect(pages.response(to: Request(method: .post, target: "/__admin/ui"), hostBelongsToPlatform: false) == nil)
    }

    @Test("every page URL is the shell, with a strict CSP; unknown ones are the shell with a 404")
    func pageURLs() throws {
        let shell = try #require(DashboardAssets.compiled["index.html"])
        var urls = ["/__admin/ui", "/__admin/ui/", "/__admin/ui/projects/demo", "/__admin/ui/unmatched"]
        urls += DashboardPages.sections.sorted().map { "/__admin/ui/projects/p1/\($0)" }
        for url in urls {
            let response = try #require(get(url))
            #expect(response.status == 200, "\(url)")
            #expect(response.body == shell.body)
            #expect(response.headers["content-type"] == "text/html; charset=utf-8")
            let policy = response.headers["content-security-policy"] ?? ""
            #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"))
        }
        for url in ["/__admin/ui/projects", "/__admin/ui/projects/p1/nope", "/__admin/ui/x/y/z/w", "/__admin/ui/unmatchd"] {
            #expect(get(url)?.status == 404, "\(url)")
        }
    }

    @Test("assets carry their type and a strong ETag; a matching If-None-Match is a 304")
    func caching() throws {
        let script = try #require(get("/__admin/ui/assets/app.js"))
        #expect(script.status == 200 && script.headers["content-type"] == "text/javascript; charset=utf-8")
        let etag = try #require(script.headers["etag"])
        #expect(etag.hasPrefix("\"") && etag.count == 18)
        #expect(script.headers["cache-control"] == "no-cache")
        #expect(get("/__admin/ui/assets/app.js", headers: ["If-None-Match": etag])?.status == 304)
        #expect(get("/__admin/ui/assets/app.js", headers: ["If-None-Match": "\"other\""])?.status == 200)
        #expect(get("/__admin/ui/assets/style.css")?.headers["content-type"] == "text/css; charset=utf-8")
        #expect(get("/__admin/ui/assets/favicon.svg")?.headers["content-type"] == "image/svg+xml")
        #expect(get("/__admin/ui/assets/nope.js")?.status == 404)
        #expect(get("/__admin/ui/assets/index.html")?.status == 404)
    }

    @Test("the compiled assets are exactly the files of the Assets folder")
    func compiledMatchesRepository() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.assetsFolder).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(DashboardAssets.compiled.files.keys))
        for name in names {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.assetsFolder + "/" + name))
            #expect(DashboardAssets.compiled[name]?.body == bytes, "\(name)")
        }
    }

    @Test("every module import and every shell reference names an asset")
    func referencesResolve() throws {
        let files = DashboardAssets.compiled.files
        let shell = String(decoding: try #require(files["index.html"]).body, as: UTF8.self)
        let shellReferences = shell.matches(of: /\/__admin\/ui\/assets\/([A-Za-z0-9_.-]+)/).map { String($0.1) }
        #expect(shellReferences.contains("app.js") && shellReferences.contains("style.css"))
        for name in shellReferences { #expect(files[name] != nil, "index.html refers to missing \(name)") }
        for (name, asset) in files where name.hasSuffix(".js") {
            let text = String(decoding: asset.body, as: UTF8.self)
            for match in text.matches(of: /from '\.\/([A-Za-z0-9_.-]+)'/) {
                #expect(files[String(match.1)] != nil, "\(name) imports missing \(match.1)")
            }
        }
    }

    @Test("no script builds markup from strings or evaluates code")
    func textOnlyRendering() {
        let forbidden = ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "DOMParser", "createContextualFragment"]
        for (name, asset) in DashboardAssets.compiled.files where name.hasSuffix(".js") || name.hasSuffix(".html") {
            let text = String(decoding: asset.body, as: UTF8.self)
            for word in forbidden { #expect(!text.contains(word), "\(name) uses \(word)") }
            if name.hasSuffix(".html") { #expect(!text.contains("<script>") && !text.contains("style="), "\(name) has inline script or style") }
        }
    }

    @Test("a folder of assets is read per request (working on the dashboard)")
    func folderAssets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<p>one</p>".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let pages = DashboardPages(directory: folder.path)
        let first = pages.response(to: Request(method: .get, target: "/__admin/ui"), hostBelongsToPlatform: false)
        try "<p>two</p>".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let second = pages.response(to: Request(method: .get, target: "/__admin/ui"), hostBelongsToPlatform: false)
        #expect(first?.body == Data("<p>one</p>".utf8) && second?.body == Data("<p>two</p>".utf8))
        #expect(first?.headers["etag"] != second?.headers["etag"])
    }
}
