-- WarpLink resolve as the 1.1 SDKs send it: a fresh random X-WarpLink-Tap-Id (a lower-case version-4
-- UUID) on every request, which the server keeps as the click's id. Otherwise static.lua's request
-- (headers from wrk's -H flags; WRK_CHECK=1 prints the first response and stops).
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(here .. "/static.lua")
math.randomseed(os.time() + math.floor(os.clock() * 1e6))

local hex = "0123456789abcdef"
local function uuid4()
  local out = {}
  for i = 1, 32 do
    local digit = math.random(1, 16)
    if i == 13 then digit = 5 elseif i == 17 then digit = 9 + math.random(0, 3) end -- "4", then 8–b
    out[#out + 1] = hex:sub(digit, digit)
    if i == 8 or i == 12 or i == 16 or i == 20 then out[#out + 1] = "-" end
  end
  return table.concat(out)
end

function request()
  wrk.headers["X-WarpLink-Tap-Id"] = uuid4()
  return wrk.format()
end
