-- Telematics telemetry upload: 1,000 samples per batch at 1 s spacing, a distinct batchId and distinct
-- sample times per request. Each wrk thread drives its own user (TOKENS: comma-separated access tokens,
-- one per thread, fresh per wrk run), so every user's samples form one continuous period, as a device's would.
-- Env: TOKENS, RUN (unique per wrk run), START_MS (first sample time, a multiple of 1,000,000),
-- WRK_CHECK=1 (print the first response and stop).
local tokens = {}
for t in string.gmatch(os.getenv("TOKENS") or "", "[^,]+") do tokens[#tokens + 1] = t end
local run = os.getenv("RUN") or "0"
local start = tonumber(os.getenv("START_MS") or "1700000000000")

-- Sample i of a batch starting at K * 1,000,000 ms is at K .. string.format("%03d000", i): "@" stands for K,
-- "#" for the batch's id suffix; one gsub per request instead of 1,000 string.formats.
local parts = {}
for i = 0, 999 do
  parts[#parts + 1] = string.format('{"timestampMs":@%03d000,"latitude":%.6f,"longitude":-8.4,"speedMps":15,'
    .. '"courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false}', i, 40.2 + i * 0.000135)
end
local template = '{"batchId":"bench-r' .. run .. '-t#","deviceId":"understudy-bench","platform":"ios","samples":['
  .. table.concat(parts, ",") .. ']}'

-- setup() runs in the main Lua state; thread:set makes `thread_index` a global of each thread's state.
local threads = 0
function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  wrk.headers["Authorization"] = "Bearer " .. (tokens[(thread_index or 0) + 1] or "missing-token")
  wrk.headers["Content-Type"] = "application/json"
end

local counter = 0
function request()
  local k = string.format("%.0f", start / 1000000 + counter)
  local body = template:gsub("#", (thread_index or 0) .. "-" .. counter, 1):gsub("@", k)
  counter = counter + 1
  return wrk.format("POST", nil, nil, body)
end

if os.getenv("WRK_CHECK") == "1" then
  local seen = false
  function response(status, headers, body)
    if not seen then
      seen = true
      io.write(string.format("wrk-check %d %s\n", status, (string.sub(body or "", 1, 300):gsub("\n", " "))))
      wrk.thread:stop()
    end
  end
end
