-- Usage: LUA spec/support/errors_probe.lua CPATH
-- Feeds a fixed set of bad inputs to public entry points and prints each
-- error message on one line; spec/versions_spec.lua compares the output
-- of every Lua version with 5.4's.
package.cpath = arg[1]
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"
local wayfinder = require("wayfinder")
local grid, world = wayfinder.grid, wayfinder.world
local g = grid.new(4, 4)
local nan, inf = 0 / 0, math.huge
local cases = {
  function() grid.new(0, 4) end,
  function() grid.new(4.5, 4) end,
  function() grid.new(nan, 4) end,
  function() grid.new(inf, 4) end,
  function() grid.new("4", 4) end,
  function() grid.new(1e20, 4) end,
  function() grid.new(-7, 4) end,
  function() g:set_cost(0, 0, 0) end,
  function() g:set_cost(0, 0, 2 ^ 40) end,
  function() g:find_path(0.5, 0.5, nan, 0.5) end,
  function() g:find_path(0.5, 0.5, 1.5, 1.5, { max_expansions = -1 }) end,
  function() g:add_obstruction({ x = 1, y = 1, half_width = -1, half_height = 1 }) end,
  function() wayfinder.queue.new(g, { budget = 0.5 }) end,
  function() world.new({ width = 0, height = 3 }) end,
  function() world.new({ width = 3.5, height = 3 }) end,
  function() world.new({ width = 3, height = 3, max_score = 0 }) end,
  function() world.from_ascii(42) end,
  function() world.load("save") end,
  function() wayfinder.bt.wait(-1) end,
  function() wayfinder.movingai.parse_scenarios("version 1\n0 a.map 1 1 0 0\n") end,
}
for i, f in ipairs(cases) do
  local ok, err = pcall(f)
  print(i, ok and "no error" or tostring(err))
end
g:close()
