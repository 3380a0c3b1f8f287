import Foundation
import Testing

@testable import UnderstudyServer

#if canImport(CMalloc)
import CMalloc
#endif

@Suite("Idle memory trim")
struct IdleMemoryTrimTests {
    /// Feeds `readings` (CPU seconds so far, seconds since the previous reading, whether to trim)
    /// to a policy and checks every answer.
    static func check(_ policy: IdleTrimPolicy, _ readings: [(cpu: Double, interval: Double, trim: Bool, why: String)]) {
        var policy = policy
        for reading in readings {
            let trimmed = policy.observe(cpuSeconds: reading.cpu, interval: reading.interval)
            #expect(trimmed == reading.trim, "at \(reading.cpu) s: \(reading.why)")
        }
    }

    @Test("trims once the process goes quiet after enough work, not while busy, and not again until more work")
    func policy() {
        Self.check(
            IdleTrimPolicy(idleShare: 0.02, workBetweenTrims: 0.5),
            [
                (0.10, 1, false, "the first reading only sets the baseline"),
                (0.101, 1, false, "quiet, but nothing worth giving back yet"),
                (1.20, 1, false, "busy: 1.1 s of CPU in 1 s"),
                (1.90, 1, false, "still busy"),
                (1.91, 1, true, "quiet after 1.8 s of work"),
                (1.911, 1, false, "already trimmed; no work since"),
                (2.20, 1, false, "busy again, 0.29 s"),
                (2.205, 1, false, "quiet, but 0.295 s since the trim is not enough"),
                (2.60, 1, false, "busy"),
                (2.61, 2, true, "quiet over a longer interval: 0.005 s/s"),
            ])
    }

    @Test("a quiet share is measured per second of the interval")
    func share() {
        Self.check(
            IdleTrimPolicy(idleShare: 0.02, workBetweenTrims: 0.1),
            [
                (0, 1, false, "baseline"),
                (1, 1, false, "busy"),
                (1.05, 2, false, "0.025 s/s is above the 0.02 idle share"),
                (1.06, 1, true, "0.01 s/s"),
            ])
    }

    #if canImport(CMalloc)
    /// Runs in a process of its own: glibc serves a large block from an arena's free space,
    /// whatever the threshold, when an earlier test left that much free there.
    @Test("with the heap set up, a large block freed does not lift the threshold: the next one is mapped again")
    func mappedThresholdStaysFixed() async {
        await #expect(processExitsWith: .success) {
            guard HeapSetup.apply() else { exit(2) }
            // Left to itself, glibc would take the threshold up to this block's size when it is freed…
            guard let large = malloc(8 * HeapSetup.mappedFrom) else { exit(3) }
            free(large)
            // …and carve the next block of half that size from an arena instead of mapping it.
            guard let next = malloc(4 * HeapSetup.mappedFrom) else { exit(3) }
            // The check tells the two apart: a small block always comes from an arena.
            guard let small = malloc(64) else { exit(3) }
            exit(cmalloc_block_is_mapped(next) == 1 && cmalloc_block_is_mapped(small) == 0 ? 0 : 1)
        }
    }
    #endif
}
