import EmulatorCore
import Foundation
import HTTPServer

/// What `--ready-file` holds: this process and where it listens, as one JSON object
/// (`{"pid", "http", "httpPort", "httpsPort", "proxyPort"}`, ports null when off). A script started
/// the server, so it knows the pid, and can tell this server's file from anything else on the port.
enum ReadyFile {
    /// The file's bytes for `server`, once it is ready.
    static func contents(of server: UnderstudyServer) -> Data {
        let port: (Int?) -> JSONValue = { $0.map { .int(Int64($0)) } ?? .null }
        let httpPort = server.http.port(of: .http)
        let value: JSONValue = [
            "pid": .int(Int64(ProcessInfo.processInfo.processIdentifier)), "http": .string(server.url),
            "httpPort": port(httpPort), "httpsPort": port(server.httpsPort), "proxyPort": port(server.proxyPort),
        ]
        return Data(value.encoded()) + Data("\n".utf8)
    }
}
