-- One fixed request for every call: method from WRK_METHOD, body (read as bytes) from WRK_BODY_FILE.
-- Headers come from wrk's -H flags (they fill wrk.headers).
wrk.method = os.getenv("WRK_METHOD") or "GET"
local path = os.getenv("WRK_BODY_FILE")
if path and path ~= "" then
  local f = assert(io.open(path, "rb"))
  wrk.body = f:read("*a")
  f:close()
end
