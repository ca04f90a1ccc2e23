-- Usage: LUA spec/support/world_errors_probe.lua CPATH
-- Bad input to wayfinder.world.from_ascii and wayfinder.world.load, from
-- the checks at the door to ones deep inside the builders; prints each
-- case's number, the line of this file the call is on, and the error
-- message. spec/world_errors_versions_spec.lua compares the output of every
-- Lua version and checks each message names the calling line.
package.cpath = arg[1]
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"
local wayfinder = require("wayfinder")
local world = wayfinder.world

local ROOM = "+-+-+\n|. .|\n+-+-+\n"
local saved = world.from_ascii(ROOM):save()
local function with(key, value)
  local t = {}
  for k, v in pairs(saved) do t[k] = v end
  t[key] = value
  return t
end

local cases = {
  function() world.from_ascii(42) end,
  function() world.from_ascii(ROOM, 7) end,
  function() world.from_ascii(ROOM, { legend = { x = 3 } }) end,
  function() world.from_ascii(ROOM, { world = 5 }) end,
  function() world.from_ascii(ROOM, { world = { max_score = 0 } }) end,
  function() world.from_ascii("+-+\n|q|\n+-+\n") end,
  function() world.from_ascii("ab\n") end,
  function() world.load("save") end,
  function() world.load(with("version", 9)) end,
  function() world.load(with("objects", 3)) end,
  function() world.load(with("next_id", -1)) end,
  function() world.load(with("objects", { 5 })) end,
  function() world.load(saved, 5) end,
  function() world.load(saved, {}, { colour = 1 }) end,
}
for i, f in ipairs(cases) do
  local ok, err = pcall(f)
  print(i, debug.getinfo(f, "S").linedefined, ok and "no error" or tostring(err))
end
