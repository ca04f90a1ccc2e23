-- Usage: lua5.4 spec/support/trace.lua 'build/?.so'
-- Loads wayfinder's C core from the given cpath only, runs the fixed batch
-- of spec/support/trace_batch.lua and prints three lines: the file the core
-- was loaded from, the batch hash and the number of paths found.
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"
local wayfinder, where = require("support.core_from")("spec/support/trace.lua", arg[1])
local digest, found = require("support.trace_batch").trace(wayfinder)
print(where)
print(digest)
print(found)
