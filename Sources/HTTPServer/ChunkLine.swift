/// The chunk-size line of a chunked body (RFC 9112 §7.1).
enum ChunkLine {
    /// The size a chunk-size line declares, or nil when the line is malformed.
    static func parseSize(_ line: ArraySlice<UInt8>) -> Int? {
        var digits = line
        if let semicolon = line.firstIndex(of: UInt8(ascii: ";")) { digits = line[line.startIndex..<semicolon] }
        while let last = digits.last, last == 32 || last == 9 { digits.removeLast() }
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        var size = 0
        for byte in digits {
            guard let value = URLQuery.hexValue(byte) else { return nil }
            size = size << 4 | Int(value)
        }
        return size
    }
}
