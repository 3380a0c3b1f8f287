/// The status and header fields of a response a forwarded request got from its real destination:
/// read only so the journal can say what came back; the bytes themselves are relayed unchanged.
public struct UpstreamResponseHead: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The header fields, in wire order.
    public var headers: HTTPHeaders
    /// Bytes up to and including the blank line that ends the head.
    public var headLength: Int

    /// Creates a head from its parts.
    public init(status: Int, headers: HTTPHeaders, headLength: Int) {
        self.status = status
        self.headers = headers
        self.headLength = headLength
    }

    /// Parses `HTTP/1.x NNN reason` and the header lines at the start of `bytes`; nil when the head
    /// is incomplete or not HTTP/1.
    public init?(parsing bytes: [UInt8]) {
        guard let length = Self.headLength(in: bytes) else { return nil }
        let text = String(decoding: bytes[0..<(length - 4)], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].count == 3,
            let status = Int(statusLine[1]), (100...999).contains(status)
        else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let field = RequestHeadParser.parseField(Array(line.utf8)[...]) else { continue } // relayed anyway; the journal keeps what parses
            headers.add(field.name, field.value)
        }
        self.init(status: status, headers: headers, headLength: length)
    }

    /// Where the head of the response in `bytes` ends (after its CRLF CRLF), or nil when it has not all arrived.
    static func headLength(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
