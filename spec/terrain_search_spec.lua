-- Searches and units honour heightmap passability: paths and walking units
-- go round a steep ridge and round a lake, ships with min_water_depth stay
-- on water, and a class without limits still goes straight.
local wayfinder = require("wayfinder")

local W, H, TILE = 48, 24, 4
local TW, TH = W / TILE, H / TILE

local CLASSES = {
  { name = "walk", max_slope = 0.5, max_water_depth = 0 },
  { name = "ship", min_water_depth = 0.5 },
  { name = "free" },
}

-- Corner heights from f(tx, ty), row-major.
local function heights(f)
  local t = {}
  for ty = 0, TH do
    for tx = 0, TW do t[#t + 1] = f(tx, ty) end
  end
  return t
end

-- A ridge of height 6 across tile columns 5 to 7, from the top down to
-- tile row 4: only the bottom rows leave a way across. Dry everywhere.
local function ridge_grid()
  local g = wayfinder.grid.new(W, H, { classes = CLASSES })
  g:set_heightmap { tile = TILE, width = TW, height = TH, water = -10,
    heights = heights(function(tx, ty)
      if tx >= 5 and tx <= 7 and ty <= 4 then return 6 end
      return 0
    end) }
  return g
end

-- Land at height 1 with a lake (corners at -2) over tile corners 3 to 8
-- across and 2 to 6 (the bottom edge) down: water level 0.
local function lake_grid()
  local g = wayfinder.grid.new(W, H, { classes = CLASSES })
  g:set_heightmap { tile = TILE, width = TW, height = TH, water = 0,
    heights = heights(function(tx, ty)
      if tx >= 3 and tx <= 8 and ty >= 2 then return -2 end
      return 1
    end) }
  return g
end

-- Every waypoint's navcell passable for the class and every leg clear.
local function assert_path_ok(g, path, class)
  for k, p in ipairs(path) do
    assert.is_true(g:is_passable(p.x, p.y, class), ("waypoint %d (%d, %d)"):format(k, p.x, p.y))
    if k > 1 then
      local q = path[k - 1]
      assert.is_true(g:line_of_sight(q.x, q.y, p.x, p.y, class))
    end
  end
end

describe("terrain and search", function()
  it("routes round a steep ridge through the gap", function()
    local g = ridge_grid()
    -- the ridge's flanks are too steep for walkers, nothing else blocks
    local _, steep = g:terrain(18, 8)
    assert.is_true(steep > 0.5)
    assert.is_false(g:is_passable(18, 8, "walk"))
    assert.is_true(g:is_passable(18, 8, "free"))
    for _, algorithm in ipairs { "astar", "jps" } do
      local path, length = g:find_path(2.5, 3.5, 45.5, 3.5, { class = "walk", algorithm = algorithm })
      assert.is_table(path)
      assert_path_ok(g, path, "walk")
      local lowest = 0
      for _, p in ipairs(path) do lowest = math.max(lowest, p.y) end
      assert.is_true(lowest >= 16, "the path goes down to the gap")
      assert.is_true(length > 55)
      local _, straight = g:find_path(2.5, 3.5, 45.5, 3.5, { class = "free", algorithm = algorithm })
      assert.are.equal(43, straight)
    end
    -- closing the gap by raising its corners cuts the map in two
    g:batch(function(grid)
      for tx = 5, 7 do
        grid:set_height(tx, 5, 6)
        grid:set_height(tx, 6, 6)
      end
    end)
    assert.is_false(g:is_reachable(2, 3, 45, 3, "walk"))
    local none, reason = g:find_path(2.5, 3.5, 45.5, 3.5, { class = "walk", rewrite_goal = false })
    assert.is_nil(none)
    assert.are.equal("unreachable", reason)
    assert.is_true(g:is_reachable(2, 3, 45, 3, "free"))
  end)

  it("keeps walkers off the lake and ships on it", function()
    local g = lake_grid()
    assert.is_false(g:is_passable(20, 18, "walk"))
    assert.is_true(g:is_passable(20, 18, "ship"))
    assert.is_false(g:is_passable(20, 1, "ship"))
    -- walkers round the lake from its left to its right shore
    local path = g:find_path(4.5, 20.5, 40.5, 20.5, { class = "walk" })
    assert.is_table(path)
    assert_path_ok(g, path, "walk")
    local highest = H
    for _, p in ipairs(path) do highest = math.min(highest, p.y) end
    assert.is_true(highest <= 4, "the walk goes round the top of the lake")
    -- ships cross the lake, and only on water deep enough
    local across = g:find_path(16.5, 20.5, 30.5, 8.5, { class = "ship" })
    assert_path_ok(g, across, "ship")
    for _, p in ipairs(across) do
      local _, _, depth = g:terrain(p.x, p.y)
      assert.is_true(depth >= 0.5)
    end
    -- a ship sent ashore stops at the nearest water instead
    local ashore, _, info = g:find_path(20.5, 18.5, 20.5, 1.5, { class = "ship" })
    assert.is_true(info.goal_rewritten)
    assert_path_ok(g, ashore, "ship")
    assert.is_true(ashore[#ashore].y > 1)
    -- draining the lake strands the ships and frees the walkers
    g:set_water(-5)
    assert.is_false(g:is_passable(20, 18, "ship"))
    -- the flat lake bed is dry land now
    assert.is_true(g:is_passable(20, 18, "walk"))
  end)

  it("moves units round the ridge and ships across the lake", function()
    local g = ridge_grid()
    local units = wayfinder.units.new(g, { budget = 100000 })
    local id = assert(units:add { x = 2.5, y = 3.5, class = "walk", radius = 0.4, speed = 1 })
    units:move(id, 45.5, 3.5)
    local arrived, lowest = false, 0
    for _ = 1, 400 do
      for _, e in ipairs(units:tick()) do
        if e.id == id and e.event == "arrived" then arrived = true end
        assert.are_not.equal("failed", e.event)
      end
      local x, y = units:position(id)
      local cx, cy = math.floor(x), math.floor(y)
      assert.is_true(g:is_passable(cx, cy, "walk"), ("unit on (%d, %d)"):format(cx, cy))
      local _, slope = g:terrain(cx, cy)
      assert.is_true(slope <= 0.5)
      lowest = math.max(lowest, y)
      if arrived then break end
    end
    assert.is_true(arrived)
    assert.is_true(lowest >= 16)

    local lake = lake_grid()
    local sim = wayfinder.units.new(lake, { budget = 100000 })
    assert.are.same({ nil, "impassable" }, { sim:add { x = 20.5, y = 1.5, class = "ship", radius = 0.4, speed = 1 } })
    local ship = assert(sim:add { x = 16.5, y = 20.5, class = "ship", radius = 0.4, speed = 1 })
    sim:move(ship, 30.5, 8.5)
    local docked = false
    for _ = 1, 200 do
      for _, e in ipairs(sim:tick()) do
        if e.id == ship and e.event == "arrived" then docked = true end
      end
      local x, y = sim:position(ship)
      local _, _, depth = lake:terrain(math.floor(x), math.floor(y))
      assert.is_true(depth >= 0.5)
      if docked then break end
    end
    assert.is_true(docked)
  end)
end)
