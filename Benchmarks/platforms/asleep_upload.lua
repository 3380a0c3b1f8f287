-- Asleep's 30-second upload as the SDK sends it: multipart `seq_num` + `file` (a ~30 KB NumPy chunk).
-- Every request carries a distinct seq_num on an OPEN session. A session takes seq_num 0…5759 (48 h of
-- chunks), so each thread walks through its own share of SESSIONS ("user:session,…", fresh per wrk run),
-- 5,700 chunks per session, setting x-user-id to the session's user.
-- Env: SESSIONS, CHUNK_BYTES (default 30720), WRK_CHECK=1 (print the first response and stop).
-- PUT_PREFIX=/dav/ sends the same bodies as PUTs to /dav/<thread>-<n>.npy instead (16 names a thread, taken in
-- turn): hotpaths.sh's nginx references for the upload, one storing each body in a file, one reading and dropping it.
-- Other headers (x-api-key, User-Agent) come from -H flags.
local boundary = "understudy-bench-boundary"
local size = tonumber(os.getenv("CHUNK_BYTES") or "30720")
local per_session = 5700
local pairs_list = {}
for user, session in string.gmatch(os.getenv("SESSIONS") or "", "([^:,]+):([^:,]+)") do
  pairs_list[#pairs_list + 1] = { user = user, path = "/asleep/ai/v1/sessions/" .. session .. "/upload" }
end

-- \x93NUMPY v1.0, header padded to 128 bytes, then zeros: what AsleepClient.melChunk sends.
local header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" .. math.floor((size - 128) / 4) .. ",), }"
header = header .. string.rep(" ", 118 - #header) .. "\n"
local chunk = "\147NUMPY\1\0" .. string.char(#header % 256, math.floor(#header / 256)) .. header
chunk = chunk .. string.rep("\0", size - #chunk)

local head = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\n"
local tail = "\r\n--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"chunk.npy\"\r\n"
  .. "Content-Type: application/octet-stream\r\n\r\n" .. chunk .. "\r\n--" .. boundary .. "--\r\n"

-- setup() runs in the main Lua state; thread:set makes `thread_index` a global of each thread's state.
local threads = 0
function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

local first, share
function init(args)
  local count = tonumber(os.getenv("THREAD_COUNT") or "1")
  share = math.floor(#pairs_list / count)
  first = (thread_index or 0) * share
  wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
end

local counter = 0
local put_prefix = os.getenv("PUT_PREFIX")
function request()
  if put_prefix then
    counter = counter + 1
    return wrk.format("PUT", put_prefix .. (thread_index or 0) .. "-" .. (counter % 16) .. ".npy", nil, head .. (counter % per_session) .. tail)
  end
  local slot = math.floor(counter / per_session)
  if slot >= share then slot = share - 1 end -- out of sessions: repeats become idempotent re-uploads (counted by the check)
  local pair = pairs_list[first + slot + 1]
  local seq = counter % per_session
  counter = counter + 1
  wrk.headers["x-user-id"] = pair.user
  return wrk.format("POST", pair.path, nil, head .. seq .. tail)
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
