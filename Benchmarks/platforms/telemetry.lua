-- Telematics telemetry upload: 1,000 samples per batch at 1 s spacing, a distinct batchId and distinct
-- sample times per request. Each wrk thread drives its own user (TOKENS: comma-separated access tokens,
-- one per thread), so every user's samples form one continuous period as a real device's would.
-- Env: TOKENS, RUN (unique per wrk run), START_MS (first sample time, a multiple of 1,000,000).
local tokens = {}
for t in string.gmatch(os.getenv("TOKENS") or "", "[^,]+") do tokens[#tokens + 1] = t end
local run = os.getenv("RUN") or "0"
local start = tonumber(os.getenv("START_MS") or "1700000000000")
local path = os.getenv("TELEMETRY_PATH") or "/telematics/api/v1/telemetry"

-- Sample i of a batch starting at K * 1,000,000 ms is at K .. string.format("%03d000", i): "@" stands for K.
local parts = {}
for i = 0, 999 do
  parts[#parts + 1] = string.format('{"timestampMs":@%03d000,"latitude":%.6f,"longitude":-8.400000,"speedMps":15,'
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

local counter = 0
function init(args)
  wrk.headers["Authorization"] = "Bearer " .. (tokens[(thread_index or 0) + 1] or "missing-token")
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local k = string.format("%.0f", start / 1000000 + counter)
  local body = template:gsub("#", (thread_index or 0) .. "-" .. counter, 1):gsub("@", k)
  counter = counter + 1
  return wrk.format("POST", path, nil, body)
end
