import Foundation
import PostgresStore
import Testing

/// `--database` values: which are PostgreSQL, how they parse, and that the password never shows.
@Suite("PostgreSQL locations")
struct LocationTests {
    @Test("a URL parses into libpq's keywords, %-escapes decoded")
    func url() throws {
        let location = try PostgresLocation("postgres://alice:s%40cret@db.example:6543/shop?sslmode=disable&application_name=ci")
        #expect(location.form == .url)
        #expect(location.host == "db.example")
        #expect(location.port == "6543")
        #expect(location.database == "shop")
        #expect(location.user == "alice")
        #expect(location.value("password") == "s@cret")
        #expect(location.value("sslmode") == "disable")
        #expect(location.value("application_name") == "ci")
    }

    @Test("postgresql://, IPv6 hosts, no port and no credentials")
    func urlVariants() throws {
        let bare = try PostgresLocation("postgresql://[::1]/app")
        #expect(bare.host == "::1")
        #expect(bare.port == "5432")
        #expect(bare.database == "app")
        #expect(bare.value("user") == nil)
        let hosts = try PostgresLocation("postgres://u@a:1,b:2/d")
        #expect(hosts.value("host") == "a,b")
        #expect(hosts.value("port") == "1,2")
    }

    @Test("a libpq keyword string parses, quoted values included")
    func keywords() throws {
        let location = try PostgresLocation("host=127.0.0.1 port = 5433 dbname=app user=bob password=it")
        #expect(location.form == .keywords)
        #expect(location.host == "127.0.0.1")
        #expect(location.port == "5433")
        #expect(location.database == "app")
        #expect(location.user == "bob")
        #expect(location.value("password") == "it")
        let quoted = try PostgresLocation("dbname=app password='p@ss:w%40rd \\'q\\''")
        #expect(quoted.value("password") == "p@ss:w%40rd 'q'")
    }

    @Test(
        "malformed PostgreSQL values are errors, not files",
        arguments: [
            "postgres://h:99999/db", "postgres://h:port/db", "host=x bogus=1", "host='unclosed", "postgres://h/db?nope=1", "postgres://u:%zz@h/db",
        ])
    func malformed(_ value: String) {
        #expect(throws: PostgresLocationError.self) { try DatabaseLocation(value) }
    }

    @Test(
        "the redacted form never holds the password",
        arguments: [
            "postgres://alice:p%40ss%3Aword%2540@h:5432/db", // decodes to p@ss:word%40
            "postgres://alice:p@ss:w@rd@h:5432/db", // raw @ and : in the password
            "postgresql://alice:hunter2@h/db?sslmode=disable",
            "host=h dbname=db user=alice password='p@ss:word%40'",
            "password=hunter2 host=h",
        ])
    func redaction(_ value: String) throws {
        let location = try PostgresLocation(value)
        let password = try #require(location.value("password"))
        let redacted = location.redactedDescription
        #expect(!redacted.contains(password), "\(redacted)")
        #expect(!redacted.contains(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password), "\(redacted)")
        #expect(redacted.contains("***"))
        #expect(redacted.contains("alice") || !value.contains("alice"))
        #expect(try DatabaseLocation(value).redactedDescription == redacted)
    }

    @Test("a raw @ in a URL password: the last @ ends the credentials")
    func rawAt() throws {
        let location = try PostgresLocation("postgres://alice:p@ss:w@rd@h:5432/db")
        #expect(location.value("password") == "p@ss:w@rd")
        #expect(location.host == "h")
        #expect(location.redactedDescription == "postgres://alice:***@h:5432/db")
    }

    @Test(
        "PostgreSQL values select PostgreSQL",
        arguments: [
            "postgres://h/db", "postgresql://h/db", "POSTGRES://h/db", "host=localhost dbname=x", "dbname=x", " port=5432", "user = bob",
        ])
    func postgres(_ value: String) throws {
        guard case .postgres = try DatabaseLocation(value) else { Issue.record("\(value) should be PostgreSQL"); return }
    }

    @Test(
        "anything else stays a SQLite path",
        arguments: [
            "data/understudy.sqlite", "data/a=b.sqlite", "./host=x", "/tmp/host=x.sqlite", "hostname=x", "postgres:/x", "postgres.sqlite",
            ":memory:", "file with spaces.db", "host", "=host", "dbname",
        ])
    func sqlite(_ value: String) throws {
        #expect(try DatabaseLocation(value) == .sqlite(value))
        #expect(!DatabaseLocation.namesPostgres(value))
    }
}
