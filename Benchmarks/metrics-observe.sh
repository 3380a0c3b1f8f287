#!/usr/bin/env bash
# Times the metrics' per-request call (RequestMetrics.observe) compiled with -O, 1e6 observations
# per round. Prints one line; a shared machine makes the absolute number noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swiftc -O -module-name MetricsBenchmark Sources/EmulatorCore/MetricsRequests.swift Benchmarks/metrics/main.swift -o "$out/observe"
"$out/observe"
