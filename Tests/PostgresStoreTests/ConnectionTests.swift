import Foundation
import PostgresStore
import TestPostgres
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `PostgresConnection` against a real server: values, prepared statements, transactions, errors.
@Suite("PostgreSQL connection")
struct ConnectionTests {
    @Test("text, integer, double, bytes and NULL survive a round trip")
    func values() throws {
        try TestPostgres.withConnection { connection in
            try connection.executeScript("CREATE TABLE t (s TEXT, i BIGINT, d DOUBLE PRECISION, b BYTEA, n TEXT)")
            let bytes = Data([0, 1, 2, 0xfe, 0xff, 0x5c, 0x27])
            let inserted = try connection.execute(
                "INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
                [.text("héllo 'q' ?"), .integer(-9_007_199_254_740_993), .double(0.1), .bytes(bytes), .null])
            #expect(inserted.affectedRows == 1)
            let row = try #require(try connection.queryOne("SELECT * FROM t"))
            #expect(row.string("s") == "héllo 'q' ?")
            #expect(row.int("i") == -9_007_199_254_740_993)
            #expect(row.double("d") == 0.1)
            #expect(row.data("b") == bytes)
            #expect(row["n"] == .null)
            #expect(row["missing"] == nil)
            #expect(throws: PostgresError.self) { try row.decode("missing") }
            // count(*) is bigint and sum(bigint) numeric: both read as integers.
            let totals = try #require(try connection.queryOne("SELECT count(*) AS n, sum(i) AS total, avg(d) AS mean, true AS yes FROM t"))
            #expect(totals.int("n") == 1)
            #expect(totals.int("total") == -9_007_199_254_740_993)
            #expect(totals.double("mean") == 0.1)
            #expect(totals.int("yes") == 1)
        }
    }

    @Test("a statement is prepared once per SQL text and reused with new values")
    func preparedReuse() throws {
        try TestPostgres.withConnection { connection in
            try connection.executeScript("CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT)")
            for k in 1...20 { try connection.execute("INSERT INTO t (k, v) VALUES ($1, $2)", [.integer(Int64(k)), .text("v\(k)")]) }
            let prepared = try connection.query("SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO t%'")
            #expect(prepared.first?.int("n") == 1)
            #expect(try connection.query("SELECT v FROM t WHERE k > $1 ORDER BY k", [.integer(18)]).compactMap { $0.string("v") } == ["v19", "v20"])
            // The same SQL with a NULL (an untyped parameter) is its own statement and still works.
            try connection.execute("INSERT INTO t (k, v) VALUES ($1, $2)", [.integer(21), .null])
            #expect(try connection.queryOne("SELECT v FROM t WHERE k = 21")?["v"] == .null)
        }
    }

    @Test("errors carry the SQLSTATE; a failed statement leaves the connection usable")
    func errors() throws {
        try TestPostgres.withConnection { connection in
            try connection.executeScript("CREATE TABLE t (k BIGINT PRIMARY KEY)")
            try connection.execute("INSERT INTO t VALUES ($1)", [.integer(1)])
            do {
                try connection.execute("INSERT INTO t VALUES ($1)", [.integer(1)])
                Issue.record("a duplicate key must fail")
            } catch let error as PostgresError {
                #expect(error.sqlState == "23505")
                #expect(error.isUniqueViolation)
                #expect(!error.isConnectionLost)
                #expect(error.message.contains("duplicate key"))
                #expect(!error.message.contains("\n"))
            }
            #expect(throws: PostgresError.self) { try connection.execute("SELEKT 1") }
            #expect(try connection.queryOne("SELECT count(*) AS n FROM t")?.int("n") == 1)
        }
    }

    @Test("a transaction commits on return and rolls back on throw; savepoints nest")
    func transactions() throws {
        struct Planned: Error {}
        try TestPostgres.withConnection { connection in
            try connection.executeScript("CREATE TABLE t (k BIGINT PRIMARY KEY)")
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES ($1)", [.integer(1)])
                #expect(connection.isInTransaction)
                // The inner failure rolls back to its savepoint only.
                #expect(throws: PostgresError.self) {
                    try connection.transaction {
                        try connection.execute("INSERT INTO t VALUES ($1)", [.integer(2)])
                        try connection.execute("INSERT INTO t VALUES ($1)", [.integer(1)])
                    }
                }
                try connection.execute("INSERT INTO t VALUES ($1)", [.integer(3)])
            }
            #expect(!connection.isInTransaction)
            #expect(throws: Planned.self) {
                try connection.transaction {
                    try connection.execute("INSERT INTO t VALUES ($1)", [.integer(4)])
                    throw Planned()
                }
            }
            #expect(try connection.query("SELECT k FROM t ORDER BY k").compactMap { $0.int("k") } == [1, 3])
        }
    }

    @Test("a terminated backend is a lost connection; reconnect() brings it back")
    func connectionLost() throws {
        try TestPostgres.withDatabase { location, _ in
            let connection = try PostgresConnection(location: location)
            try connection.execute("SELECT $1::bigint AS one", [.integer(1)])
            let pid = try #require(try connection.queryOne("SELECT pg_backend_pid() AS pid")?.int("pid"))
            let other = try PostgresConnection(location: location)
            try other.execute("SELECT pg_terminate_backend($1::int)", [.integer(pid)])
            do {
                try connection.execute("SELECT $1::bigint AS one", [.integer(1)])
                Issue.record("a terminated backend must fail the next statement")
            } catch let error as PostgresError {
                #expect(error.isConnectionLost, "\(error)")
                #expect(!error.message.contains(location.value("password") ?? "\u{0}"))
            }
            #expect(!connection.isConnected)
            try connection.reconnect()
            #expect(connection.isConnected)
            // Prepared statements died with the old session: the cache must not point at them.
            #expect(try connection.queryOne("SELECT $1::bigint AS one", [.integer(1)])?.int("one") == 1)
        }
    }

    @Test("connection-lost SQLSTATEs are classified")
    func classification() {
        #expect(PostgresError.meansConnectionLost("08006"))
        #expect(PostgresError.meansConnectionLost("08001"))
        #expect(PostgresError.meansConnectionLost("57P01"))
        #expect(PostgresError.meansConnectionLost("57P03"))
        #expect(!PostgresError.meansConnectionLost("57014"))
        #expect(!PostgresError.meansConnectionLost("23505"))
        #expect(!PostgresError.meansConnectionLost(nil))
        #expect(PostgresError(sqlState: nil, message: "x", connectionBad: true).isConnectionLost)
    }

    @Test("a server that accepts but never answers fails at the connect timeout instead of hanging")
    func connectTimeout() throws {
        // A listening socket nobody accepts on: the kernel completes the handshake, then silence.
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        let port = UInt16(bigEndian: address.sin_port)
        do {
            _ = try PostgresConnection(location: PostgresLocation("postgres://u:p@127.0.0.1:\(port)/db"), connectTimeout: 2)
            Issue.record("a silent server must not connect")
        } catch let error as PostgresError {
            #expect(error.isConnectionLost)
            #expect(error.message.contains("timeout"), "\(error)")
        }
    }

    @Test("a wrong password or database fails to connect, and the message never holds the password")
    func refused() throws {
        let server = try PostgresLocation(TestPostgres.serverURL())
        let secret = "Wr0ng:p@ss%40word"
        do {
            _ = try PostgresConnection(location: server.setting("password", to: secret))
            Issue.record("a wrong password must not connect")
        } catch let error as PostgresError {
            #expect(error.isConnectionLost)
            #expect(error.message.contains("password authentication failed"), "\(error)")
            #expect(!error.description.contains(secret))
        }
        do {
            _ = try PostgresConnection(location: server.setting("dbname", to: "no_such_database_here"))
            Issue.record("a missing database must not connect")
        } catch let error as PostgresError {
            #expect(error.message.contains("no_such_database_here"), "\(error)")
            #expect(!error.description.contains(server.value("password") ?? "\u{0}"))
        }
    }
}
