import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep bad input and common errors")
struct AsleepBadInputTests {
    /// Status and `detail` of a raw SDK request.
    func answer(
        _ fixture: AsleepFixture, _ method: String, _ path: String, config: AsleepConfig? = nil, apiKey: String? = nil,
        headers: [String: String] = [:], query: [(String, String)] = [], body: String? = nil,
        contentType: String = "application/json"
    ) async throws -> (Int, String?) {
        let response = try await fixture.asleep.raw(
            method, path, config: config, apiKey: apiKey ?? (config == nil ? fixture.apiKey : nil),
            headers: headers, query: query, body: body.map { Data($0.utf8) }, contentType: contentType)
        return (response.status, try? JSONDecoder().decode(AsleepErrorBody.self, from: response.body).detail)
    }

    @Test("malformed users and sessions are rejected with Asleep's documented texts, and nothing is stored")
    func usersAndSessions() async throws {
        try await AsleepFixture.with { fixture in
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: "{nope").0 == 422)
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"birth_year":"1990"}}"#) == (422, "metadata.birth_year: must be an integer"))
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"birth_year":2023,"birth_month":2,"birth_day":29}}"#).0 == 422)
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"birth_month":4,"birth_day":31}}"#).0 == 422)
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"height":170.55}}"#).0 == 422)
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"gender":"robot"}}"#).0 == 422)
            #expect(try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"weight":1000.1}}"#).0 == 422)
            #expect(try await fixture.admin.users()["users"]?.array?.isEmpty == true)
            #expect(
                try await answer(fixture, "POST", "/ai/v1/users", body: #"{"metadata":{"birth_year":2024,"birth_month":2,"birth_day":29,"height":170.5,"gender":"non_binary"}}"#).0
                    == 201)

            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            #expect(try await answer(fixture, "PUT", "/ai/v1/users/\(config.userId)", config: config, body: "{}") == (422, "metadata: field required"))
            #expect(try await answer(fixture, "GET", "/ai/v1/users/G-nobody") == (404, "user does not exist"))
            #expect(
                try await answer(fixture, "POST", "/ai/v1/sessions", config: config, body: #"{"session_start_time":"yesterday"}"#)
                    == (422, "Invalid session start time (YYYY-MM-DDTHH:mm:ssz)"))
            #expect(try await answer(fixture, "POST", "/ai/v1/sessions", config: config, body: #"{"service":5}"#) == (422, "Invalid parameter"))
            #expect(try await answer(fixture, "POST", "/ai/v1/sessions", config: config, headers: ["timezone": "Mars/Olympus"]) == (400, "invalid timezone"))
            #expect(try await answer(fixture, "POST", "/ai/v1/sessions", headers: ["x-user-id": ""]) == (401, "x-user-id is invalid"))
            #expect(try await answer(fixture, "POST", "/ai/v1/sessions", headers: ["x-user-id": "G-nobody"]) == (404, "user does not exist"))
            #expect(try await fixture.admin.sessions()["sessions"]?.array?.isEmpty == true)
            let journal = try await fixture.projectAdmin.waitForRequests(JournalQuery(platform: "asleep", status: 422), count: 9)
            #expect(journal.requests.count >= 9)
        }
    }

    @Test("broken uploads are 4xx and store no chunk; closing with a bad end time is a 400")
    func uploadsAndClose() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            let path = "/ai/v1/sessions/\(session)/upload"
            let multipart = "multipart/form-data; boundary=XyZ"
            func upload(_ body: Data, contentType: String = "multipart/form-data; boundary=XyZ") async throws -> (Int, String?) {
                let response = try await fixture.asleep.raw("POST", path, config: config, body: body, contentType: contentType)
                return (response.status, try? JSONDecoder().decode(AsleepErrorBody.self, from: response.body).detail)
            }
            let truncated = Data(
                "--XyZ\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\n0\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"0.npy\"\r\n\r\nabc".utf8)
            #expect(try await upload(truncated) == (422, "Not valid parameter"))
            // Who is calling is settled before what was sent: a broken upload with a wrong key is a
            // 401. The body is checked before the session, so one to a session that does not exist
            // is still a 422: parsing ahead of the write must not change either order.
            let wrongKey = try await fixture.asleep.raw("POST", path, config: config, apiKey: "wrong", body: truncated, contentType: multipart)
            #expect(wrongKey.status == 401)
            let elsewhere = try await fixture.asleep.raw(
                "POST", "/ai/v1/sessions/20260101000000_abcde/upload", config: config, body: truncated,
                contentType: multipart)
            #expect(elsewhere.status == 422)
            let noFile = Data("--XyZ\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\n0\r\n--XyZ--\r\n".utf8)
            #expect(try await upload(noFile) == (422, "Not valid parameter"))
            #expect(
                try await upload(AsleepClient.multipart(seqNum: nil, chunk: Data("x".utf8), boundary: "XyZ").0, contentType: "multipart/form-data") == (422, "Not valid parameter"))
            let badSeq = Data(
                "--XyZ\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\nfirst\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"0.npy\"\r\n\r\nabc\r\n--XyZ--\r\n"
                    .utf8)
            #expect(try await upload(badSeq) == (422, "Not valid parameter"))
            let wav = AsleepClient.multipart(seqNum: 0, chunk: Data("RIFF0000WAVEfmt ".utf8), boundary: "XyZ").0
            #expect(try await upload(wav) == (400, "AUDIO file cannot be uploaded. Only MELSPECTROGRAM file can be uploaded."))
            let huge = AsleepClient.multipart(seqNum: 0, chunk: Data(count: 16 * 1024 * 1024), boundary: "XyZ").0
            #expect(try await upload(huge) == (413, "HTTP length exceeded 16777216 bytes"))
            #expect(try await upload(AsleepClient.multipart(seqNum: 0, chunk: Data(), callbackUrl: "not a url", boundary: "XyZ").0) == (400, "Not valid callback_url"))
            #expect(try await fixture.admin.session(session)["receivedChunks"]?.int == 0)
            _ = multipart

            // Lenient fallback: a raw body with seq_num in the query is a chunk too.
            let response = try await fixture.asleep.raw(
                "POST", path, config: config, query: [("seq_num", "0")], body: AsleepClient.melChunk(), contentType: "application/octet-stream")
            #expect(response.status == 200)

            let close = "/ai/v1/sessions/\(session)/close"
            #expect(
                try await answer(fixture, "POST", close, config: config, body: #"{"session_end_time":"2026-13-45"}"#)
                    == (400, "Invalid session end time. format(YYYY-MM-DDTHH:mm:ssZ)"))
            #expect(try await answer(fixture, "POST", close, config: config, body: #"{"session_end_time":"2000-01-01T00:00:00Z"}"#).0 == 400)
            #expect(try await fixture.admin.session(session)["state"]?.string == "OPEN")
            #expect(try await answer(fixture, "POST", close, config: config, body: #"{"unexpected":1}"#).0 == 200)
            #expect(try await fixture.admin.session(session)["unexpectedEndTime"]?.isNull == false)
        }
    }

    @Test("data-API parameters are validated; the common 401/403 errors follow the key's state")
    func dataAndCommonErrors() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            var zoned = config
            zoned.timezone = "Not/AZone"
            #expect(try await answer(fixture, "GET", "/data/v1/sessions", config: zoned) == (400, "invalid timezone"))
            #expect(try await answer(fixture, "GET", "/data/v3/sessions/20260101000000_abcde", config: zoned) == (400, "invalid timezone"))
            // Every tz database name a phone may send, canonical or alias; abbreviations are no zone names.
            for (name, status) in [("Asia/Kolkata", 200), ("Asia/Calcutta", 200), ("US/Eastern", 200), ("Etc/UTC", 200), ("PST", 400)] {
                zoned.timezone = name
                #expect(try await answer(fixture, "GET", "/data/v1/sessions", config: zoned).0 == status, "timezone \(name)")
            }
            #expect(try await answer(fixture, "GET", "/data/v3/sessions/20260101000000_abcde", config: config) == (404, "session does not exist"))
            for query in [[("limit", "101")], [("offset", "-1")], [("order_by", "UP")], [("date_gte", "2026-02-30")]] {
                #expect(try await answer(fixture, "GET", "/data/v1/sessions", config: config, query: query).0 == 422)
            }
            let average = "/data/v1/users/\(config.userId)/average-stats"
            #expect(try await answer(fixture, "GET", average, query: [("end_date", "2026-01-01")]).0 == 422)
            #expect(
                // 2026-01-01 → 04-11 is exactly 100 days (accepted, "≤ 100 days"); 04-12 is 101.
                try await answer(fixture, "GET", average, query: [("start_date", "2026-01-01"), ("end_date", "2026-04-12")]) == (
                    400, "The period should be less than or equal to 100 days"
                ))
            #expect(try await answer(fixture, "GET", average, query: [("start_date", "2026-01-01"), ("end_date", "2026-04-10")]).0 == 200)
            #expect(try await answer(fixture, "GET", average, query: [("start_date", "2026-02-01"), ("end_date", "2026-01-01")]) == (400, "Invalid period"))
            #expect(
                try await answer(fixture, "GET", "/data/v1/users/G-x/average-stats", query: [("start_date", "2026-01-01"), ("end_date", "2026-01-02")])
                    == (404, "Unable to find the user of id G-x"))

            #expect(try await answer(fixture, "GET", "/ai/v1/users/\(config.userId)", apiKey: "wrong") == (401, "Unauthorized"))
            #expect(try await fixture.asleep.raw("GET", "/ai/v1/users/\(config.userId)").status == 401)
            for (state, detail) in [("plan_expired", "Plan is expired"), ("rate_limited", "Rate limit exceeded"), ("quota_exceeded", "Quota exceeded")] {
                try await fixture.admin.updateKey(fixture.apiKey, ["state": .string(state)])
                #expect(try await answer(fixture, "GET", "/ai/v1/users/\(config.userId)") == (403, detail))
            }
            try await fixture.admin.updateKey(fixture.apiKey, ["state": "active"])
            // A user belongs to the customer of the key that created it.
            let other = try #require(try await fixture.admin.addKey()["apiKey"]?.string)
            #expect(try await answer(fixture, "GET", "/ai/v1/users/\(config.userId)", apiKey: other) == (404, "user does not exist"))
            #expect(try await answer(fixture, "GET", "/nowhere/at/all") == (404, "Not Found"))
        }
    }

    @Test("faults answer in Asleep's format and leave no state; the real host name routes without the prefix")
    func faultsAndHostRouting() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "asleep", path: "/ai/v1/sessions/*/upload"),
                    action: .init(type: "status", status: 500), times: 1))
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: AsleepClient.melChunk()) } throws: {
                let error = $0 as? UnderstudyClientError
                return error?.asleepStatus == 500 && error?.asleepDetail == "Internal Server Error"
            }
            #expect(try await fixture.admin.session(session)["receivedChunks"]?.int == 0)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: AsleepClient.melChunk()).seqNum == 0)
            let injected = try await answer(fixture, "GET", "/ai/v1/users/\(config.userId)", headers: ["X-Understudy-Fault": "status=403"])
            #expect(injected == (403, "Plan is expired"))

            let viaHost = try await fixture.server.client.send(
                ClientRequest(
                    method: "GET", path: "/ai/v1/users/\(config.userId)",
                    headers: ["Host": "api.asleep.ai", "x-api-key": fixture.apiKey]))
            #expect(viaHost.status == 200)
        }
    }
}
