-- bench/terrain.lua - heightmap terrain on a 1024 x 1024 grid, side by side
-- in one run:
--   1. building the terrain passability from a heightmap (grid:set_heightmap
--      with three limited classes, one of them with a round clearance);
--   2. one corner edit (grid:set_height, recomputing its tiles grown by the
--      largest clearance) against a full rebuild (grid:set_heightmap with the
--      same edited map), both changing the same navcells.
-- Run from the repository root after `make build`:
--   lua5.4 bench/terrain.lua
-- Times are CPU time (os.clock), medians of the repeats.
package.path = "lua/?.lua;lua/?/init.lua;bench/?.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")
local stats = require("lib.stats")

local SIDE, TILE = 1024, 4
local TW = SIDE / TILE
local clock = os.clock

-- A seeded generator, the same on every machine.
local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return math.floor(s / 65536) % n
  end
end

-- Rolling ground: a coarse lattice of hills (every 8 corners) with jitter,
-- heights in 1/16 steps; the water level at 0 leaves lakes in the hollows.
local function heightmap(seed)
  local r = rng(seed)
  local coarse = {}
  local CW = TW / 8 + 2
  for k = 1, CW * CW do coarse[k] = r(161) - 60 end
  local heights = {}
  for ty = 0, TW do
    for tx = 0, TW do
      local cx, cy = math.floor(tx / 8), math.floor(ty / 8)
      local fx, fy = (tx % 8) / 8, (ty % 8) / 8
      local function c(i, j) return coarse[(cy + j) * CW + cx + i + 1] end
      local v = c(0, 0) * (1 - fx) * (1 - fy) + c(1, 0) * fx * (1 - fy)
                + c(0, 1) * (1 - fx) * fy + c(1, 1) * fx * fy
      heights[#heights + 1] = math.floor(v + r(9) - 4) / 16
    end
  end
  return { tile = TILE, width = TW, height = TW, heights = heights, water = 0 }
end

local CLASSES = {
  { name = "walk", clearance = 1, max_slope = 0.5, max_water_depth = 0.25 },
  { name = "cart", clearance = 3, max_slope = 0.25, max_water_depth = 0,
    clearance_shape = "circle" },
  { name = "ship", clearance = 2, min_water_depth = 0.5 },
}

local function ms(t) return stats.num(t * 1000) end

local map = heightmap(20240611)
local grid = wayfinder.grid.new(SIDE, SIDE, { classes = CLASSES })

-- 1. the full build, from a flat grid each time
local builds = {}
for _ = 1, 3 do
  grid:set_heightmap(nil)
  local t0 = clock()
  grid:set_heightmap(map)
  builds[#builds + 1] = clock() - t0
end
local open = 0
for _, c in ipairs(CLASSES) do
  local text = grid:to_ascii(c.name)
  local _, n = text:gsub("%.", "")
  open = open + n
end
print(("terrain build %dx%d, %d classes, tile %d: %s ms  (%.1f%% of class navcells passable)"):format(
  SIDE, SIDE, #CLASSES, TILE, ms(stats.median(builds)), 100 * open / (SIDE * SIDE * #CLASSES)))

-- 2. one corner raised into a spike and put back, locally and in full
local r = rng(77)
local local_times, full_times, changed = {}, {}, 0
for _ = 1, 40 do
  local tx, ty = 1 + r(TW - 1), 1 + r(TW - 1)
  local k = ty * (TW + 1) + tx + 1
  local old = map.heights[k]
  local spike = old + 8
  local v0 = grid:version()
  local t0 = clock()
  grid:set_height(tx, ty, spike)
  local_times[#local_times + 1] = clock() - t0
  if grid:version() ~= v0 then changed = changed + 1 end
  grid:set_height(tx, ty, old)
  map.heights[k] = spike
  t0 = clock()
  grid:set_heightmap(map)
  full_times[#full_times + 1] = clock() - t0
  map.heights[k] = old
  grid:set_heightmap(map)
end
local lm, fm = stats.median(local_times), stats.median(full_times)
print(("one corner edit: local %s ms  full rebuild %s ms  (%.0fx; %d of %d edits changed passability)"):format(
  ms(lm), ms(fm), fm / math.max(lm, 1e-9), changed, #local_times))
grid:close()
