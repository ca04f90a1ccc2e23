-- tools/reference-hash.lua: the trace hashes of the reference runs
-- (spec/support/trace_batch.lua, spec/support/reference_runs.lua), printed,
-- and with --update written to spec/data/reference_traces.lua, which
-- spec/reference_traces_spec.lua and spec/determinism_spec.lua compare on
-- every Lua version and build.
--
--   lua5.4 tools/reference-hash.lua            # print; exit 1 if any differs
--   lua5.4 tools/reference-hash.lua --update   # write the new values
--
-- Re-base with --update only when a change is meant to alter results (the
-- house walker reworked, say): check why a hash moved, and commit the new
-- file with the change, saying so in the commit message.
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
package.cpath = (os.getenv("WAYFINDER_CPATH") or "build/?.so") .. ";" .. package.cpath

local update = arg and arg[1] == "--update"
if arg and arg[1] and not update then
  io.stderr:write("usage: lua5.4 tools/reference-hash.lua [--update]\n")
  os.exit(2)
end

local wayfinder = require("wayfinder")
local batch = require("support.trace_batch")
local runs = require("support.reference_runs")
local FILE = "spec/data/reference_traces.lua"

local now = { batch = batch.trace(wayfinder), house = runs.house(), units = (runs.units(wayfinder)) }
local old = dofile(FILE)
local KEYS = { "batch", "house", "units" }
local differ = 0
for _, k in ipairs(KEYS) do
  local same = old[k] == now[k]
  if not same then differ = differ + 1 end
  print(("%-6s %s%s"):format(k, now[k], same and "" or ("  (committed: " .. tostring(old[k]) .. ")")))
end

if update then
  local f = assert(io.open(FILE, "w"))
  f:write([[
-- Trace hashes of this module's reference runs, committed so that a build
-- whose results differ (another compiler, processor or C library, or a
-- change in the code) fails instead of agreeing with itself. When a change
-- is meant to alter results, check why the hash moved, then re-base with
--   lua5.4 tools/reference-hash.lua --update
-- and commit this file with the change, saying so in its message.
-- Each is a 32-bit FNV-1a over values written exactly, with every random
-- choice from the portable generator of spec/support/prng.lua.
return {
  -- spec/support/trace_batch.lua: mixed grid work (400 queries)
]])
  f:write(('  batch = "%s",\n'):format(now.batch))
  f:write("  -- spec/support/reference_runs.lua: the house world, 24 wanderers, 200 ticks\n")
  f:write(('  house = "%s",\n'):format(now.house))
  f:write("  -- spec/support/reference_runs.lua: 40 units, random orders, 150 ticks\n")
  f:write(('  units = "%s",\n'):format(now.units))
  f:write("}\n")
  f:close()
  print("written " .. FILE)
elseif differ > 0 then
  print(("%d hash(es) differ from %s; re-base with --update if the change is meant"):format(
    differ, FILE))
  os.exit(1)
end
