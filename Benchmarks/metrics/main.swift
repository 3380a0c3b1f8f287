// The request path's metrics cost, optimised: RequestMetrics.observe in a loop of 1e6, on one
// thread and then on two at once (the counters' cache lines then move between cores). Built
// by Benchmarks/metrics-observe.sh from Sources/EmulatorCore/MetricsRequests.swift alone.
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Journal { static let proxyPlatform = "proxy" }

func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

// About as many templates as the real router registers; the router hands back its own strings.
let templates = (0..<150).map { "/platform\($0 % 4)/v1/resource\($0)/{id}/sub" }
let counters = RequestMetrics(platforms: ["warplink", "asleep", "warrantylife", "telematics"], routeTemplates: templates)
let platforms = ["warplink", "asleep", "admin", "telematics"]
let observations = 1_000_000
var results: [(Double, Double)] = []
for _ in 0..<5 {
    let start = nanoseconds()
    for index in 0..<observations {
        counters.observe(platform: platforms[index & 3], route: templates[index % 150], status: 200 + (index & 1) * 200,
                         nanoseconds: UInt64(index & 0xFFFFF) * 100)
    }
    let one = Double(nanoseconds() - start) / Double(observations)
    let startBoth = nanoseconds()
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
        for index in 0..<observations {
            counters.observe(platform: platforms[(index + thread) & 3], route: templates[index % 150], status: 200, nanoseconds: 1_000)
        }
    }
    results.append((one, Double(nanoseconds() - startBoth) / Double(observations))) // wall time per observation of each thread
}
let counted = counters.histograms().reduce(0) { $0 + $1.count }
precondition(counted == 5 * 3 * observations, "lost observations: \(counted)")
let oneThread = results.map(\.0).sorted()[2], twoThreads = results.map(\.1).sorted()[2]
print("metrics observe, median of 5 rounds of 1e6: one thread \(Int(oneThread.rounded())) ns; two threads at once \(Int(twoThreads.rounded())) ns per observation each")
