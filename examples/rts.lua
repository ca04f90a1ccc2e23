--- rts.lua: units trained at a building, sent through a gap, and moved off
-- a foundation.
--
--   lua5.4 examples/rts.lua
--
-- A barracks (an obstruction) trains eight units: spawn_points places them
-- round it. They are all ordered to the far side of a wall with one gap,
-- and walk there in the same ticks, going round each other. Then a
-- foundation is laid where some of them stand: disperse moves them off
-- while the builder stays. Drawn in ASCII: '#' blocked, 'B' the barracks,
-- digits the units (by id), 'F' the foundation.

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local W, H = 40, 16
local grid = wayfinder.grid.new(W, H)
-- a wall across x = 20 with a gap of three navcells at y = 7..9
for y = 0, H - 1 do
  if y < 7 or y > 9 then grid:set_passable(20, y, false) end
end
local barracks = { x = 8, y = 8, half_width = 2, half_height = 2 }
grid:add_obstruction(barracks)

local units = wayfinder.units.new(grid)

local function draw(title, foundation)
  print(title)
  local cells = {}
  for y = 0, H - 1 do
    cells[y] = {}
    for x = 0, W - 1 do cells[y][x] = grid:is_passable(x, y) and "." or "#" end
  end
  local function fill(s, ch)
    for y = math.floor(s.y - s.half_height), math.ceil(s.y + s.half_height) - 1 do
      for x = math.floor(s.x - s.half_width), math.ceil(s.x + s.half_width) - 1 do
        cells[y][x] = ch
      end
    end
  end
  fill(barracks, "B")
  if foundation then fill(foundation, "F") end
  for _, id in ipairs(units:ids()) do
    local x, y = units:position(id)
    cells[math.floor(y)][math.floor(x)] = tostring(id % 10)
  end
  for y = H - 1, 0, -1 do print(table.concat(cells[y], "", 0, W - 1)) end
  print()
end

-- training: eight positions round the barracks, the front (+y) first
for _, p in ipairs(units:spawn_points(barracks, nil, 0.4, 8)) do
  assert(units:add({ x = p[1], y = p[2], radius = 0.4, speed = 0.5 }))
end
draw("trained round the barracks:")

-- everyone to the same circle beyond the gap
for _, id in ipairs(units:ids()) do
  units:move(id, 32, 8, { goal = { shape = "circle", radius = 3 } })
end
local arrived, ticks = 0, 0
while arrived < units:count() and ticks < 200 do
  for _, e in ipairs(units:tick()) do
    if e.event == "arrived" then arrived = arrived + 1 end
    if e.event == "failed" then print(("unit %d failed: %s"):format(e.id, e.reason)) end
  end
  ticks = ticks + 1
end
draw(("through the gap: %d of %d arrived in %d ticks"):format(arrived, units:count(), ticks))

-- a foundation on top of some of them; unit 1 builds it and stays
local foundation = { x = 30, y = 8.5, half_width = 1.5, half_height = 1.5 }
print("the foundation can be placed: " .. tostring(grid:check_building(foundation, nil, 0)))
local builder = units:ids()[1]
local moved = units:disperse(foundation, builder)
units:tick(40)
draw(("%d units dispersed off the foundation; unit %d stays to build"):format(#moved, builder),
  foundation)

units:close()
grid:close()
