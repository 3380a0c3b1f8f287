import Foundation
import HTTPServer

/// A project's journal as HAR 1.2, the HTTP Archive format Chrome's, Firefox's and Proxyman's
/// network panels import: oldest entry first, bodies as text (or base64 where the journal kept
/// bytes that are not UTF-8), secrets redacted as the journal keeps them.
enum JournalHAR {
    /// The archive of `entries` (newest first, as the journal lists them); `platforms` tell which
    /// host names a platform answers by host, whose paths the client sent without the prefix.
    static func archive(_ entries: [JournalEntry], version: String, platforms: [any Platform]) -> JSONValue {
        [
            "log": [
                "version": "1.2", "creator": ["name": "Understudy", "version": .string(version)],
                "entries": .array(entries.reversed().map { entry($0, platforms: platforms) }),
            ]
        ]
    }

    private static func entry(_ entry: JournalEntry, platforms: [any Platform]) -> JSONValue {
        let milliseconds = max(entry.durationMs, 0)
        return [
            "startedDateTime": .string(entry.time), "time": .double(milliseconds),
            "request": request(entry, platforms: platforms), "response": response(entry),
            "cache": [:], "timings": ["send": 0, "wait": .double(milliseconds), "receive": 0],
            "_understudy": ["id": .int(Int64(entry.id)), "platform": .string(entry.platform), "route": entry.route.map(JSONValue.string) ?? .null],
        ]
    }

    private static func request(_ entry: JournalEntry, platforms: [any Platform]) -> JSONValue {
        var members: [String: JSONValue] = [
            "method": .string(entry.method), "url": .string(url(entry, platforms: platforms)), "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": headers(entry.requestHeaders),
            "queryString": .array(URLQuery.parse(entry.query).map { ["name": .string($0.name), "value": .string($0.value)] }),
            "headersSize": -1, "bodySize": .int(Int64(entry.requestBodySize)),
        ]
        if let body = entry.requestBody, entry.requestBodySize > 0 {
            let mimeType = entry.requestHeaders["content-type"] ?? "application/octet-stream"
            // HAR's postData has no encoding field: bytes that are not text stay base64, marked by the journal's prefix.
            members["postData"] = ["mimeType": .string(mimeType), "text": .string(body)]
        }
        return .object(members)
    }

    private static func response(_ entry: JournalEntry) -> JSONValue {
        var content: [String: JSONValue] = [
            "size": .int(Int64(entry.responseBodySize)), "mimeType": .string(entry.responseHeaders["content-type"] ?? ""),
        ]
        if let body = entry.responseBody {
            if body.hasPrefix("base64:") {
                content["text"] = .string(String(body.dropFirst("base64:".count)))
                content["encoding"] = "base64"
            } else {
                content["text"] = .string(body)
            }
        }
        return [
            "status": .int(Int64(entry.status)), "statusText": .string(entry.status == 0 ? "" : HTTPStatus.reason(entry.status)),
            "httpVersion": "HTTP/1.1", "cookies": [], "headers": headers(entry.responseHeaders), "content": .object(content),
            "redirectURL": .string(entry.responseHeaders["location"] ?? ""), "headersSize": -1, "bodySize": .int(Int64(entry.responseBodySize)),
        ]
    }

    /// The URL the client asked for: the host it named (the proxy's target for tunnelled
    /// requests, over HTTPS), the path it sent and the query. The journal keeps the routed path,
    /// which for a host a platform answers by name (a real service's host) has the platform's prefix
    /// in front of what the client sent.
    static func url(_ entry: JournalEntry, platforms: [any Platform]) -> String {
        let host = entry.proxyHost ?? entry.requestHeaders["host"] ?? "127.0.0.1"
        let scheme = entry.via == "proxy" && entry.proxyHost != nil ? "https" : "http"
        var path = entry.path
        let name = host.hasPrefix("[") ? host : String(host.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
        if let platform = platforms.first(where: { $0.id.rawValue == entry.platform }), let prefix = platform.pathPrefix(forHost: name),
            path == prefix || path.hasPrefix(prefix + "/")
        {
            path = String(path.dropFirst(prefix.count))
            if path.isEmpty { path = "/" }
        }
        return "\(scheme)://\(host)\(path)" + (entry.query.isEmpty ? "" : "?" + entry.query)
    }

    private static func headers(_ fields: [String: String]) -> JSONValue {
        .array(fields.sorted { $0.key < $1.key }.map { ["name": .string($0.key), "value": .string($0.value)] })
    }
}
