import Foundation

/// One part of a `multipart/form-data` body.
public struct MultipartPart: Sendable, Equatable {
    /// The `name` of its Content-Disposition.
    public var name: String
    /// The `filename`, when the part is a file.
    public var filename: String?
    /// Its Content-Type (`application/octet-stream` when absent, as RFC 7578 says).
    public var contentType: String
    /// Its bytes.
    public var body: Data
}

/// A strict `multipart/form-data` parser: a body that is not well framed (no closing delimiter,
/// a part without headers end) is rejected rather than guessed at.
public enum MultipartParser {
    /// Why a body could not be parsed.
    public enum Failure: Error, Equatable, Sendable {
        case missingBoundary
        case malformed(String)
    }

    /// The boundary from a `Content-Type: multipart/form-data; boundary=…` value.
    public static func boundary(fromContentType contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Splits `body` into parts.
    public static func parse(_ body: Data, boundary: String) throws(Failure) -> [MultipartPart] {
        let bytes = [UInt8](body)
        let delimiter = [UInt8](("--" + boundary).utf8)
        guard var position = find(delimiter, in: bytes, from: 0) else { throw .malformed("no opening boundary") }
        var parts: [MultipartPart] = []
        while true {
            position += delimiter.count
            if position + 1 < bytes.count, bytes[position] == 45, bytes[position + 1] == 45 { return parts } // closing `--`
            guard position + 1 < bytes.count, bytes[position] == 13, bytes[position + 1] == 10 else {
                throw .malformed("boundary not followed by CRLF")
            }
            position += 2
            guard let headerEnd = find([13, 10, 13, 10], in: bytes, from: position) else { throw .malformed("part headers never end") }
            let headerText = String(decoding: bytes[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = find([13, 10] + delimiter, in: bytes, from: contentStart) else { throw .malformed("part is not closed by a boundary (truncated body?)") }
            var name: String?
            var filename: String?
            var contentType = "application/octet-stream"
            for line in headerText.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let field = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
                let value = pair[1].trimmingCharacters(in: .whitespaces)
                if field == "content-type" { contentType = value }
                if field == "content-disposition" {
                    for parameter in value.split(separator: ";").dropFirst() {
                        let kv = parameter.split(separator: "=", maxSplits: 1)
                        guard kv.count == 2 else { continue }
                        var text = kv[1].trimmingCharacters(in: .whitespaces)
                        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
                        switch kv[0].trimmingCharacters(in: .whitespaces).lowercased() {
                        case "name": name = text
                        case "filename": filename = text
                        default: break
                        }
                    }
                }
            }
            guard let name else { throw .malformed("part without a Content-Disposition name") }
            parts.append(MultipartPart(name: name, filename: filename, contentType: contentType, body: Data(bytes[contentStart..<next])))
            position = next + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] { matched = false; break }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
