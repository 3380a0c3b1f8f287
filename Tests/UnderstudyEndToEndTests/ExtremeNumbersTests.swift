import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Numbers and times a request can carry that once stopped or broke the server: each must be a
/// 4xx in the owner's format, and the server must go on answering.
@Suite("Extreme numbers and times on the wire")
struct ExtremeNumbersTests {
    /// `method path` with a raw JSON body (so `-9223372036854775808` and `1e400` go as written).
    static func send(
        _ server: UnderstudyTestServer, _ method: String, _ path: String, _ body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: String) {
        let root = server.url.absoluteString.hasSuffix("/") ? String(server.url.absoluteString.dropLast()) : server.url.absoluteString
        var request = URLRequest(url: try #require(URL(string: root + path)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("WarrantyLife: Int64.min in an integer field is a 400 validation_failed, and the server lives")
    func warrantyLifeInt64Min() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let key = ["X-WL-Developer-Key": "demo0000000000000000000000000000"]
            for field in ["country", "state"] {
                let answer = try await Self.send(
                    server, "POST", "/warrantylife/mapi/wi/100/auth/user",
                    #"{"email":"a\#(field)@example.com","password":"pw-123456","\#(field)":-9223372036854775808}"#, headers: key)
                #expect(answer.status == 400, "\(answer)")
                #expect(answer.body.contains("validation_failed"), "\(answer.body)")
            }
            #expect(try await Self.send(server, "GET", "/__admin/health").status == 200)
        }
    }

    @Test("the clock: PUT offsets and instants beyond 100 years are 400s, advancing past them too")
    func clockBounds() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.client.admin.createProject(name: "clock").id
            let path = "/__admin/projects/\(project)/clock"
            for body in [
                #"{"mode":"offset","offsetSeconds":1e19}"#, #"{"mode":"offset","offsetSeconds":-9.3e18}"#,
                #"{"mode":"offset","offsetSeconds":1e300}"#, #"{"mode":"offset","offsetSeconds":3200000000}"#,
                #"{"mode":"frozen","now":"2199-01-01T00:00:00Z"}"#, #"{"mode":"frozen","now":"99999-01-01T00:00:00Z"}"#,
                #"{"mode":"offset","now":"+275760-09-13T00:00:00Z"}"#,
            ] {
                let answer = try await Self.send(server, "PUT", path, body)
                #expect(answer.status == 400, "\(body): \(answer)")
            }
            // At the bound is fine: 99 years ahead, then ten-year steps until one would pass it.
            #expect(try await Self.send(server, "PUT", path, #"{"mode":"offset","offsetSeconds":3124202400}"#).status == 200)
            let advanced = try await Self.send(server, "POST", path + "/advance", #"{"seconds":315360000}"#)
            #expect(advanced.status == 400 && advanced.body.contains("clock_out_of_range"), "\(advanced)")
            let listed = try await Self.send(server, "GET", "/__admin/projects")
            #expect(listed.status == 200)
        }
    }

    @Test("a bundle: a clock beyond 100 years and a timestamp cell that is no timestamp are 400s")
    func bundleBounds() async throws {
        try await UnderstudyTestServer.with { server in
            let source = try await server.client.admin.createProject(name: "source")
            _ = try await server.client.warpLink.project(source.id).createLink(WarpLinkLinkSeed(slug: "extreme", destinationURL: "https://example.com/x"))
            var bundle = try JSONValue.parse(try await server.client.admin.project(source.id).export())
            try await server.client.admin.project(source.id).delete()
            guard case .object(var members) = bundle else { Issue.record("no bundle"); return }
            members["credentials"] = nil
            for clock: JSONValue in [
                ["mode": "offset", "offsetSeconds": 1e19], ["mode": "offset", "offsetSeconds": -1e300],
                ["mode": "frozen", "frozenAt": "9999-12-31T23:59:59Z"],
            ] {
                var copy = members
                copy["clock"] = clock
                let answer = try await Self.send(server, "POST", "/__admin/projects/import?id=clocked", String(decoding: JSONValue.object(copy).encoded(), as: UTF8.self))
                #expect(answer.status == 400 && answer.body.contains("100 years"), "\(clock): \(answer)")
            }
            guard case .object(var tables)? = members["tables"], case .object(var links)? = tables["warplink_links"],
                let index = links["columns"]?.arrayValue?.firstIndex(of: "created_at"), case .array(var rows)? = links["rows"],
                case .array(var row)? = rows.first
            else { Issue.record("no warplink_links.created_at"); return }
            for cell: JSONValue in ["1e999", "99999-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-01-01T24:00:00+99:59"] {
                row[index] = cell
                rows[0] = .array(row)
                links["rows"] = .array(rows)
                tables["warplink_links"] = .object(links)
                members["tables"] = .object(tables)
                bundle = .object(members)
                let answer = try await Self.send(server, "POST", "/__admin/projects/import?id=stamped", String(decoding: bundle.encoded(), as: UTF8.self))
                #expect(answer.status == 400 && answer.body.contains("created_at"), "\(cell): \(answer)")
            }
            #expect(try await server.client.admin.projects().map(\.id).contains("stamped") == false)
        }
    }
}
