import Foundation
import Storage

/// One file of the dashboard, ready to serve.
public struct DashboardAsset: Sendable {
    /// The bytes.
    public let body: Data
    /// `Content-Type` for the file's extension.
    public let contentType: String
    /// Strong entity tag: the first 16 hex digits of the SHA-256 of the bytes, quoted.
    public let etag: String
}

/// The dashboard's files (HTML shell, CSS, JavaScript modules, icon), compiled into the binary.
public struct DashboardAssets: Sendable {
    /// Files by name (`app.js`).
    public let files: [String: DashboardAsset]

    /// The files built from `Sources/UnderstudyDashboard/Assets`.
    public static let compiled = DashboardAssets(texts: DashboardAssetFiles.texts)

    /// Assets from names and texts (tests use it to serve a deliberately broken page).
    public init(texts: [String: String]) {
        var files: [String: DashboardAsset] = [:]
        for (name, text) in texts {
            let body = Data(text.utf8)
            files[name] = DashboardAsset(
                body: body, contentType: Self.contentType(of: name),
                etag: "\"" + SHA256Digest.hex(body).prefix(16) + "\"")
        }
        self.files = files
    }

    /// The files of a folder, read now (for working on the dashboard without rebuilding).
    public static func load(directory: String) -> DashboardAssets {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var texts: [String: String] = [:]
        for name in names where !name.hasPrefix(".") {
            if let data = FileManager.default.contents(atPath: directory + "/" + name), let text = String(data: data, encoding: .utf8) { texts[name] = text }
        }
        return DashboardAssets(texts: texts)
    }

    /// The file called `name`, if the dashboard has one.
    public subscript(name: String) -> DashboardAsset? { files[name] }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "json": return "application/json"
        default: return "text/plain; charset=utf-8"
        }
    }
}
