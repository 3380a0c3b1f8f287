import Foundation
import HTTPServer
import Storage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal's large shared bodies, kept in segment files next to the journal's SQLite file
/// instead of inside it.
///
/// In SQLite a 30 KB upload's body was written into the log, copied into the file (and synced)
/// by the checkpoint, and read back at eviction to free its overflow pages: a third of what the
/// upload cost the server. Here it is one `pwrite` into the page cache, and a segment's file is
/// deleted whole once no stored body lies in it.
///
/// Positions count bytes in one sequence cut into segments of `segmentBytes`: segment `n` is the
/// file `n.bodies` and holds positions `n × segmentBytes ..< (n + 1) × segmentBytes`; no body
/// spans two. A body is written before the transaction that names it commits, and a segment is
/// written over only once no row names anything in it, so a row never names bytes that are not
/// its body's; a crash or a failed transaction leaves at most bytes that no row names, deleted
/// with their segment.
///
/// A segment no body lies in any more is kept as a spare (up to `maxSpares`) and renamed to be the
/// next segment, which overwrites it: appending to a new file made the file system allocate and
/// cache every page anew, and that cost as much again as copying the bytes (`ext4_da_write_begin`,
/// 6% of an upload's samples), where a page already cached and allocated is only written over.
final class JournalBodyFile: Sendable {
    /// Bodies of this many stored bytes or more are kept here. A smaller one fits on the page
    /// of the journal file that SQLite writes for its row anyway.
    static let minimumBytes = 16 * 1024

    /// The directory holding the segment files.
    let directory: String
    /// Bytes per segment: how much disk a segment that one long-lived body keeps can hold.
    let segmentBytes: Int
    /// Unnamed segments kept to be written over.
    static let maxSpares = 2

    private struct Appending {
        /// The segment bodies are appended to; it and later ones are never deleted.
        var segment: Int
        /// Its open file, -1 until its first body.
        var descriptor: Int32 = -1
        /// The next body's position.
        var next: Int
        /// Files of unnamed segments, to become the next segments.
        var spares: [String] = []
    }

    private let appending: Mutex<Appending>

    /// Opens `directory` (creating it), appending to a new segment after every one there and
    /// after `highestPosition`, the last position a stored body names: never to a file an
    /// earlier run wrote, whose end may hold bytes no row names.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    init(directory: String, segmentBytes: Int = 16 << 20, highestPosition: Int?) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.segmentBytes = segmentBytes
        let named = highestPosition.map { $0 / segmentBytes } ?? -1
        let first = max(Self.segments(in: directory).max() ?? -1, named) + 1
        // Only files this journal made: a link named like a spare would be renamed to be a segment
        // and the next body written through it.
        let spares = Self.names(in: directory).filter { $0.hasSuffix(".spare") && AtomicFile.isRegularFile(directory + "/" + $0) }
        appending = Mutex(Appending(segment: first, next: first * segmentBytes, spares: spares.map { directory + "/" + $0 }))
    }

    deinit {
        appending.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Whether a body of `count` stored bytes is kept here.
    func keeps(_ count: Int) -> Bool { count >= Self.minimumBytes && count <= segmentBytes }

    /// Appends `bytes` and returns their position. Only the journal's writer calls this.
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        try appending.withLock { state throws -> Int in
            let segmentStart = state.segment * segmentBytes
            if state.next + bytes.count > segmentStart + segmentBytes, state.next > segmentStart {
                if state.descriptor >= 0 { close(state.descriptor) }
                state.descriptor = -1
                state.segment += 1
                state.next = state.segment * segmentBytes
            }
            if state.descriptor < 0 { state.descriptor = try openNextSegment(&state) }
            var written = 0
            let offset = state.next - state.segment * segmentBytes
            while written < bytes.count {
                let count = pwrite(state.descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + written))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw JournalBodyFileError(path: path(state.segment), reason: "cannot write: \(String(cString: strerror(errno)))") }
                written += count
            }
            defer { state.next += bytes.count }
            return state.next
        }
    }

    /// Opens the segment bodies are appended to next: a spare renamed to its name (written over
    /// in place), else a new file. Neither open follows a link: a segment is created exclusively,
    /// and a spare is opened without following, so nothing placed in the directory redirects a
    /// body's bytes into another file.
    private func openNextSegment(_ state: inout Appending) throws -> Int32 {
        let path = path(state.segment)
        do {
            if let spare = state.spares.popLast(), rename(spare, path) == 0, let descriptor = try AtomicFile.openExisting(path, flags: O_WRONLY) {
                return descriptor
            }
            return try AtomicFile.createExclusively(path, mode: 0o644)
        } catch {
            throw JournalBodyFileError(path: error.path, reason: error.reason)
        }
    }

    /// Appends `body`'s stored bytes and returns their position.
    func append(_ body: Journal.StoredBody) throws -> Int {
        switch body {
        case .bytes(let bytes): return try bytes.withUnsafeBytes { try append($0) }
        case .text(var text): return try text.withUTF8 { try append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// The `count` bytes at `position`; nil when its segment is gone, holds fewer or was renamed
    /// meanwhile (a reader that read the row just before an eviction deleted it).
    func read(position: Int, count: Int) -> Data? {
        let path = path(position / segmentBytes)
        // A link put in a segment's place is no body.
        guard let descriptor = try? AtomicFile.openExisting(path, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        var data = Data(count: count)
        let offset = position % segmentBytes
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        // A segment an eviction left unnamed may be renamed to be a later one and written over.
        // Segment numbers only grow, so while this path still names the file that was read, the
        // rename, and so any overwrite, came after the read.
        var read = stat(), current = stat()
        guard complete, fstat(descriptor, &read) == 0, stat(path, &current) == 0,
            read.st_ino == current.st_ino, read.st_dev == current.st_dev
        else { return nil }
        return data
    }

    /// The segments before the one being appended to that no stored body lies in, as the
    /// transaction on `connection` sees the table. Deleting their files must wait until that
    /// transaction commits: rolled back, it would name bodies in them again.
    func unnamedSegments(connection: any StoreConnection) throws -> [Int] {
        let current = appending.withLock { $0.segment }
        return try Self.segments(in: directory).filter { $0 < current }.sorted().filter { segment in
            try connection.queryOne(
                "SELECT 1 AS named FROM journal_bodies WHERE file_position >= ? AND file_position < ? LIMIT 1",
                segment * segmentBytes, (segment + 1) * segmentBytes) == nil
        }
    }

    /// Deletes the files of `segments` (what `unnamedSegments` found, once committed), or keeps
    /// them as spares.
    func delete(_ segments: [Int]) {
        guard !segments.isEmpty else { return }
        appending.withLock { state in
            for segment in segments {
                let spare = directory + "/" + String(segment) + ".spare"
                if state.spares.count < Self.maxSpares, rename(path(segment), spare) == 0 {
                    state.spares.append(spare)
                } else {
                    unlink(path(segment))
                }
            }
        }
    }

    /// The size of every file in the directory (segments and spares).
    func fileBytes() -> Int {
        Self.names(in: directory).reduce(0) { total, name in
            total + (((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int) ?? 0)
        }
    }

    private func path(_ segment: Int) -> String { directory + "/" + String(segment) + ".bodies" }

    private static func segments(in directory: String) -> [Int] {
        names(in: directory).compactMap { name in name.hasSuffix(".bodies") ? Int(name.dropLast(7)) : nil }
    }

    /// The directory's file names; none when it cannot be listed.
    private static func names(in directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }
}

/// A segment file of the journal's bodies could not be created, opened or written.
struct JournalBodyFileError: Error, CustomStringConvertible {
    /// The segment's file.
    var path: String
    /// What was wrong (`cannot create: File exists`, `is a symbolic link; …`).
    var reason: String

    var description: String { "journal body segment \(path): \(reason)" }
}
