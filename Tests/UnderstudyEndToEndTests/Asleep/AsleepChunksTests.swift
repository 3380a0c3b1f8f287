import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// `GET …/asleep/sessions/{id}/chunks`: which chunks arrived, how big each was, and whether its
/// bytes are the ones the app sent. The digests are the FIPS 180-2 SHA-256 test vectors, written
/// out rather than computed, so the tests do not check the server's hashing with itself.
@Suite("Asleep session chunks in the control plane")
struct AsleepChunksTests {
    /// "abc": three bytes that sniff as neither NumPy nor audio, which a MELSPECTROGRAM session accepts.
    static let short = Data("abc".utf8)
    static let shortSHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    /// The 56-byte message of the second test vector.
    static let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    static let longSHA256 = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"

    /// Uploads `chunk` as `seqNum` the way a client without the SDK's form can: the body is the
    /// chunk, the number is in the query.
    func rawUpload(_ fixture: AsleepFixture, _ config: AsleepConfig, session: String, seqNum: Int, _ chunk: Data) async throws -> Int {
        try await fixture.asleep.raw(
            "POST", "/ai/v1/sessions/\(session)/upload", config: config, query: [("seq_num", String(seqNum))],
            body: chunk, contentType: "application/octet-stream"
        ).status
    }

    @Test("multipart and raw uploads are listed by seqNum with their sizes, SHA-256 and arrival times")
    func uploadedChunks() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            #expect(try await fixture.admin.chunks(sessionId: session).isEmpty)

            // Sent out of order, so the listing's order is its own and not the order of arrival.
            _ = try await fixture.projectAdmin.advanceClock(by: 30)
            #expect(try await rawUpload(fixture, config, session: session, seqNum: 1, Self.long) == 200)
            _ = try await fixture.projectAdmin.advanceClock(by: 30)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: Self.short).seqNum == 0)

            let chunks = try await fixture.admin.chunks(sessionId: session)
            #expect(
                chunks == [
                    AsleepChunk(seqNum: 0, size: 3, sha256: Self.shortSHA256, receivedAt: "2026-03-01T22:01:00.000Z", seeded: false),
                    AsleepChunk(seqNum: 1, size: 56, sha256: Self.longSHA256, receivedAt: "2026-03-01T22:00:30.000Z", seeded: false),
                ])
            #expect(try await fixture.admin.session(session)["receivedChunks"]?.int == chunks.count)
        }
    }

    @Test("a re-sent chunk with other bytes keeps the first copy's size, hash and time")
    func resentChunkKeepsFirstCopy() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.projectAdmin.advanceClock(by: 30)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: Self.short)
            let first = try await fixture.admin.chunks(sessionId: session)
            #expect(first == [AsleepChunk(seqNum: 0, size: 3, sha256: Self.shortSHA256, receivedAt: "2026-03-01T22:00:30.000Z", seeded: false)])

            _ = try await fixture.projectAdmin.advanceClock(by: 30)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: Self.long).seqNum == 0)
            #expect(try await rawUpload(fixture, config, session: session, seqNum: 0, Self.long) == 200)
            #expect(try await fixture.admin.chunks(sessionId: session) == first)
        }
    }

    @Test("seeded chunks have no bytes: size 0, no hash, seeded; missing numbers are absent; uploads after them are hashed")
    func seededChunks() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            try await fixture.admin.seedUser(["userId": "G-seeded"])
            let seeded = try await fixture.admin.seedSession(["userId": "G-seeded", "state": "OPEN", "chunks": 5, "missingSeqNums": [1, 3]])
            let session = try #require(seeded["sessionId"]?.string)
            let chunks = try await fixture.admin.chunks(sessionId: session)
            #expect(chunks.map(\.seqNum) == [0, 2, 4])
            #expect(chunks.allSatisfy { $0.seeded && $0.sha256 == nil && $0.size == 0 && $0.receivedAt == "2026-03-01T22:00:00.000Z" })

            // The app goes on tracking the seeded night: its chunk is listed as sent.
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: "G-seeded")
            _ = try await fixture.projectAdmin.advanceClock(by: 30)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 5, chunk: Self.short).seqNum == 5)
            let after = try await fixture.admin.chunks(sessionId: session)
            #expect(after.map(\.seqNum) == [0, 2, 4, 5])
            #expect(after.last == AsleepChunk(seqNum: 5, size: 3, sha256: Self.shortSHA256, receivedAt: "2026-03-01T22:00:30.000Z", seeded: false))
        }
    }

    @Test("an unknown session, or another project's, is the same 404 as reading the session")
    func unknownSession() async throws {
        try await AsleepFixture.with { fixture in
            func notFound(_ path: String, project: String? = nil) async throws -> AdminErrorBody? {
                let response = try await fixture.server.client.admin.project(project ?? fixture.project.id).platformRequest("asleep", "GET", path)
                #expect(response.status == 404, "\(path): \(response.text)")
                return try? JSONDecoder().decode(AdminErrorBody.self, from: response.body)
            }
            let missing = try #require(try await notFound("/sessions/20260101000000_nope0/chunks"))
            #expect(missing.error.code == "not_found")
            #expect(try await notFound("/sessions/20260101000000_nope0") == missing)
            await #expect { _ = try await fixture.admin.chunks(sessionId: "20260101000000_nope0") } throws: {
                ($0 as? UnderstudyClientError)?.asleepStatus == 404
            }

            // Session ids are global, but a session is only found in its own project.
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: Self.short)
            let other = try await fixture.server.makeProject(name: "other")
            #expect(try await notFound("/sessions/\(session)/chunks", project: other.id)?.error.code == "not_found")
            #expect(try await fixture.admin.chunks(sessionId: session).count == 1)
        }
    }
}
