-- Wraps another wrk script (WRK_INNER, default ../platforms/static.lua: WRK_METHOD, WRK_BODY_FILE) and, when
-- wrk finishes, prints one line the benchmark parses, latencies in microseconds:
--   wrkstats <requests> <duration_us> <p50> <p99> <p99.9> <max> <status_errors> <socket_errors>
-- status_errors are what wrk counts as failed statuses (HTTP ≥ 400); socket_errors are connect + read +
-- write + timeout errors.
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(os.getenv("WRK_INNER") or (here .. "/../platforms/static.lua"))

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("wrkstats %d %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max,
    e.status, e.connect + e.read + e.write + e.timeout))
end
