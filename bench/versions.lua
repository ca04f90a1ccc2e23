-- The binding's cost per call on every installed Lua, side by side.
--   lua5.4 bench/versions.lua            (make bench runs it after make versions)
-- runs itself once per interpreter (lua5.4 with build/, the others with
-- build/<interpreter>/, those listed in build/versions) and prints one table:
-- nanoseconds per call of a few entry points, CPU time (os.clock), best of
-- five rounds. Child mode: bench/versions.lua --one CPATH prints "name ns"
-- lines for this interpreter.
local CASES = {
  { "grid:width()", 200000, function(g) return g:width() end },
  { "grid:is_passable(x, y)", 200000, function(g, i) return g:is_passable(i % 60, 7) end },
  { "grid:set_cost(x, y, c)", 200000, function(g, i) return g:set_cost(i % 60, 9, 1 + i % 3) end },
  { "grid:find_path (8 cells)", 20000, function(g) return g:find_path(2.5, 2.5, 10.5, 2.5) end },
  { "grid:find_path (60 cells)", 2000, function(g) return g:find_path(1.5, 1.5, 61.5, 60.5) end },
  { "queue submit+run+result", 5000, function(_, _, q)
    local h = q:submit { sx = 2.5, sy = 2.5, gx = 30.5, gy = 20.5 }
    q:run()
    return h:result()
  end },
}

if arg[1] == "--one" then
  package.cpath = arg[2]
  package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
  local wayfinder = require("wayfinder")
  local g = wayfinder.grid.new(64, 64)
  for y = 10, 50 do g:set_passable(32, y, false) end
  local q = wayfinder.queue.new(g)
  for _, c in ipairs(CASES) do
    local name, n, f = c[1], c[2], c[3]
    local best = math.huge
    for _ = 1, 5 do
      local t0 = os.clock()
      for i = 1, n do f(g, i, q) end
      local t = os.clock() - t0
      if t < best then best = t end
    end
    print(("%s\t%.0f"):format(name, best / n * 1e9))
  end
  q:close()
  g:close()
  return
end

local runs = { { lua = "lua5.4", cpath = "build/?.so" } }
local f = io.open("build/versions", "r")
if f then
  for v in f:lines() do
    if v ~= "" then runs[#runs + 1] = { lua = v, cpath = "build/" .. v .. "/?.so" } end
  end
  f:close()
else
  print("build/versions missing: only lua5.4 (run make versions for the others)")
end

local results = {}
for _, r in ipairs(runs) do
  local p = assert(io.popen(("%s bench/versions.lua --one '%s' 2>&1"):format(r.lua, r.cpath)))
  local out = p:read("*a")
  p:close()
  r.ns = {}
  for name, ns in out:gmatch("([^\n\t]+)\t(%d+)") do r.ns[name] = tonumber(ns) end
  if not next(r.ns) then error(r.lua .. " failed:\n" .. out) end
  results[#results + 1] = r
end

local line = ("%-28s"):format("ns per call (best of 5)")
for _, r in ipairs(results) do line = line .. ("%10s"):format(r.lua) end
print(line)
for _, c in ipairs(CASES) do
  line = ("%-28s"):format(c[1])
  for _, r in ipairs(results) do line = line .. ("%10s"):format(r.ns[c[1]] or "-") end
  print(line)
end
