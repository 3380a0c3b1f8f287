-- One fixed request for every call: method from WRK_METHOD (GET), body (read as bytes) from WRK_BODY_FILE.
-- Headers come from wrk's -H flags (they fill wrk.headers). WRK_CHECK=1 prints the first response and stops.
wrk.method = os.getenv("WRK_METHOD") or "GET"
local path = os.getenv("WRK_BODY_FILE")
if path and path ~= "" then
  local f = assert(io.open(path, "rb"))
  wrk.body = f:read("*a")
  f:close()
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
