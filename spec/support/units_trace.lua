-- Usage: lua5.4 spec/support/units_trace.lua 'build/?.so'
-- Loads wayfinder's C core from the given cpath only, runs a fixed unit
-- scenario (random map, random units and orders, detours and the vertex
-- pathfinder included) and prints the file the core was loaded from, the
-- trace hash and the number of arrivals.
local cpath = arg[1]
if not cpath then
  io.stderr:write("usage: lua5.4 spec/support/units_trace.lua CPATH\n")
  os.exit(2)
end
package.cpath = cpath
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"

local where = package.searchpath("wayfinder.core", cpath)
if not where then
  io.stderr:write("no wayfinder.core in " .. cpath .. "\n")
  os.exit(1)
end
local wayfinder = require("wayfinder")
local run = require("support.units_run")

local g = run.map(1801, 40, 32, 0.12)
local units = wayfinder.units.new(g, { max_order_ticks = 120, budget = 500, max_wait = 8 })
local _, schedule = run.populate(units, g, 1802, 40, 150)
local lines, arrived = {}, 0
for t = 1, 150 do
  run.issue(units, schedule, t)
  for _, e in ipairs(units:tick()) do
    lines[#lines + 1] = ("%d %d %s %s"):format(e.tick, e.id, e.event, e.reason or "")
    if e.event == "arrived" then arrived = arrived + 1 end
  end
  lines[#lines + 1] = run.trace_line(t, run.snapshot(units))
end
print(where)
print(("%08x"):format(run.hash(lines)))
print(arrived)
