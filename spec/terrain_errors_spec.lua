-- Bad input to the heightmap functions and the terrain class options: each
-- raises an error naming the function and the argument, and leaves the grid
-- as it was (heightmap, version, passability of every class).
local wayfinder = require("wayfinder")

local NAN, INF = 0 / 0, math.huge

local CLASSES = {
  { name = "walk", max_slope = 0.5, max_water_depth = 0 },
  { name = "ship", clearance = 1, min_water_depth = 0.5, clearance_shape = "circle" },
}

local function fresh()
  local g = wayfinder.grid.new(10, 7, { classes = CLASSES })
  local heights = {}
  for k = 1, 12 do heights[k] = (k % 4) - 1.5 end
  g:set_heightmap { tile = 4, width = 3, height = 2, heights = heights, water = 0 }
  return g
end

local function state(g)
  return { g:version(), g:heightmap(), g:to_ascii("walk"), g:to_ascii("ship") }
end

-- call(g) must fail with a message containing `message` (plain text), and
-- leave g's state unchanged.
local function rejects(message, call)
  local g = fresh()
  local before = state(g)
  local ok, err = pcall(call, g)
  assert.is_false(ok, "accepted: " .. message)
  assert.is_truthy(tostring(err):find(message, 1, true),
    ("expected %q in %q"):format(message, tostring(err)))
  assert.are.same(before, state(g), "changed by: " .. message)
end

local function map(over)
  local heights = {}
  for k = 1, 12 do heights[k] = 0 end
  local m = { tile = 4, width = 3, height = 2, heights = heights, water = 0 }
  for k, v in pairs(over) do m[k] = v end
  return m
end

describe("terrain input checks", function()
  it("rejects bad terrain class options", function()
    local function new(class)
      return pcall(wayfinder.grid.new, 8, 8, { classes = { class } })
    end
    local cases = {
      { { name = "a", max_slope = -1 }, "options.classes[1].max_slope must be a number in [0, 32767], got -1" },
      { { name = "a", max_slope = NAN }, "options.classes[1].max_slope must be a number in [0, 32767], got nan" },
      { { name = "a", max_slope = INF }, "options.classes[1].max_slope must be a number in [0, 32767]" },
      { { name = "a", max_slope = "1" }, "options.classes[1].max_slope must be a number" },
      { { name = "a", min_water_depth = -0.5 }, "options.classes[1].min_water_depth must be a number in [0, 32767]" },
      { { name = "a", max_water_depth = 40000 }, "options.classes[1].max_water_depth must be a number in [0, 32767]" },
      { { name = "a", min_water_depth = 2, max_water_depth = 1 },
        "options.classes[1].min_water_depth must not exceed max_water_depth, got 2 > 1" },
      { { name = "a", clearance_shape = "hex" }, "options.classes[1].clearance_shape must be 'square' or 'circle', got 'hex'" },
      { { name = "a", clearance_shape = 1 }, "options.classes[1].clearance_shape must be a string, got 1" },
      { { name = "a", max_depth = 1 }, "unknown options.classes[1] key 'max_depth'" },
    }
    for _, case in ipairs(cases) do
      local ok, err = new(case[1])
      assert.is_false(ok, case[2])
      assert.is_truthy(tostring(err):find("wayfinder.grid.new: " .. case[2], 1, true),
        ("expected %q in %q"):format(case[2], tostring(err)))
    end
  end)

  it("rejects bad heightmaps", function()
    local P = "grid:set_heightmap: "
    rejects(P .. "map must be a table {tile =, width =, height =, heights =, water =} or nil, got 5",
      function(g) g:set_heightmap(5) end)
    rejects(P .. "unknown map key 'size'", function(g) g:set_heightmap(map { size = 3 }) end)
    rejects(P .. "map.tile must be an integer in [1, 256], got 0", function(g) g:set_heightmap(map { tile = 0 }) end)
    rejects(P .. "map.tile must be an integer in [1, 256], got 1000", function(g) g:set_heightmap(map { tile = 1000 }) end)
    rejects(P .. "map.tile must be an integer in [1, 256], got 1.5", function(g) g:set_heightmap(map { tile = 1.5 }) end)
    rejects(P .. "map.tile must be an integer in [1, 256], got nan", function(g) g:set_heightmap(map { tile = NAN }) end)
    rejects(P .. "map.width must be 3 tiles (ceil(10 / 4)), got 2", function(g) g:set_heightmap(map { width = 2 }) end)
    rejects(P .. "map.width must be an integer in [1, 16384], got 100000",
      function(g) g:set_heightmap(map { width = 100000 }) end)
    rejects(P .. "map.width must be an integer in [1, 16384], got nil",
      function(g)
        local m = map {}
        m.width = nil
        g:set_heightmap(m)
      end)
    rejects(P .. "map.height must be 2 tiles (ceil(7 / 4)), got 7", function(g) g:set_heightmap(map { height = 7 }) end)
    rejects(P .. "map.heights must be a sequence of (width + 1) * (height + 1) numbers, got 5",
      function(g) g:set_heightmap(map { heights = 5 }) end)
    rejects(P .. "map.heights must hold (3 + 1) * (2 + 1) = 12 numbers, got 11",
      function(g) g:set_heightmap(map { heights = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 } }) end)
    rejects(P .. "map.heights[5] must be a number in [-16384, 16384], got nan", function(g)
      local m = map {}
      m.heights[5] = NAN
      g:set_heightmap(m)
    end)
    rejects(P .. "map.heights[12] must be a number in [-16384, 16384], got inf", function(g)
      local m = map {}
      m.heights[12] = INF
      g:set_heightmap(m)
    end)
    rejects(P .. "map.heights[1] must be a number in [-16384, 16384], got 20000", function(g)
      local m = map {}
      m.heights[1] = 20000
      g:set_heightmap(m)
    end)
    rejects(P .. "map.heights[3] must be a number in [-16384, 16384], got 'x'", function(g)
      local m = map {}
      m.heights[3] = "x"
      g:set_heightmap(m)
    end)
    rejects(P .. "map.water must be a number in [-16384, 16384], got nan",
      function(g) g:set_heightmap(map { water = NAN }) end)
    rejects(P .. "map.water must be a number in [-16384, 16384], got -20000",
      function(g) g:set_heightmap(map { water = -20000 }) end)
  end)

  it("rejects bad height and water edits", function()
    rejects("grid:set_height: tx must be an integer in [0, 3], got 4", function(g) g:set_height(4, 0, 1) end)
    rejects("grid:set_height: ty must be an integer in [0, 2], got -1", function(g) g:set_height(0, -1, 1) end)
    rejects("grid:set_height: height must be a number in [-16384, 16384], got nan",
      function(g) g:set_height(1, 1, NAN) end)
    rejects("grid:set_height: height must be a number in [-16384, 16384], got inf",
      function(g) g:set_height(1, 1, INF) end)
    rejects("grid:set_height: height must be a number in [-16384, 16384], got no value",
      function(g) g:set_height(1, 1) end)
    rejects("grid:set_water: level must be a number in [-16384, 16384], got 'deep'",
      function(g) g:set_water("deep") end)
    rejects("grid:terrain: x must be an integer in [0, 9], got 10", function(g) g:terrain(10, 0) end)
    rejects("grid:terrain: y must be an integer in [0, 6], got 0.5", function(g) g:terrain(0, 0.5) end)
    rejects("grid:set_height: self must be a wayfinder.Grid", function() wayfinder.grid.new(2, 2).set_height(5) end)

    local bare = wayfinder.grid.new(4, 4)
    local v0 = bare:version()
    for _, call in ipairs {
      function() bare:set_height(0, 0, 1) end,
      function() bare:set_water(1) end,
    } do
      local ok, err = pcall(call)
      assert.is_false(ok)
      assert.is_truthy(tostring(err):find("the grid has no heightmap (call grid:set_heightmap first)", 1, true))
    end
    assert.are.equal(v0, bare:version())

    local closed = fresh()
    closed:close()
    local ok, err = pcall(closed.set_height, closed, 0, 0, 1)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("grid:set_height: the grid is closed", 1, true))
  end)
end)
