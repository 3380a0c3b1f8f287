import Testing

@testable import HTTPServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Accepting at the descriptor limit")
struct AcceptPolicyTests {
    @Test("running out of descriptors pauses accepting for about 100 ms instead of spinning")
    func pauseOnExhaustion() {
        for code in [EMFILE, ENFILE, ENOBUFS, ENOMEM] {
            #expect(AcceptPolicy.reaction(toErrno: code) == .pause(nanoseconds: 100_000_000))
        }
        #expect(AcceptPolicy.reaction(toErrno: EINTR) == .retry)
        #expect(AcceptPolicy.reaction(toErrno: ECONNABORTED) == .retry)
        #expect(AcceptPolicy.reaction(toErrno: EAGAIN) == .wait)
    }

    @Test("the soft open-file limit is raised to the hard limit, and the change reported")
    func raisesOpenFileLimit() {
        let change = HTTPServer.raiseOpenFileLimit()
        var limit = rlimit()
        #if os(Linux)
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #else
        #expect(getrlimit(RLIMIT_NOFILE, &limit) == 0)
        #endif
        #expect(change.current == UInt64(limit.rlim_cur) && change.hard == UInt64(limit.rlim_max))
        #expect(limit.rlim_cur == limit.rlim_max && change.previous <= change.current)
    }

    @Test("start() records what it did to the limit")
    func startRecordsLimit() async throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), application: ClosureApplication { _ in .empty(204) })
        #expect(server.openFileLimit == nil)
        try server.start()
        #expect(server.openFileLimit.map { $0.current == $0.hard } == true)
        await server.shutdown()
    }
}
