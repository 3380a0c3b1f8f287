import Dispatch
import Foundation
import Synchronization

extension ProjectBundleStore {
    /// Where bundles are read and parsed: a queue of its own. A 30 MB bundle is most of a second
    /// of CPU; on an event loop every other connection of that loop (health probes among them)
    /// waited unread meanwhile, and on the cooperative pool it would hold one of its few threads.
    static let parsingQueue = DispatchQueue(label: "understudy.bundles.parse", qos: .userInitiated)

    /// Runs `body` on `parsingQueue` and returns its result to the caller's executor.
    static func onParsingQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            parsingQueue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// `ProjectBundle.parse` on `parsingQueue`, handed over in a `ParsedBundle`.
    static func parse(_ data: Data, platforms: [PlatformID], tables: [String]) async throws -> ParsedBundle {
        try await onParsingQueue { ParsedBundle(try ProjectBundle.parse(data, platforms: platforms, tables: tables)) }
    }

    /// Lets `bundle` go on `parsingQueue`: freeing a big one's rows (hundreds of thousands of
    /// values) is tens of milliseconds, which the writer, or an event loop, would spend otherwise.
    static func release(_ bundle: ProjectBundle) {
        parsingQueue.async { withExtendedLifetime(bundle) {} }
    }
}

/// A parsed bundle on its way from the parsing queue to the writer. The event loop that asked for
/// the import only holds this box: had it held the bundle, the bundle's last reference could be
/// dropped there, and freeing 100,000 rows held a loop for as long as parsing them had.
final class ParsedBundle: Sendable {
    /// The bundle's own `project.id`, read without taking the bundle.
    let projectID: ProjectID?
    private let slot: Mutex<ProjectBundle?>

    init(_ bundle: ProjectBundle) {
        projectID = bundle.projectID
        slot = Mutex(bundle)
    }

    /// The bundle, once; the box is empty afterwards.
    func take() throws -> ProjectBundle {
        guard let bundle = slot.withLock({ $0.take() }) else { throw AdminError.badRequest("The bundle was already imported.") }
        return bundle
    }
}
