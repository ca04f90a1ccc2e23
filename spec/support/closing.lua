--- Runs a `<close>` scope where the language has one (Lua 5.4): compiled
-- from text so this file parses on every version. closing(new, inside)
-- makes v = new() a to-be-closed variable, calls inside(v) in its scope
-- and returns v after the scope ended; nil before Lua 5.4.
local compat = require("wayfinder.compat")

local CHUNK = [[
local new, inside = ...
local kept
do
  local v <close> = new()
  inside(v)
  kept = v
end
return kept
]]

return function(new, inside)
  local chunk = compat.VERSION == "5.4" and compat.load(CHUNK, "=closing", "t", {})
  if not chunk then return nil end
  return chunk(new, inside)
end
