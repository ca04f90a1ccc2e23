--- crowd.lua: units with local avoidance meeting head-on in a corridor two
-- navcells wide, then a crowd of ten crossing through a door one navcell
-- wide while an idle unit stands on one of their goals.
--
--   lua5.4 examples/crowd.lua [orca|velocity]
--
-- Both scenes use wayfinder.units.new(grid, { avoidance = MODE }): "orca"
-- (the default here: reciprocal half-planes, docs/units.md "ORCA
-- avoidance") or "velocity" (sampled velocities, "Avoidance"). Drawn in
-- ASCII every few ticks: '#' blocked, letters the units (A is unit 1, B
-- unit 2, ...), '.' open.

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local MODE = arg and arg[1] or "orca"

local function draw(rows, units, ids, title)
  local canvas = {}
  for y, row in ipairs(rows) do
    canvas[y] = {}
    for x = 1, #row do canvas[y][x] = row:sub(x, x) end
  end
  for k, id in ipairs(ids) do
    local x, y = units:position(id)
    canvas[math.floor(y) + 1][math.floor(x) + 1] = string.char(64 + k)
  end
  print(title)
  for y = 1, #canvas do print(table.concat(canvas[y])) end
end

local function scene(rows, list, ticks, every, name)
  local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
  local units = wayfinder.units.new(grid, { avoidance = MODE, max_wait = 200 })
  local ids = {}
  for k, s in ipairs(list) do
    ids[k] = assert(units:add({ x = s[1], y = s[2], radius = 0.4, speed = 0.25 }))
  end
  local ordered = 0
  for k, s in ipairs(list) do
    if s[3] then
      units:move(ids[k], s[3], s[4])
      ordered = ordered + 1
    end
  end
  local arrived = 0
  for t = 1, ticks do
    for _, e in ipairs(units:tick()) do
      if e.event == "arrived" then arrived = arrived + 1 end
      if e.event == "failed" then
        print(("%s: unit %d failed (%s) at tick %d"):format(name, e.id, e.reason, t))
      end
    end
    if t % every == 0 or arrived == ordered then
      draw(rows, units, ids, ("%s, tick %d: %d of %d arrived"):format(name, t, arrived, ordered))
    end
    if arrived == ordered then break end
  end
end

-- Head-on in a corridor two navcells wide: each keeps to its own right.
scene({
  "########################",
  "#......................#",
  "#......................#",
  "########################",
}, { { 2.5, 1.5, 21.5, 1.5 }, { 21.5, 1.5, 2.5, 1.5 } }, 200, 12, "head-on")

-- Ten units through a door; K stands idle on J's goal and is shoved aside.
local rows = {}
for y = 0, 12 do
  local r = {}
  for x = 0, 20 do
    local wall = x == 0 or y == 0 or x == 20 or y == 12 or (x == 10 and y ~= 6)
    r[#r + 1] = wall and "#" or "."
  end
  rows[#rows + 1] = table.concat(r)
end
local list = {}
for k = 0, 9 do
  local col, row = k % 3, math.floor(k / 3)
  list[#list + 1] = { 2.5 + col, 3.5 + row * 1.5, 16.5 + col, 3.5 + row * 1.5 }
end
list[#list + 1] = { list[10][3], list[10][4] }
scene(rows, list, 400, 40, "door")
