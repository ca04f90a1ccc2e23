-- A flock of 24 agents wanders a walled field, keeping together by
-- separation, alignment and cohesion; a hawk pursues the first of them,
-- which evades. Prints the field every 40 ticks.
-- Run: lua5.4 examples/flock.lua  (after `make build`)
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath
local wayfinder = require("wayfinder")

local rows = {}
for y = 0, 15 do
  local row = {}
  for x = 0, 39 do
    local wall = x == 0 or y == 0 or x == 39 or y == 15 or (x == 20 and y >= 4 and y <= 11)
    row[#row + 1] = wall and "@" or "."
  end
  rows[#rows + 1] = table.concat(row)
end
local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")

local g = wayfinder.steer.group({ max_speed = 0.3, max_accel = 0.05, radius = 0.2,
  neighbour_radius = 2, separation_radius = 1, seed = 42, wander_jitter = 0.4 })
for i = 0, 23 do
  local a = g:add(3 + (i % 6) * 1.5, 3 + math.floor(i / 6) * 1.5)
  g:behave(a, { wander = 2, separation = 4, alignment = 2, cohesion = 1 })
end
local hawk = g:add(30.5, 12.5)
g:speed(hawk, 0.25)
g:behave(hawk, { pursue = 1 })
g:chase(hawk, 1)
g:behave(1, { evade = 3, separation = 2 })
g:chase(1, hawk)

for tick = 1, 160 do
  g:step(grid)
  if tick % 40 == 0 then
    local canvas = {}
    for y = 1, #rows do canvas[y] = { rows[y]:byte(1, -1) } end
    for i = 1, g:count() do
      local x, y = g:get(i)
      canvas[math.floor(y) + 1][math.floor(x) + 1] = (i == hawk and "H" or "o"):byte()
    end
    print(("tick %d"):format(tick))
    for y = 1, #rows do
      local line = {}
      for x = 1, #canvas[y] do line[x] = string.char(canvas[y][x]) end
      print(table.concat(line))
    end
  end
end
