import Dispatch
import Foundation
import Storage
import Synchronization

/// A PostgreSQL database as the store behind one server, shared with any number of other
/// Understudy instances.
///
/// Writes run in the order queued on one writer connection with its own serial queue, each in
/// its own transaction, and return once it committed — an acknowledged write is in PostgreSQL
/// before its response goes out. Reads run in a repeatable-read snapshot on a few reader lanes,
/// each a connection with its own serial queue. Every call waits on the network, so none runs on
/// the caller's thread. A connection the server dropped is reconnected on next use; until the
/// server is back, requests fail with `StoreUnavailableError`, which platforms answer with 503.
public final class PostgresDatabase: Database {
    private final class Lane: @unchecked Sendable { // `connection` is only used on `queue`
        let queue: DispatchQueue
        var connection: PostgresStoreConnection?
        let location: PostgresLocation
        init(label: String, location: PostgresLocation, connection: PostgresStoreConnection?) {
            queue = DispatchQueue(label: label)
            self.location = location
            self.connection = connection
        }

        /// The lane's connection, reconnected (or replaced) when the server dropped it.
        func usable() throws -> PostgresStoreConnection {
            if let connection, connection.isConnected { return connection }
            if let connection {
                try connection.reconnect()
                return connection
            }
            let fresh = try PostgresStoreConnection(location: location)
            connection = fresh
            return fresh
        }

        /// Runs `body` with the lane's connection on its queue and returns what it returned.
        func run<T: Sendable>(_ body: @escaping @Sendable (PostgresStoreConnection) throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try body(try self.usable()) }) }
            }
        }
    }

    /// Where the data lives.
    public let postgres: PostgresLocation
    private let writer: Lane
    private let pool: [Lane]
    private let identifiers: Lane
    private let nextPool = Atomic<Int>(0)
    /// Set when the database goes, so its listener thread ends.
    private let released = Flag()

    /// A flag shared with the listener thread, which must not keep the database alive.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// The location without its password.
    public var location: String { postgres.redactedDescription }
    /// PostgreSQL's.
    public var dialect: SQLDialect { .postgres }

    // Classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md.
    /// Connects (the writer at once, so a wrong location fails here); throws `StoreUnavailableError`
    /// or the connection's error.
    @inline(never)
    public init(location: PostgresLocation, poolSize: Int = 2) throws {
        postgres = location
        writer = Lane(label: "understudy.postgres.writer", location: location, connection: try PostgresStoreConnection(location: location))
        pool = (0..<max(1, poolSize)).map { Lane(label: "understudy.postgres.pool.\($0)", location: location, connection: nil) }
        identifiers = Lane(label: "understudy.postgres.ids", location: location, connection: nil)
    }

    /// Runs `body` in its own transaction on the writer connection, in queue order.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await writer.run { connection in try connection.transaction(immediate: true) { try body(connection) } }
    }

    /// Queues `body` as a write in its own transaction; `completion` runs on the writer queue.
    public func enqueueWrite(_ body: @escaping @Sendable (any StoreConnection) throws -> Void, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let writer = writer
        writer.queue.async {
            do {
                let connection = try writer.usable()
                try connection.transaction(immediate: true) { try body(connection) }
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Runs `body` in a read-only snapshot on one of the reader lanes. Unlike SQLite's reads,
    /// these wait on the network, so they never run on the caller's (cooperative) thread.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await readOnPool(body)
    }

    /// Runs `body` in a read-only snapshot on one of the pool's own queues.
    @discardableResult
    public func readOnPool<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        let lane = pool[nextPool.wrappingAdd(1, ordering: .relaxed).oldValue % pool.count]
        return try await lane.run { connection in try connection.snapshot { try body(connection) } }
    }

    /// Applies `migrator`'s pending migrations on the writer connection (at start) and returns their ids.
    public func migrate(with migrator: Migrator) throws -> [String] {
        try writer.queue.sync { try migrator.migrate(try writer.usable()) }
    }

    /// Other instances may serve the same database.
    public var isShared: Bool { true }

    /// Nil: other instances write to the same database unseen, so no derived answer is reused.
    public var localChangeCount: Int? { nil }

    /// `nextval` of the journal's id sequence, on a lane of its own (outside any transaction:
    /// reader lanes are read-only, and the writer's queue is for writes).
    public func nextSharedRequestID() async throws -> Int? {
        try await identifiers.run { connection in
            try Row(columns: ["id"], values: [try connection.scalar("SELECT nextval('journal_ids')")]).decode("id", as: Int.self)
        }
    }

    /// Listens on a connection of its own, on a thread of its own (it blocks in `poll`), and
    /// stops within a second of the database's release.
    public func observeAnnouncements(_ handler: @escaping @Sendable (String) -> Void) {
        let location = postgres, released = released
        let thread = Thread {
            var connection: PostgresConnection?
            // Until the first LISTEN is in place, announcements go unheard: the first connection
            // is followed by a full resync too.
            var missed = true
            while !released.isSet {
                do {
                    if connection == nil || connection?.isConnected == false {
                        let fresh = try PostgresConnection(location: location)
                        try fresh.executeScript("LISTEN understudy_changes")
                        connection = fresh
                        // Whatever was announced while no one listened is unknown: everything may have changed.
                        if missed { handler("*") }
                        missed = false
                    }
                    for payload in try connection!.notifications(timeout: 1) { handler(payload) }
                } catch {
                    connection = nil
                    missed = true
                    Thread.sleep(forTimeInterval: 0.2)
                }
            }
        }
        thread.name = "understudy.postgres.listener"
        thread.start()
    }

    deinit { released.set() }

    /// The database's size on the server.
    public func storedBytes() async throws -> Int {
        try await readOnPool { try $0.scalar("SELECT pg_database_size(current_database())").int ?? 0 }
    }

    /// Runs `body` on the writer connection, on the writer queue, blocking the caller.
    public func withWriterBlocking<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try writer.queue.sync { try body(try writer.usable()) }
    }
}
