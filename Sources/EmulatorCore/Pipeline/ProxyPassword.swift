import Foundation
import HTTPServer

/// The proxy's optional password, checked against `Proxy-Authorization: Basic …` on every request
/// made to the proxy as a proxy (a `CONNECT`, an absolute-form request).
///
/// A configured value with a colon is `user:password` and both must match; without one it is the
/// password alone, and any user name goes with it (phones insist on a user name field, and nothing
/// here has users).
struct ProxyPassword: Sendable {
    let secret: String

    /// Whether `request` carries matching credentials. Compared in time that depends only on the
    /// lengths, so a wrong guess says nothing about how much of it was right.
    func admits(_ request: Request) -> Bool {
        guard let header = request.headers["proxy-authorization"] else { return false }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let credentials = String(data: decoded, encoding: .utf8), let colon = credentials.firstIndex(of: ":")
        else { return false }
        if secret.contains(":") { return ConstantTime.equals(credentials, secret) }
        return ConstantTime.equals(String(credentials[credentials.index(after: colon)...]), secret)
    }

    /// The `407` that asks for credentials, naming how to send them.
    static func challenge() -> Response {
        var response = Response.text(
            """
            Understudy's proxy needs its password (--proxy-password): send Proxy-Authorization: Basic \
            with any user name and that password (or the user:password it was given).\n
            """, status: 407)
        response.headers.set("Proxy-Authenticate", "Basic realm=\"understudy\"")
        return response
    }
}
