import Foundation
import HTTPServer

/// The files `projects export` and `projects import` use.
enum ControlFiles {
    /// The bytes of `path`, or standard input for `-`.
    static func read(_ path: String) throws(ControlLocalError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: path) else { throw ControlLocalError(description: "cannot read \(path)") }
        return data
    }

    /// Writes `data` to a fresh temporary file beside `path` and renames it over (`AtomicFile`):
    /// an interrupted export never leaves half a bundle, and a link at `path` is refused.
    static func write(_ data: Data, to path: String) throws(ControlLocalError) {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw ControlLocalError(description: "cannot write \(error.description)")
        }
    }
}
