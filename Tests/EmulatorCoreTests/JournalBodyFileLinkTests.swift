import Foundation
import Testing

@testable import EmulatorCore

/// The journal's body segments are created exclusively and opened without following links, so a
/// link placed in the bodies directory never takes a body's bytes, nor hands a reader another
/// file's.
@Suite("Journal body segments and links")
struct JournalBodyFileLinkTests {
    private struct Folder {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-links-\(UUID().uuidString)").path
        var victim: String { directory + "-victim" }
        static let victimBytes = Data("the victim's own bytes".utf8)

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.victimBytes.write(to: URL(fileURLWithPath: victim))
        }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: target)
        }

        var victimIntact: Bool { FileManager.default.contents(atPath: victim) == Self.victimBytes }

        func remove() {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: victim)
        }
    }

    private static func body(_ seed: UInt8, count: Int = 20_000) -> Data { Data(repeating: seed, count: count) }

    @Test("a link named like a spare is not taken as one: the next body goes to a file of its own")
    func linkAsSpare() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try folder.link("0.spare", to: folder.victim)
        let file = try JournalBodyFile(directory: folder.directory, segmentBytes: 65_536, highestPosition: nil)
        let body = Self.body(7)
        let position = try body.withUnsafeBytes { try file.append($0) }
        #expect(folder.victimIntact)
        #expect(file.read(position: position, count: body.count) == body)
    }

    @Test("a link at the next segment's name: the append fails naming that file, and the file linked to is left alone")
    func linkAtNextSegment() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try JournalBodyFile(directory: folder.directory, segmentBytes: 65_536, highestPosition: nil)
        try folder.link("0.bodies", to: folder.victim)
        let body = Self.body(8)
        do {
            _ = try body.withUnsafeBytes { try file.append($0) }
            Issue.record("a body was appended through a link")
        } catch {
            let text = String(describing: error)
            #expect(text.contains(folder.directory + "/0.bodies") && text.contains("symbolic link"), "\(text)")
        }
        #expect(folder.victimIntact)
    }

    @Test("a link put in a segment's place reads as no body, not as the bytes of the file it points at")
    func readThroughLink() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let file = try JournalBodyFile(directory: folder.directory, segmentBytes: 65_536, highestPosition: nil)
        let body = Self.body(9, count: Folder.victimBytes.count)
        let position = try body.withUnsafeBytes { try file.append($0) }
        #expect(file.read(position: position, count: body.count) == body)
        try FileManager.default.removeItem(atPath: folder.directory + "/0.bodies")
        try folder.link("0.bodies", to: folder.victim)
        #expect(file.read(position: position, count: body.count) == nil)
    }
}
