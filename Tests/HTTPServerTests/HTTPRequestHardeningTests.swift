import Foundation
import Testing
@testable import HTTPServer

private func chunked(trailers: String) -> [UInt8] {
    Array("POST /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\(trailers)\r\n".utf8)
}

@Suite("HTTP request parser against hostile input")
struct HTTPRequestHardeningTests {
    @Test("a trailer section larger than the header limit is a 431, however it arrives")
    func trailerFlood() {
        let flood = chunked(trailers: String(repeating: "X-T: v\r\n", count: 65_536)) // 512 KiB of fields
        #expect(failure(parse(flood)) == .headersTooLarge)
        #expect(failure(parse(flood, splits: Array(repeating: 1000, count: flood.count / 1000 + 1))) == .headersTooLarge)
        let fits = chunked(trailers: String(repeating: "X-T: v\r\n", count: 1000)) // 8,000 bytes
        #expect(requests(parse(fits)).first?.trailers.count == 1000)
    }
}
