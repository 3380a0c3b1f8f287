import Foundation
import Testing

@testable import EmulatorCore

/// A bundle import parses on a queue of its own, never on the thread that asked (an event loop's,
/// when a request asks), and hands the bundle to the writer in a box taken once.
@Suite("Bundle parsing off the caller's thread")
struct BundleParsingQueueTests {
    private static func threadID() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    @Test("the parse runs on the parsing queue; the parsed bundle is taken once")
    func parsesOnItsQueue() async throws {
        let caller = Self.threadID()
        let ranOn = try await ProjectBundleStore.onParsingQueue { Self.threadID() }
        #expect(ranOn != caller)
        let parsed = try await ProjectBundleStore.parse(
            Data(#"{"format": "understudy-bundle", "version": 1, "project": {"id": "seeded"}}"#.utf8),
            platforms: [], tables: [])
        #expect(parsed.projectID == "seeded")
        #expect(try parsed.take().projectID == "seeded")
        #expect(throws: AdminError.self) { _ = try parsed.take() }
        await #expect(throws: AdminError.self) {
            _ = try await ProjectBundleStore.parse(Data("{not json".utf8), platforms: [], tables: [])
        }
    }
}
