-- Telematics telemetry upload: 1,000 samples per batch at 1 s spacing, a distinct batchId and distinct
-- sample times per request. Each wrk thread drives its own users (TOKENS: comma-separated access tokens,
-- USERS_PER_THREAD of them per thread, fresh per wrk run) in turn, one batch each, so a user's next batch
-- goes out only after the thread's other users have had theirs: a user's batches arrive in order and its
-- samples form one continuous period, as a device's would. (One user on all of a thread's connections
-- had its batches overtake each other; every overtaking closed the user's period as idle, and processing
-- it read its thousands of samples back, which a device uploading in order never causes.)
-- Env: TOKENS, USERS_PER_THREAD (default 1), RUN (unique per wrk run), START_MS (first sample time, a
-- multiple of 1,000,000), WRK_CHECK=1 (print the first response and stop); TELEMETRY_BODIES=DIR sends the
-- gzip batches that `seed.py telemetry-bodies` made there instead (the same batches, compressed).
local tokens = {}
for t in string.gmatch(os.getenv("TOKENS") or "", "[^,]+") do tokens[#tokens + 1] = t end
local perThread = tonumber(os.getenv("USERS_PER_THREAD") or "1")
local run = os.getenv("RUN") or "0"
local start = tonumber(os.getenv("START_MS") or "1700000000000")

-- Request n of a thread goes to its user n % perThread, as that user's batch floor(n / perThread). Sample i
-- of batch b starts at K = START_MS / 1,000,000 + b: its time is K .. string.format("%03d000", i). The body
-- is kept as the pieces between those K's, so a request is one table.concat with K as the separator: a gsub
-- over the 150 KB body cost wrk about 2 ms of CPU a request, a third of the two cores the server shares.
local parts = {}
for i = 0, 999 do
  parts[#parts + 1] = string.format('{"timestampMs":@%03d000,"latitude":%.6f,"longitude":-8.4,"speedMps":15,'
    .. '"courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false}', i, 40.2 + i * 0.000135)
end
local head = '{"batchId":"bench-r' .. run .. '-t'
local samples = '","deviceId":"understudy-bench","platform":"ios","samples":[' .. table.concat(parts, ",") .. ']}'
local pieces = {}
for piece in string.gmatch(samples .. "@", "([^@]*)@") do pieces[#pieces + 1] = piece end

-- setup() runs in the main Lua state; thread:set makes `thread_index` a global of each thread's state.
local threads = 0
function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

local auth = {}
local gzipped = nil
function init(args)
  local thread = thread_index or 0
  for user = 1, perThread do
    auth[user] = "Bearer " .. (tokens[thread * perThread + user] or "missing-token")
  end
  wrk.headers["Content-Type"] = "application/json"
  local dir = os.getenv("TELEMETRY_BODIES")
  if dir then
    local path = dir .. "/telemetry-" .. thread
    local file = assert(io.open(path .. ".gz", "rb"))
    local data = file:read("*a")
    file:close()
    gzipped = {}
    local offset = 1
    for size in io.lines(path .. ".sizes") do
      gzipped[#gzipped + 1] = string.sub(data, offset, offset + tonumber(size) - 1)
      offset = offset + tonumber(size)
    end
    wrk.headers["Content-Encoding"] = "gzip"
  end
end

local counter = 0
function request()
  local body
  if gzipped then
    -- Past the last prepared batch the last one repeats: the server answers it as a duplicate, which
    -- the benchmark counts and fails on, rather than measuring a different request.
    body = gzipped[math.min(counter + 1, #gzipped)]
  else
    local k = string.format("%.0f", start / 1000000 + math.floor(counter / perThread))
    body = head .. (thread_index or 0) .. "-" .. counter .. table.concat(pieces, k)
  end
  wrk.headers["Authorization"] = auth[counter % perThread + 1]
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
