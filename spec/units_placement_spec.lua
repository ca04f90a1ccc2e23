-- Spawning round a footprint, unit placement, building placement and
-- foundation dispersal.
local wayfinder = require("wayfinder")

local function apart(a, b, reach)
  return math.abs(a[1] - b[1]) > reach or math.abs(a[2] - b[2]) > reach
end

describe("units:spawn_points", function()
  it("picks valid, separate points round the footprint, front first", function()
    local g = wayfinder.grid.new(32, 32)
    local units = wayfinder.units.new(g)
    local shape = { x = 16, y = 16, half_width = 2, half_height = 3 }
    local pts = units:spawn_points(shape, nil, 0.5, 12)
    assert.are.equal(12, #pts)
    -- the middle of the +y side, then alternately +x and -x along it
    assert.are.same({ 16, 16 + 3 + 0.5 + 0.125 }, pts[1])
    assert.are.same({ 16 + 1.25, 16 + 3.625 }, pts[2])
    assert.are.same({ 16 - 1.25, 16 + 3.625 }, pts[3])
    for k, p in ipairs(pts) do
      -- outside the footprint by the radius and more
      assert.is_true(math.abs(p[1] - 16) >= 2.625 or math.abs(p[2] - 16) >= 3.625)
      for m = k + 1, #pts do assert.is_true(apart(p, pts[m], 1.125)) end
    end
    -- every point takes a unit
    for _, p in ipairs(pts) do
      assert.is_truthy(units:add({ x = p[1], y = p[2], radius = 0.5, speed = 1 }))
    end
    -- the same call gives the same points in the same order; after the
    -- units stand there, the next ones go elsewhere
    assert.are.same(pts, wayfinder.units.new(g):spawn_points(shape, nil, 0.5, 12))
    for _, p in ipairs(units:spawn_points(shape, nil, 0.5, 8)) do
      assert.is_true(units:check_placement(p[1], p[2], nil, 0.5))
    end
  end)

  it("skips impassable ground and other units on random maps", function()
    math.randomseed(1701)
    for _ = 1, 10 do
      local g = wayfinder.grid.new(40, 40)
      for _ = 1, 300 do g:set_passable(math.random(0, 39), math.random(0, 39), false) end
      local units = wayfinder.units.new(g)
      for _ = 1, 40 do
        units:add({ x = math.random(0, 399) / 10, y = math.random(0, 399) / 10,
          radius = 0.5, speed = 1 })
      end
      local shape = { x = 20, y = 20, half_width = math.random(1, 4),
        half_height = math.random(1, 4), angle = math.random(0, 6) }
      local pts = units:spawn_points(shape, nil, 0.4, 10)
      assert.is_true(#pts > 0)
      for k, p in ipairs(pts) do
        assert.is_true(units:check_placement(p[1], p[2], nil, 0.4))
        for m = k + 1, #pts do assert.is_true(apart(p, pts[m], 0.925)) end
      end
    end
  end)

  it("rejects bad input", function()
    local units = wayfinder.units.new(wayfinder.grid.new(8, 8))
    assert.has_error(function() units:spawn_points(3, nil, 0.5, 1) end,
      "units:spawn_points: shape must be a table {x =, y =, half_width =, "
      .. "half_height = [, angle =]}, got 3")
    assert.has_error(function()
      units:spawn_points({ x = 1, y = 1, half_width = -1, half_height = 1 }, nil, 0.5, 1)
    end, "units:spawn_points: shape.half_width must be a number in [0, 4096], got -1")
    assert.has_error(function()
      units:spawn_points({ x = 1, y = 1, half_width = 1, half_height = 1 }, nil, 0, 1)
    end, "units:spawn_points: radius must be a number in (0, 8], got 0")
    assert.has_error(function()
      units:spawn_points({ x = 1, y = 1, half_width = 1, half_height = 1 }, nil, 0.5, -1)
    end, "units:spawn_points: n must be an integer in [0, 4096], got -1")
  end)
end)

describe("grid:check_building", function()
  -- the first navcell, row by row, touching the footprint grown by margin
  -- that is not passable (axis-aligned footprints)
  local function reference(g, s, margin)
    local x0, x1 = s.x - s.half_width - margin, s.x + s.half_width + margin
    local y0, y1 = s.y - s.half_height - margin, s.y + s.half_height + margin
    for j = math.floor(y0) - 1, math.floor(y1) do
      for i = math.floor(x0) - 1, math.floor(x1) do
        local touches = i <= x1 and i + 1 >= x0 and j <= y1 and j + 1 >= y0
        local inside = i >= 0 and j >= 0 and i < g:width() and j < g:height()
        if touches and not (inside and g:is_passable(i, j)) then return i, j end
      end
    end
  end

  it("agrees with a plain scan of the over-estimated footprint", function()
    math.randomseed(1702)
    local fails, passes = 0, 0
    for _ = 1, 200 do
      local g = wayfinder.grid.new(20, 20)
      for _ = 1, math.random(0, 6) do
        g:set_passable(math.random(0, 19), math.random(0, 19), false)
      end
      local s = { x = math.random(8, 152) / 8, y = math.random(8, 152) / 8,
        half_width = math.random(0, 24) / 8, half_height = math.random(0, 24) / 8 }
      local margin = math.random(0, 8) / 4
      local i, j = reference(g, s, margin)
      local ok, why, bi, bj = g:check_building(s, nil, margin)
      if i then
        assert.is_false(ok)
        assert.are.same({ i, j }, { bi, bj })
        local inside = i >= 0 and j >= 0 and i < 20 and j < 20
        assert.are.equal(inside and "blocked" or "outside", why)
        fails = fails + 1
      else
        assert.is_true(ok)
        passes = passes + 1
      end
    end
    assert.is_true(fails > 20 and passes > 20)
  end)

  it("keeps its margin from obstructions and knows classes", function()
    local g = wayfinder.grid.new(20, 20, { classes = { { name = "small" },
      { name = "big", clearance = 2 } } })
    g:set_passable(12, 10, false)
    local s = { x = 8, y = 10.5, half_width = 2, half_height = 2 }
    assert.is_true(g:check_building(s, "small", 1))    -- reaches x = 11 only
    assert.are.same({ false, "blocked", 12, 10 }, { g:check_building(s, "small", 2) })
    assert.is_false(g:check_building(s, "big", 0))
    assert.has_error(function() g:check_building(s, "small", -1) end,
      "grid:check_building: margin must be a number in [0, 64], got -1")
    assert.has_error(function() g:check_building(s, "huge") end,
      "grid:check_building: class must name a class of the grid, got 'huge'")
    assert.has_error(function() g.check_building(5, s) end,
      "grid:check_building: self must be a wayfinder.Grid, got 5 (call it as grid:method(...))")
    g:close()
    assert.has_error(function() g:check_building(s) end,
      "grid:check_building: the grid is closed")
  end)
end)

describe("units:disperse", function()
  it("moves the units off a foundation, but not the builder", function()
    local g = wayfinder.grid.new(32, 32, { classes = { { name = "small" },
      { name = "big", clearance = 1 } } })
    local units = wayfinder.units.new(g)
    local builder = units:add({ x = 16, y = 13.2, radius = 0.4, speed = 1 })
    local a = units:add({ x = 15, y = 15, radius = 0.4, speed = 1 })
    local b = units:add({ x = 17.5, y = 17.5, radius = 0.4, speed = 1, class = "big" })
    local c = units:add({ x = 18.55, y = 16, radius = 0.4, speed = 1 })  -- just past 2 + 0 + 0.5
    local d = units:add({ x = 18.45, y = 14.5, radius = 0.4, speed = 1 }) -- just inside
    local far = units:add({ x = 25, y = 25, radius = 0.4, speed = 1 })
    local shape = { x = 16, y = 16, half_width = 2, half_height = 2 }
    local moved = units:disperse(shape, builder)
    assert.are.same({ a, b, d }, moved)
    local bx, by = units:position(builder)
    assert.are.equal("idle", units:state(builder))
    assert.are.equal("idle", units:state(c))
    assert.are.equal("idle", units:state(far))
    units:tick(30)
    for _, id in ipairs(moved) do
      local info = units:info(id)
      local grow = (info.class == "big" and 1 or 0) + 1.5
      local x, y = units:position(id)
      assert.is_true(math.abs(x - 16) >= 2 + grow or math.abs(y - 16) >= 2 + grow,
        ("unit %d still at %g, %g"):format(id, x, y))
      assert.are.equal("idle", info.state)
    end
    assert.are.same({ bx, by }, { units:position(builder) })
  end)

  it("rejects an unknown builder and changes nothing", function()
    local units = wayfinder.units.new(wayfinder.grid.new(16, 16))
    local a = units:add({ x = 8, y = 8, radius = 0.4, speed = 1 })
    assert.has_error(function()
      units:disperse({ x = 8, y = 8, half_width = 2, half_height = 2 }, 9)
    end, "units:disperse: id must be the id of a unit, got 9")
    assert.are.equal("idle", units:state(a))
  end)
end)
