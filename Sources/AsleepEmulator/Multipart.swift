import Foundation

/// One part of a `multipart/form-data` body.
struct MultipartPart: Sendable, Equatable {
    /// The `name` of its Content-Disposition.
    var name: String
    /// The `filename`, for file parts.
    var filename: String?
    /// Its Content-Type, if given.
    var contentType: String?
    /// Its bytes.
    var body: Data

    /// The body as UTF-8 text (form fields).
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small strict `multipart/form-data` reader: a truncated or malformed body is an error rather
/// than a partial result, so a broken upload never stores half a chunk.
enum Multipart {
    /// Why a body could not be read.
    struct Malformed: Error, Equatable {
        var reason: String
    }

    /// The boundary of a `multipart/…; boundary=…` content type, or nil when it is not multipart.
    static func boundary(contentType: String?) -> String?? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                var value = pair[1]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                return .some(value.isEmpty ? nil : value)
            }
        }
        return .some(nil)
    }

    /// Parses `body` into its parts.
    static func parse(_ body: Data, boundary: String) throws(Malformed) -> [MultipartPart] {
        let delimiter = Data(("--" + boundary).utf8)
        let crlf = Data("\r\n".utf8)
        guard let first = body.range(of: delimiter) else { throw Malformed(reason: "no boundary delimiter") }
        var cursor = first.upperBound
        var parts: [MultipartPart] = []
        while true {
            // After a delimiter: `--` closes the body, CRLF starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }
            guard body[cursor...].starts(with: crlf) else { throw Malformed(reason: "bad delimiter line") }
            cursor += 2
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex) else {
                throw Malformed(reason: "truncated part headers")
            }
            let headerText = String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self)
            let contentStart = headerEnd.upperBound
            guard let next = body.range(of: crlf + delimiter, in: contentStart..<body.endIndex) else {
                throw Malformed(reason: "truncated part body")
            }
            var name: String?
            var filename: String?
            var contentType: String?
            for line in headerText.components(separatedBy: "\r\n") where !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { throw Malformed(reason: "bad part header") }
                let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if field == "content-disposition" {
                    for parameter in value.split(separator: ";").dropFirst() {
                        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard pair.count == 2 else { continue }
                        var text = pair[1]
                        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
                        if pair[0].lowercased() == "name" { name = text }
                        if pair[0].lowercased() == "filename" { filename = text }
                    }
                } else if field == "content-type" {
                    contentType = value
                }
            }
            guard let name else { throw Malformed(reason: "part without a name") }
            parts.append(MultipartPart(name: name, filename: filename, contentType: contentType, body: Data(body[contentStart..<next.lowerBound])))
            cursor = next.upperBound
        }
    }

    /// Builds a body (used by tests and the client's documentation examples).
    static func build(boundary: String, parts: [MultipartPart]) -> Data {
        var data = Data()
        for part in parts {
            data += Data("--\(boundary)\r\n".utf8)
            var disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { disposition += "; filename=\"\(filename)\"" }
            data += Data((disposition + "\r\n").utf8)
            if let type = part.contentType { data += Data("Content-Type: \(type)\r\n".utf8) }
            data += Data("\r\n".utf8) + part.body + Data("\r\n".utf8)
        }
        data += Data("--\(boundary)--\r\n".utf8)
        return data
    }
}
