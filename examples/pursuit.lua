--- pursuit.lua: a pursuer chasing a player round a level, drawn in ASCII.
--
--   lua5.4 examples/pursuit.lua [ticks]
--
-- The player (P) runs a fixed loop round the level; the pursuer (C) plans
-- again every tick with wayfinder.pathtable.pursuer, first learning as it
-- goes (adaptive A*), then reading a compressed grid table built for the
-- level, and checks each plan's cost against a fresh grid:find_path. The
-- level is drawn every few ticks with the pursuer's current plan (*).

local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local LEVEL = [[
......................
.####.######.#######..
.#..............#.....
.#..#####..###..#.###.
.#..#...........#...#.
....#..######...###.#.
.####..#....#.......#.
.......#....#..######.
.#######....#.........
......................
]]

local ticks = tonumber(arg and arg[1] or "") or 60
local grid = wayfinder.grid.from_ascii(LEVEL)
local W, H = grid:width(), grid:height()

-- the player's loop: round the outside, clockwise
local loop = {}
for x = 0, W - 1 do loop[#loop + 1] = { x, 0 } end
for y = 1, H - 1 do loop[#loop + 1] = { W - 1, y } end
for x = W - 2, 0, -1 do loop[#loop + 1] = { x, H - 1 } end
for y = H - 2, 1, -1 do loop[#loop + 1] = { 0, y } end

local function draw(cx, cy, px, py, path)
  local rows = {}
  for y = 0, H - 1 do
    local row = {}
    for x = 0, W - 1 do row[x + 1] = grid:is_passable(x, y) and "." or "#" end
    rows[y + 1] = row
  end
  for _, p in ipairs(path or {}) do rows[p.y + 1][p.x + 1] = "*" end
  rows[py + 1][px + 1] = "P"
  rows[cy + 1][cx + 1] = "C"
  for _, r in ipairs(rows) do print(table.concat(r)) end
end

local function run(label, pursuer)
  print(("== %s"):format(label))
  local cx, cy = 9, 6
  local at = 1
  local expanded, worse = 0, 0
  for tick = 1, ticks do
    local px, py = loop[at][1], loop[at][2]
    local path, length, info = pursuer:plan(cx, cy, px, py)
    if not path then error("no plan: " .. tostring(length)) end
    local _, slength = grid:find_path(cx + 0.5, cy + 0.5, px + 0.5, py + 0.5)
    if math.abs(length - slength) > 1e-9 then worse = worse + 1 end
    expanded = expanded + info.expanded
    if tick % 20 == 1 then
      print(("tick %d: plan of %d navcells, length %.2f"):format(tick, #path, length))
      draw(cx, cy, px, py, path)
    end
    if #path == 1 then
      print(("caught at tick %d"):format(tick))
      break
    end
    cx, cy = path[2].x, path[2].y              -- the pursuer steps every tick
    if tick % 3 ~= 0 then at = at % #loop + 1 end -- the player on 2 ticks of 3
  end
  print(("%s: %d navcells expanded in all; plans longer than the search's: %d")
    :format(label, expanded, worse))
end

run("adaptive A*", wayfinder.pathtable.pursuer(grid))
local tbl = wayfinder.pathtable.build_grid(grid)
run("grid table", wayfinder.pathtable.pursuer(grid, { table = tbl }))
