--- obstructions.lua: rotated obstructions and passability classes.
--
--   lua5.4 examples/obstructions.lua
--
-- A grid with three classes of different clearance gets a rotated crate and
-- a thin fence. For each class the example draws which navcells they block,
-- finds a path across, then removes both obstructions and checks that every
-- class is back to the passability it had before.

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local grid = wayfinder.grid.new(36, 13, {
  classes = {
    { name = "scout", clearance = 0 },
    { name = "cart", clearance = 1 },
    { name = "siege", clearance = 2 },
  },
})

-- Passability of every class before the obstructions, as to_ascii text.
local before = {}
for _, c in ipairs(grid:classes()) do before[c.name] = grid:to_ascii(c.name) end

-- A 10 x 3 crate turned by 30 degrees, and a fence 7 long and only 0.1 thick
-- at 45 degrees. Angles are in radians, anticlockwise from the x axis (with
-- y growing downward on the screen, that turns the shape clockwise there).
local shapes = {
  { x = 11, y = 6.5, half_width = 5, half_height = 1.5, angle = math.rad(30) },
  { x = 27, y = 6.5, half_width = 3.5, half_height = 0.05, angle = math.rad(45) },
}
local ids = {}
for i, s in ipairs(shapes) do ids[i] = grid:add_obstruction(s) end
print(("grid %d x %d, obstructions %s"):format(grid:width(), grid:height(),
  table.concat(grid:obstructions(), ", ")))
for i, s in ipairs(shapes) do
  print(("  id %d: centre (%g, %g), %g x %g, turned %d degrees"):format(ids[i], s.x, s.y,
    2 * s.half_width, 2 * s.half_height, math.floor(math.deg(s.angle) + 0.5)))
end

-- True when the centre of navcell (x, y) lies inside one of the shapes.
local function centre_inside(x, y)
  for _, s in ipairs(shapes) do
    local dx, dy = x + 0.5 - s.x, y + 0.5 - s.y
    local ux, uy = math.cos(s.angle), math.sin(s.angle)
    local u = dx * ux + dy * uy
    local v = -dx * uy + dy * ux
    if math.abs(u) <= s.half_width and math.abs(v) <= s.half_height then return true end
  end
  return false
end

-- The navcells a path crosses, walked from waypoint to waypoint (path
-- segments are straight or diagonal runs).
local function path_cells(path)
  local cells = {}
  for i = 1, #path - 1 do
    local x, y = path[i].x, path[i].y
    local bx, by = path[i + 1].x, path[i + 1].y
    local dx = bx > x and 1 or (bx < x and -1 or 0)
    local dy = by > y and 1 or (by < y and -1 or 0)
    while x ~= bx or y ~= by do
      cells[y * 1000 + x] = true
      x, y = x + dx, y + dy
    end
  end
  cells[path[#path].y * 1000 + path[#path].x] = true
  return cells
end

print()
print("legend:  . passable   o path   X blocked, centre inside a shape")
print("         x passable although its centre is inside a shape")
print("         # blocked by a shape (clearance)")
print("         - blocked before any shape: off-grid counts as blocked,")
print("           so clearance keeps wide classes off the map's edge")
for _, c in ipairs(grid:classes()) do
  local old = {}
  for line in before[c.name]:gmatch("[^\n]+") do old[#old + 1] = line end
  local path, length = grid:find_path(2.5, 6.5, 33.5, 6.5, { class = c.name })
  local on_path = path and path_cells(path) or {}
  print()
  print(("class %s, clearance %d: %s"):format(c.name, c.clearance,
    path and ("path (2,6) to (33,6), length %.4f"):format(length)
    or ("no path from (2,6) to (33,6): %s"):format(length)))
  for y = 0, grid:height() - 1 do
    local line = {}
    for x = 0, grid:width() - 1 do
      local ch = "."
      if old[y + 1]:sub(x + 1, x + 1) == "@" then
        ch = "-"
      elseif not grid:is_passable(x, y, c.name) then
        ch = centre_inside(x, y) and "X" or "#"
      elseif on_path[y * 1000 + x] then
        ch = "o"
      elseif centre_inside(x, y) then
        ch = "x"
      end
      line[#line + 1] = ch
    end
    print("  " .. table.concat(line))
  end
end

for _, id in ipairs(ids) do grid:remove_obstruction(id) end
local same = true
for _, c in ipairs(grid:classes()) do
  same = same and grid:to_ascii(c.name) == before[c.name]
end
print()
print(("after remove_obstruction: %d obstructions left, every class as before: %s")
  :format(#grid:obstructions(), same))

grid:close()
