--- terrain.lua: heightmap terrain, drawn in ASCII.
--
--   lua5.4 examples/terrain.lua
--
-- A 48 x 24 grid gets a heightmap (tiles of 4 navcells): a ridge with one
-- low pass and a lake.
-- Walkers may not climb slopes over 0.5 nor wade; carts are wider and take
-- the round clearance; ships need half a unit of water. The example draws
-- the ground (~ water, ^ steep, . walkable), each class's passability, a
-- walker's path through the pass, then lowers one corner of the ridge with
-- grid:set_height (a local update) and shows the shorter path it opens.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local W, H, TILE = 48, 24, 4
local TW, TH = W / TILE, H / TILE

local grid = wayfinder.grid.new(W, H, { classes = {
  { name = "walker", max_slope = 0.5, max_water_depth = 0 },
  { name = "cart", clearance = 2, max_slope = 0.25, max_water_depth = 0,
    clearance_shape = "circle" },
  { name = "ship", min_water_depth = 0.5 },
} })

-- corner heights: a ridge along corner column 4 except a pass between
-- corner rows 4 and 5, and a hollow (the lake) under corners 7 to 10
-- across, 2 to 4 down; everything else is land at height 1
local heights = {}
for ty = 0, TH do
  for tx = 0, TW do
    local h = 1
    if tx == 4 and ty ~= 4 and ty ~= 5 then h = 5 end
    if tx >= 7 and tx <= 10 and ty >= 2 and ty <= 4 then h = -2 end
    heights[#heights + 1] = h
  end
end
grid:set_heightmap { tile = TILE, width = TW, height = TH, heights = heights, water = 0 }

local function draw(title, cell)
  print(title)
  for y = 0, H - 1 do
    local row = {}
    for x = 0, W - 1 do row[#row + 1] = cell(x, y) end
    print("  " .. table.concat(row))
  end
  print()
end

draw("ground (~ water, ^ slope over 0.5, . walkable):", function(x, y)
  local _, slope, depth = grid:terrain(x, y)
  if depth > 0 then return "~" end
  if slope > 0.5 then return "^" end
  return "."
end)

for _, c in ipairs(grid:classes()) do
  draw(("class %s (clearance %d%s):"):format(c.name, c.clearance,
    c.clearance_shape and ", " .. c.clearance_shape or ""), function(x, y)
    return grid:is_passable(x, y, c.name) and "." or "@"
  end)
end

local function route(title)
  local path, length = grid:find_path(1.5, 2.5, 46.5, 2.5, { class = "walker", smooth = true })
  local on = {}
  if path then
    for k = 2, #path do
      -- mark the navcells along each leg
      local a, b = path[k - 1], path[k]
      local n = math.max(math.abs(b.x - a.x), math.abs(b.y - a.y), 1)
      for s = 0, n do
        on[math.floor(a.x + (b.x - a.x) * s / n + 0.5) .. "," ..
           math.floor(a.y + (b.y - a.y) * s / n + 0.5)] = true
      end
    end
  end
  draw(("%s: length %s"):format(title, path and ("%.2f"):format(length) or "none"), function(x, y)
    if on[x .. "," .. y] then return "*" end
    return grid:is_passable(x, y, "walker") and "." or "@"
  end)
end

route("walker from (1, 2) to (46, 2) through the pass")
local v = grid:version()
-- lower the ridge's two top corners: a second, shorter pass
grid:batch(function(g)
  g:set_height(4, 0, 1)
  g:set_height(4, 1, 1)
end)
print(("lowered two corners: version %d -> %d"):format(v, grid:version()))
route("after the edit")
