-- Usage: lua5.4 spec/support/trace.lua 'build/?.so'
-- Loads wayfinder's C core from the given cpath only, runs the fixed batch
-- of spec/support/trace_batch.lua and prints three lines: the file the core
-- was loaded from, the batch hash and the number of paths found.
local cpath = arg[1]
if not cpath then
  io.stderr:write("usage: lua5.4 spec/support/trace.lua CPATH\n")
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
local digest, found = require("support.trace_batch").trace(wayfinder)
print(where)
print(digest)
print(found)
