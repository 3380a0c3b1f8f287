-- Asleep 30-second upload: multipart `seq_num` + `file` (a ~30 KB NumPy chunk), a distinct seq_num per request.
-- Env: ASLEEP_PATH (/asleep/ai/v1/sessions/<id>/upload), SEQ_BASE (unique per wrk run), CHUNK_BYTES (30720).
-- Headers (x-api-key, x-user-id, User-Agent) come from -H flags.
local counter = 0
local boundary = "understudy-bench-boundary"
local path = os.getenv("ASLEEP_PATH")
local base = tonumber(os.getenv("SEQ_BASE") or "0")
local size = tonumber(os.getenv("CHUNK_BYTES") or "30720")

-- \x93NUMPY v1.0 header padded to 128 bytes, then zeros: what AsleepClient.melChunk sends.
local header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" .. math.floor((size - 128) / 4) .. ",), }"
header = header .. string.rep(" ", 118 - #header) .. "\n"
local chunk = "\147NUMPY\1\0" .. string.char(#header % 256, math.floor(#header / 256)) .. header
chunk = chunk .. string.rep("\0", size - #chunk)

local head = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"seq_num\"\r\n\r\n"
local middle = "\r\n--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"chunk.npy\"\r\n"
  .. "Content-Type: application/octet-stream\r\n\r\n" .. chunk .. "\r\n--" .. boundary .. "--\r\n"

-- setup() runs in the main Lua state; thread:set makes `thread_index` a global of each thread's state.
local threads = 0
function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  wrk.headers["Content-Type"] = "multipart/form-data; boundary=" .. boundary
end

function request()
  counter = counter + 1
  local seq = base + (thread_index or 0) * 1000000 + counter
  return wrk.format("POST", path, nil, head .. seq .. middle)
end
