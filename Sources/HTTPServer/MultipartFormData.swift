import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One part of a `multipart/form-data` body (RFC 7578).
public struct MultipartPart: Sendable, Equatable {
    /// The `name` of its Content-Disposition.
    public var name: String
    /// The `filename`, when the part is a file.
    public var filename: String?
    /// Its Content-Type as sent, if any.
    public var contentType: String?
    /// Its bytes.
    public var body: Data

    /// A part named `name`.
    public init(name: String, filename: String? = nil, contentType: String? = nil, body: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.body = body
    }

    /// The Content-Type, or `application/octet-stream` when absent (RFC 7578 §4.4).
    public var effectiveContentType: String { contentType ?? "application/octet-stream" }

    /// The body as UTF-8 text (form fields).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A strict `multipart/form-data` reader: a truncated or malformed body is an error rather than a
/// partial result, so a broken upload never stores half a part.
public enum MultipartFormData {
    /// Why a body could not be read.
    public enum Failure: Error, Equatable, Sendable {
        /// The content type is multipart but names no boundary.
        case missingBoundary
        /// The body is not well framed; the text says where.
        case malformed(String)
    }

    /// The boundary of a `multipart/…; boundary=…` content type; nil when the type is not
    /// multipart at all, `missingBoundary` when it is multipart without a usable boundary.
    public static func boundary(fromContentType contentType: String?) throws(Failure) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        let ascii = isASCII(contentType)
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { trimmed($0, ascii: ascii) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = unquoted(pair[1])
            guard !value.isEmpty else { throw .missingBoundary }
            return value
        }
        throw .missingBoundary
    }

    /// Splits `body` into its parts.
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
            let contentStart = headerEnd + 4
            guard let next = find([13, 10] + delimiter, in: bytes, from: contentStart) else {
                throw .malformed("part is not closed by a boundary (truncated body?)")
            }
            var part = try parseHeaders(String(decoding: bytes[position..<headerEnd], as: UTF8.self))
            part.body = Data(bytes[contentStart..<next])
            parts.append(part)
            position = next + 2
        }
    }

    /// Builds a body from parts (tests, and clients that upload).
    public static func build(boundary: String, parts: [MultipartPart]) -> Data {
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

    private static func parseHeaders(_ text: String) throws(Failure) -> MultipartPart {
        var name: String?
        var filename: String?
        var contentType: String?
        // Foundation's splitting and trimming bridged every header through NSString; for ASCII
        // headers (all the SDKs send) the native split and a space/tab trim are the same thing.
        let ascii = isASCII(text)
        let lines = ascii ? text.split(separator: "\r\n", omittingEmptySubsequences: false) : text.components(separatedBy: "\r\n").map { Substring($0) }
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("bad part header") }
            let field = trimmed(line[..<colon], ascii: ascii).lowercased()
            let value = trimmed(line[line.index(after: colon)...], ascii: ascii)
            if field == "content-type" {
                contentType = value
            } else if field == "content-disposition" {
                for parameter in value.split(separator: ";").dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { trimmed($0, ascii: ascii) }
                    guard pair.count == 2 else { continue }
                    switch pair[0].lowercased() {
                    case "name": name = unquoted(pair[1])
                    case "filename": filename = unquoted(pair[1])
                    default: break
                    }
                }
            }
        }
        guard let name else { throw .malformed("part without a Content-Disposition name") }
        return MultipartPart(name: name, filename: filename, contentType: contentType, body: Data())
    }

    private static func unquoted(_ text: String) -> String {
        text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text
    }

    private static func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }

    /// `text` without leading and trailing `.whitespaces`; for ASCII text those are space and tab.
    private static func trimmed(_ text: Substring, ascii: Bool) -> String {
        guard ascii else { return text.trimmingCharacters(in: .whitespaces) }
        var start = text.startIndex, end = text.endIndex
        while start < end, text.utf8[start] == 32 || text.utf8[start] == 9 { start = text.utf8.index(after: start) }
        while end > start {
            let before = text.utf8.index(before: end)
            guard text.utf8[before] == 32 || text.utf8[before] == 9 else { break }
            end = before
        }
        return String(text[start..<end])
    }

    /// The first `needle` at or after `start`: memchr to each candidate first byte, then memcmp
    /// (a byte loop with bounds checks was most of the parse of a 30 KB part).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let last = haystack.count - needle.count
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                guard let base = hay.baseAddress, let pattern = pin.baseAddress else { return nil }
                var index = start
                while index <= last {
                    guard let hit = memchr(base + index, Int32(needle[0]), last - index + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pattern, pin.count) == 0 { return position }
                    index = position + 1
                }
                return nil
            }
        }
    }
}
