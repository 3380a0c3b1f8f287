import Foundation
import HTTPServer
import Testing

@Suite("multipart/form-data reading")
struct MultipartFormDataTests {
    /// xorshift: deterministic, so a failing body reproduces.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    /// Binary bodies full of the bytes framing looks for: CR, LF, dashes and pieces of the boundary.
    static func body(_ random: inout Random, boundary: String) -> Data {
        let pieces: [[UInt8]] = [[13], [10], [13, 10], [45, 45], Array("--\(boundary)".utf8.dropLast()), Array("\r\n--".utf8), [0], [0xFF], Array("x".utf8)]
        var bytes: [UInt8] = []
        for _ in 0..<random.below(40) { bytes += random.pick(pieces) }
        if random.below(4) == 0 { bytes += (0..<random.below(40_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        return Data(bytes)
    }

    @Test("built bodies read back as their parts: binary bodies with near-boundaries, names, filenames and types in any mix")
    func roundTrips() throws {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        for round in 0..<400 {
            let boundary = random.pick(["b", "understudy-bench-boundary", "----WebKitFormBoundary7MA4YWxkTrZu0gW", "x\(round)"])
            let parts = (0..<random.below(5)).map { index in
                MultipartPart(
                    name: random.pick(["file", "seq_num", "callback_url", "field \(index)", "名前"]),
                    filename: random.pick([nil, "chunk.npy", "日本.png", "a b.txt"]),
                    contentType: random.pick([nil, "application/octet-stream", "image/png"]), body: Self.body(&random, boundary: boundary))
            }
            let built = MultipartFormData.build(boundary: boundary, parts: parts)
            #expect(try MultipartFormData.parse(built, boundary: boundary) == parts, "round \(round)")
        }
    }

    /// What a part's headers mean, computed with Foundation's trimming as the reader always did.
    static func reference(_ headers: String) -> (name: String?, filename: String?, contentType: String?) {
        var name: String?, filename: String?, contentType: String?
        func unquoted(_ text: String) -> String { text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text }
        for line in headers.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return (nil, nil, nil) }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if field == "content-type" { contentType = value }
            if field == "content-disposition" {
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
        return (name, filename, contentType)
    }

    @Test("hand-written part headers (spaces, tabs, case, quotes, unicode, extra headers) mean what Foundation's trimming says")
    func headers() throws {
        var random = Random(state: 42)
        let pads = ["", " ", "\t", "  \t ", "\u{00A0}", "\u{2003}"]
        for round in 0..<3000 {
            func pad() -> String { random.pick(pads) }
            var lines: [String] = []
            let disposition =
                [
                    pad() + random.pick(["form-data", "FORM-DATA"]) + pad(),
                    pad() + random.pick(["name", "Name", "NAME"]) + pad() + "=" + pad() + random.pick(["\"file\"", "file", "\"seq num\"", "\"é\"", "\"\""]) + pad(),
                ]
                + (random.below(2) == 0 ? [pad() + "filename" + pad() + "=" + pad() + random.pick(["\"0.npy\"", "\"日本 .png\"", "x", "\""]) + pad()] : [])
                + (random.below(3) == 0 ? [pad() + "size=3", "flag"] : [])
            lines.append(pad() + random.pick(["Content-Disposition", "content-disposition"]) + pad() + ":" + pad() + disposition.joined(separator: ";"))
            if random.below(2) == 0 { lines.append(pad() + "Content-Type" + pad() + ":" + pad() + random.pick(["image/png", "text/plain; charset=utf-8", "ü/ü"]) + pad()) }
            if random.below(3) == 0 { lines.append("X-Extra: \r yes") }
            if random.below(4) == 0 { lines.shuffle(using: &random) }
            let headers = lines.joined(separator: "\r\n")
            let body = Data("--b\r\n\(headers)\r\n\r\npayload\r\n--b--\r\n".utf8)
            let expected = Self.reference(headers)
            if let name = expected.name {
                let parts = try MultipartFormData.parse(body, boundary: "b")
                #expect(
                    parts == [MultipartPart(name: name, filename: expected.filename, contentType: expected.contentType, body: Data("payload".utf8))],
                    "round \(round): \(headers.debugDescription)")
            } else {
                #expect(throws: MultipartFormData.Failure.malformed("part without a Content-Disposition name"), "round \(round): \(headers.debugDescription)") {
                    try MultipartFormData.parse(body, boundary: "b")
                }
            }
        }
    }

    @Test("a part's bytes are the body's own, not a copy, and read the same from a slice of a larger buffer")
    func partsShareTheBody() throws {
        let file = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let whole =
            Data("junk".utf8)
            + MultipartFormData.build(
                boundary: "b",
                parts: [
                    MultipartPart(name: "seq_num", body: Data("7".utf8)), MultipartPart(name: "file", filename: "0.npy", body: file),
                ])
        let body = whole[4...] // a request body need not start at index 0
        let parts = try MultipartFormData.parse(body, boundary: "b")
        #expect(parts.map(\.name) == ["seq_num", "file"])
        #expect(parts[0].text == "7")
        #expect(parts[1].body == file)
        let bodyStart = body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let fileStart = parts[1].body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        let offset = try #require(body.firstRange(of: file)).lowerBound - body.startIndex
        #expect(fileStart == bodyStart + UInt(offset), "the file part was copied")
    }

    @Test(
        "broken framing is refused with the reason, never read in part",
        arguments: [
            ("", "no opening boundary"), ("--b", "boundary not followed by CRLF"), ("--bX\r\n", "boundary not followed by CRLF"),
            ("--b\r\nContent-Disposition: form-data; name=a\r\n", "part headers never end"),
            ("--b\r\nContent-Disposition: form-data; name=a\r\n\r\nabc", "part is not closed by a boundary (truncated body?)"),
            ("--b\r\nContent-Disposition: form-data; name=a\r\n\r\nabc\r\n--", "part is not closed by a boundary (truncated body?)"),
            ("--b\r\nno colon\r\n\r\nabc\r\n--b--", "bad part header"),
            ("--b\r\nContent-Type: text/plain\r\n\r\nabc\r\n--b--", "part without a Content-Disposition name"),
        ])
    func malformed(body: String, reason: String) {
        #expect(throws: MultipartFormData.Failure.malformed(reason)) { try MultipartFormData.parse(Data(body.utf8), boundary: "b") }
    }

    @Test("the boundary comes from the content type: quoted, spaced, any case; none or empty is an error")
    func boundaries() throws {
        #expect(try MultipartFormData.boundary(fromContentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(try MultipartFormData.boundary(fromContentType: "Multipart/Form-Data;\tcharset=utf-8 ;  BOUNDARY = \"a b\" ") == "a b")
        #expect(try MultipartFormData.boundary(fromContentType: "multipart/form-data; boundary=\u{00A0}é\u{00A0}") == "é")
        #expect(try MultipartFormData.boundary(fromContentType: "application/json") == nil)
        #expect(try MultipartFormData.boundary(fromContentType: nil) == nil)
        #expect(throws: MultipartFormData.Failure.missingBoundary) { try MultipartFormData.boundary(fromContentType: "multipart/form-data") }
        #expect(throws: MultipartFormData.Failure.missingBoundary) { try MultipartFormData.boundary(fromContentType: "multipart/form-data; boundary=\"\"") }
    }
}
