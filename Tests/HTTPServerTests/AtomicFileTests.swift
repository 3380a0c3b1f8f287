import Foundation
import HTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way Understudy writes files: never through or over a link, whole or not at all.
@Suite("Files are written without following links")
struct AtomicFileTests {
    /// A fresh folder holding `victim`, a file a link may point at, with known bytes.
    private func folder() throws -> (folder: String, victim: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let victim = folder + "/victim"
        try Data("the victim's own bytes".utf8).write(to: URL(fileURLWithPath: victim))
        return (folder, victim)
    }

    private func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private func leftovers(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }
    }

    @Test("a write replaces the file whole, with the mode asked for, and leaves no temporary file")
    func replaces() throws {
        let (folder, _) = try folder()
        let target = folder + "/bundle.json"
        try AtomicFile.write(Data("first".utf8), to: target)
        try AtomicFile.write(Data("second".utf8), to: target)
        #expect(text(target) == "second")
        try AtomicFile.write([UInt8]("key".utf8), to: folder + "/key.pem", mode: 0o600, exactMode: true)
        let mode = (try FileManager.default.attributesOfItem(atPath: folder + "/key.pem")[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        #expect(try leftovers(folder).isEmpty)
    }

    @Test("a link at the target is refused with an error naming it; the link and what it points at are left alone")
    func linkAtTarget() throws {
        let (folder, victim) = try folder()
        let target = folder + "/demo.json"
        try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: victim)
        #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("bundle".utf8), to: target) }
        do {
            try AtomicFile.write(Data("bundle".utf8), to: target)
        } catch {
            #expect(error.path == target && error.reason.contains("symbolic link"), "\(error)")
        }
        #expect(AtomicFile.isSymbolicLink(target))
        #expect(text(victim) == "the victim's own bytes")
        #expect(try leftovers(folder).isEmpty)
        // A dangling link is refused too: it would otherwise create the file it names.
        let dangling = folder + "/dangling.json"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/created-through-the-link")
        #expect(throws: FileWriteError.self) { try AtomicFile.write(Data("bundle".utf8), to: dangling) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/created-through-the-link"))
    }

    @Test("a link at the old, predictable temporary name is never written through")
    func linkAtPredictableTemporaryName() throws {
        let (folder, victim) = try folder()
        let target = folder + "/demo.json"
        // Understudy once wrote `.demo.json.partial`, so a link placed there redirected the export.
        try FileManager.default.createSymbolicLink(atPath: folder + "/.demo.json.partial", withDestinationPath: victim)
        try AtomicFile.write(Data("bundle".utf8), to: target)
        #expect(text(victim) == "the victim's own bytes")
        #expect(!AtomicFile.isSymbolicLink(target) && text(target) == "bundle")
    }

    @Test("temporary names are fresh and random: nobody can prepare one")
    func temporaryNames() {
        let names = (0..<100).map { _ in AtomicFile.temporaryName(for: "demo.json") }
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix(".demo.json.") && $0.hasSuffix(".partial") && AtomicFile.isTemporaryName($0, for: "demo.json") })
        #expect(!AtomicFile.isTemporaryName(".demo.json.partial", for: "demo.json"))
    }

    @Test("creating exclusively refuses a link (dangling or not) or a file at the name, naming the path")
    func exclusiveCreation() throws {
        let (folder, victim) = try folder()
        let link = folder + "/0.bodies"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        do {
            let descriptor = try AtomicFile.createExclusively(link, mode: 0o644)
            close(descriptor)
            Issue.record("a link was opened for writing")
        } catch {
            #expect(error.path == link && error.reason.contains("symbolic link"), "\(error)")
        }
        let dangling = folder + "/1.bodies"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/nothing-yet")
        #expect(throws: FileWriteError.self) { close(try AtomicFile.createExclusively(dangling, mode: 0o644)) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/nothing-yet"))
        #expect(throws: FileWriteError.self) { close(try AtomicFile.createExclusively(victim, mode: 0o644)) }
        #expect(text(victim) == "the victim's own bytes")
        let fresh = try AtomicFile.createExclusively(folder + "/2.bodies", mode: 0o644)
        close(fresh)
    }

    @Test("opening an existing file refuses a link and answers nil for nothing there")
    func openExisting() throws {
        let (folder, victim) = try folder()
        let link = folder + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(throws: FileWriteError.self) { _ = try AtomicFile.openExisting(link, flags: O_RDONLY) }
        #expect(try AtomicFile.openExisting(folder + "/absent", flags: O_RDONLY) == nil)
        let descriptor = try #require(try AtomicFile.openExisting(victim, flags: O_RDONLY))
        close(descriptor)
    }
}
