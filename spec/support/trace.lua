-- Usage: lua5.4 spec/support/trace.lua 'build/?.so'
-- Loads wayfinder's C core from the given cpath only, runs the fixed batch
-- of spec/support/trace_batch.lua and prints three lines: the file the core
-- was loaded from, the batch hash and the number of paths found.
local cpath = arg[1]
if not cpath then
  io.stderr:write("usage: LUA spec/support/trace.lua CPATH\n")
  os.exit(2)
end
package.cpath = cpath
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"

-- package.searchpath is 5.2+: the same search by hand
local where
for t in cpath:gmatch("[^;]+") do
  local f = t:gsub("%?", "wayfinder/core")
  local h = io.open(f, "rb")
  if h then h:close(); where = f; break end
end
if not where then
  io.stderr:write("no wayfinder.core in " .. cpath .. "\n")
  os.exit(1)
end
local wayfinder = require("wayfinder")
local digest, found = require("support.trace_batch").trace(wayfinder)
print(where)
print(digest)
print(found)
