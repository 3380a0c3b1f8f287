import Testing

@testable import WarpLinkEmulator

/// The observe step's byte scanners, against the query forms the rules must tell apart.
@Suite("WarpLink checks: query and key scanning")
struct WarpLinkChecksScanningTests {
    @Test("the first domain of a query, decoded; a bare `domain` is empty; none is nil")
    func domainInQuery() {
        #expect(WarpLinkChecks.domain(inQuery: "domain=aplnk.to") == "aplnk.to")
        #expect(WarpLinkChecks.domain(inQuery: "a=1&&domain=go.example.com&domain=second") == "go.example.com")
        #expect(WarpLinkChecks.domain(inQuery: "domain=https%3A%2F%2Faplnk.to") == "https://aplnk.to")
        #expect(WarpLinkChecks.domain(inQuery: "x=1&domain") == "")
        #expect(WarpLinkChecks.domain(inQuery: "domain=") == "")
        #expect(WarpLinkChecks.domain(inQuery: "domains=a&mydomain=b&") == nil)
        #expect(WarpLinkChecks.domain(inQuery: "") == nil)
    }

    @Test("a key is masked as the SDK logs it; a short one shows nothing")
    func masking() {
        #expect(WarpLinkChecks.masked("wl_live_0123456789abcdefghijklmnopqrstuv") == "key wl_live_****stuv")
        #expect(WarpLinkChecks.masked("short") == "key ****")
    }
}
