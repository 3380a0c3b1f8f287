-- Seeds about COUNT rows through one control-plane route as fast as the server takes them: every
-- request carries a distinct key (BODY with "%d" replaced by a running number from FIRST; one wrk
-- thread, so the numbering is shared) and the run stops once COUNT rows were created (201). Requests
-- already in flight then may add up to connections − 1 more: the caller counts the rows afterwards.
-- "%t" in BODY becomes a UTC time, the running number in hours after 2000-01-01, and "%e" 30 minutes later
-- (distinct trip times). Prints "bulk <created> <failed>" at the end.
-- Env: PATH_ (the route), BODY (JSON with %d, %t, %e), COUNT, FIRST.
local route = os.getenv("PATH_")
local body = os.getenv("BODY")
local count = tonumber(os.getenv("COUNT") or "0")
local next_key = tonumber(os.getenv("FIRST") or "0")
local created, failed = 0, 0
wrk.headers["Content-Type"] = "application/json"

function request()
  local key = next_key
  next_key = next_key + 1
  local at = 946684800 + key * 3600
  local text = body:gsub("%%d", tostring(key)):gsub("%%t", os.date("!%Y-%m-%dT%H:%M:%SZ", at))
    :gsub("%%e", os.date("!%Y-%m-%dT%H:%M:%SZ", at + 1800))
  return wrk.format("POST", route, nil, text)
end

function response(status, headers, text)
  if status == 201 then created = created + 1
  else
    failed = failed + 1
    if failed <= 3 then io.stderr:write("bulk: HTTP " .. status .. ": " .. string.sub(text or "", 1, 200) .. "\n") end
  end
  if created + failed >= count then
    io.write(string.format("bulk %d %d\n", created, failed))
    io.flush()
    wrk.thread:stop()
  end
end
