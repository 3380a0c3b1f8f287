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
    /// Its bytes: after `MultipartFormData.parse`, a slice of the whole body (indexed from
    /// `body.startIndex`, not 0).
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
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The content type is multipart but names no boundary.
        case missingBoundary
        /// The body is not well framed; the text says where.
        case malformed(String)

        /// The reason in words, as a response quotes it.
        public var description: String {
            switch self {
            case .missingBoundary: return "the content type names no boundary"
            case .malformed(let reason): return reason
            }
        }
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

    /// Splits `body` into its parts. Each part's `body` is a slice of `body` (its indices are
    /// `body`'s), not a copy: a 30 KB upload's file part was copied once more per request.
    public static func parse(_ body: Data, boundary: String) throws(Failure) -> [MultipartPart] {
        // Read in place: copying a 30 KB upload into an array first was a copy and its page faults per request.
        let result = body.withUnsafeBytes { bytes -> Result<[(MultipartPart, Range<Int>)], Failure> in
            do throws(Failure) { return .success(try parse(bytes, boundary: boundary)) } catch { return .failure(error) }
        }
        return try result.get().map { part, content in
            var part = part
            part.body = body[(body.startIndex + content.lowerBound)..<(body.startIndex + content.upperBound)]
            return part
        }
    }

    /// The parts' headers, each with where its content is in `bytes`.
    private static func parse(_ bytes: UnsafeRawBufferPointer, boundary: String) throws(Failure) -> [(MultipartPart, Range<Int>)] {
        let delimiter = [UInt8](("--" + boundary).utf8)
        let closing = [13, 10] + delimiter
        guard var position = find(delimiter, in: bytes, from: 0) else { throw .malformed("no opening boundary") }
        var parts: [(MultipartPart, Range<Int>)] = []
        while true {
            position += delimiter.count
            if position + 1 < bytes.count, bytes[position] == 45, bytes[position + 1] == 45 { return parts } // closing `--`
            guard position + 1 < bytes.count, bytes[position] == 13, bytes[position + 1] == 10 else {
                throw .malformed("boundary not followed by CRLF")
            }
            position += 2
            guard let headerEnd = find([13, 10, 13, 10], in: bytes, from: position) else { throw .malformed("part headers never end") }
            let contentStart = headerEnd + 4
            guard let next = find(closing, in: bytes, from: contentStart) else {
                throw .malformed("part is not closed by a boundary (truncated body?)")
            }
            parts.append((try parseHeaders(UnsafeRawBufferPointer(rebasing: bytes[position..<headerEnd])), contentStart..<next))
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

    /// A part's headers: byte by byte when they are ASCII (all the SDKs send), else as text.
    private static func parseHeaders(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> MultipartPart {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return try parseHeaders(String(decoding: bytes, as: UTF8.self)) }
        // Splitting, trimming and lower-casing Strings cost a twentieth of a 30 KB upload: Character
        // by Character for a few hundred bytes. For ASCII the same steps on bytes give the same
        // results (a CR LF pair is the `\r\n` Character; trimming is of spaces and tabs).
        typealias Bytes = UnsafeRawBufferPointer.SubSequence
        func trimmed(_ slice: Bytes) -> Bytes {
            var start = slice.startIndex, end = slice.endIndex
            while start < end, slice[start] == 32 || slice[start] == 9 { start += 1 }
            while end > start, slice[end - 1] == 32 || slice[end - 1] == 9 { end -= 1 }
            return slice[start..<end]
        }
        func equalsLowercased(_ slice: Bytes, _ word: StaticString) -> Bool {
            guard slice.count == word.utf8CodeUnitCount else { return false }
            for (offset, byte) in slice.enumerated() where (byte >= 65 && byte <= 90 ? byte + 32 : byte) != word.utf8Start[offset] { return false }
            return true
        }
        func string(_ slice: Bytes) -> String { String(decoding: slice, as: UTF8.self) }
        func unquotedString(_ slice: Bytes) -> String {
            slice.count >= 2 && slice.first == 34 && slice.last == 34 ? string(slice.dropFirst().dropLast()) : string(slice)
        }
        /// `split(separator:)`'s pieces: empty ones left out.
        func pieces(_ slice: Bytes, separator: UInt8, maxSplits: Int = .max) -> [Bytes] {
            slice.split(separator: separator, maxSplits: maxSplits, omittingEmptySubsequences: true)
        }
        var name: String?
        var filename: String?
        var contentType: String?
        let all = bytes[...]
        var lineStart = all.startIndex
        while lineStart <= all.endIndex {
            var lineEnd = lineStart
            while lineEnd + 1 < all.endIndex, !(all[lineEnd] == 13 && all[lineEnd + 1] == 10) { lineEnd += 1 }
            if lineEnd + 1 >= all.endIndex { lineEnd = all.endIndex } // the last line has no CR LF
            let line = all[lineStart..<lineEnd]
            lineStart = lineEnd + 2
            guard !line.isEmpty else { continue }
            guard let colon = line.firstIndex(of: 58) else { throw .malformed("bad part header") }
            let field = trimmed(line[line.startIndex..<colon]), value = trimmed(line[(colon + 1)...])
            if equalsLowercased(field, "content-type") {
                contentType = string(value)
            } else if equalsLowercased(field, "content-disposition") {
                for parameter in pieces(value, separator: 59).dropFirst() {
                    let pair = pieces(parameter, separator: 61, maxSplits: 1).map(trimmed)
                    guard pair.count == 2 else { continue }
                    if equalsLowercased(pair[0], "name") {
                        name = unquotedString(pair[1])
                    } else if equalsLowercased(pair[0], "filename") {
                        filename = unquotedString(pair[1])
                    }
                }
            }
        }
        guard let name else { throw .malformed("part without a Content-Disposition name") }
        return MultipartPart(name: name, filename: filename, contentType: contentType, body: Data())
    }

    /// `parseHeaders` for headers that are not all ASCII.
    private static func parseHeaders(_ text: String) throws(Failure) -> MultipartPart {
        var name: String?
        var filename: String?
        var contentType: String?
        let lines = text.components(separatedBy: "\r\n")
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("bad part header") }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if field == "content-type" {
                contentType = value
            } else if field == "content-disposition" {
                for parameter in value.split(separator: ";").dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
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
    private static func find(_ needle: [UInt8], in hay: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, start <= hay.count - needle.count, let base = hay.baseAddress else { return nil }
        let last = hay.count - needle.count
        return needle.withUnsafeBytes { pin -> Int? in
            guard let pattern = pin.baseAddress else { return nil }
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
