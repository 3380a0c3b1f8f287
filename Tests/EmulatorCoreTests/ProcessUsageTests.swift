import EmulatorCore
import Foundation
import Testing

/// `ProcessUsage`: the readings the metrics scrape and the idle heap trim take of the process.
@Suite("Process usage")
struct ProcessUsageTests {
    @Test("the process's own CPU time is read and moves with work")
    func cpu() {
        let before = ProcessUsage.cpuSeconds()
        var spin = 0.0
        let start = Date()
        while Date().timeIntervalSince(start) < 0.05 { spin += 1 }
        #expect(ProcessUsage.cpuSeconds() > before, "\(spin)")
    }

    #if os(Linux)
    @Test("the resident size is read from /proc")
    func resident() {
        #expect((ProcessUsage.residentBytes() ?? 0) > 1_000_000)
    }

    @Test("the heap's live bytes follow an allocation and its release; the allocator holds at least as much")
    func heap() throws {
        // 256 MiB: far beyond anything the suites running alongside allocate and free meanwhile, and
        // mapped on its own (never touched, so it costs no resident memory).
        let size = 256 << 20
        let before = try #require(ProcessUsage.heap())
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let during = try #require(ProcessUsage.heap())
        block.deallocate()
        let after = try #require(ProcessUsage.heap())
        #expect(during.inUseBytes - before.inUseBytes > size * 3 / 4, "\(before) → \(during)")
        #expect(during.inUseBytes - after.inUseBytes > size * 3 / 4, "\(during) → \(after)")
        #expect(during.heldBytes >= during.inUseBytes)
    }
    #endif
}
