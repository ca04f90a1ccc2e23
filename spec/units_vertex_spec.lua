-- The vertex (points-of-visibility) pathfinder: its paths pass the exact
-- swept tests, it goes round units, the bucketed and the all-edges modes
-- agree, and the straight line is taken when it is clear.
local wayfinder = require("wayfinder")
local brute = require("support.sweep_brute")
local run = require("support.units_run")

local fix = brute.fix

-- every segment of the path clear of the grid and of every other unit's
-- square grown by the mover's radius, by the exact references
local function check_path(g, units, id, path)
  local me = units:info(id)
  local w, h = g:width(), g:height()
  local function passable(i, j)
    return i >= 0 and j >= 0 and i < w and j < h and g:is_passable(i, j, me.class)
  end
  for k = 1, #path - 1 do
    local a, b = path[k], path[k + 1]
    local i, j = brute.grid(passable, fix(a[1]), fix(a[2]), fix(b[1]), fix(b[2]))
    assert.is_nil(i, ("segment %d meets blocked navcell %s,%s"):format(k, tostring(i), tostring(j)))
    for _, other in ipairs(units:ids()) do
      if other ~= id then
        local o = units:info(other)
        assert.is_false(brute.square(fix(a[1]), fix(a[2]), fix(b[1]), fix(b[2]),
          fix(o.x), fix(o.y), fix(o.radius + me.radius)),
          ("segment %d runs into unit %d"):format(k, other))
      end
    end
  end
end

local function length(path)
  local s = 0
  for k = 1, #path - 1 do
    s = s + math.sqrt((path[k + 1][1] - path[k][1]) ^ 2 + (path[k + 1][2] - path[k][2]) ^ 2)
  end
  return s
end

describe("units:short_path", function()
  it("goes round a unit standing in the way", function()
    local g = wayfinder.grid.new(16, 16)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 3.5, y = 5.5, radius = 0.5, speed = 1 })
    units:add({ x = 7.5, y = 5.5, radius = 1, speed = 1 })
    local path, reached, info = units:short_path(a, 11.5, 5.5)
    assert.is_true(reached)
    assert.is_true(#path >= 3)
    assert.are.same({ 3.5, 5.5 }, path[1])
    assert.are.same({ 11.5, 5.5 }, path[#path])
    check_path(g, units, a, path)
    -- round the grown square (half 1.5) just past its corner
    assert.are.same({ 7.5 - 1.5 - 1 / 16, 5.5 - 1.5 - 1 / 16 }, path[2])
    assert.is_true(info.expanded >= 1 and info.vertices >= 4)
  end)

  it("takes the straight line when it is clear", function()
    local g = wayfinder.grid.new(16, 16)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 3.5, y = 5.5, radius = 0.5, speed = 1 })
    local path, reached = units:short_path(a, 9.25, 7.75)
    assert.is_true(reached)
    assert.are.same({ { 3.5, 5.5 }, { 9.25, 7.75 } }, path)
  end)

  it("reaches circle and square goals at their nearest point", function()
    local g = wayfinder.grid.new(16, 16)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 3.5, y = 5.5, radius = 0.5, speed = 1 })
    local path, reached = units:short_path(a, 9.5, 5.5, { goal = { shape = "circle", radius = 2 } })
    assert.is_true(reached)
    assert.are.same({ { 3.5, 5.5 }, { 7.5, 5.5 } }, path)
    path, reached = units:short_path(a, 9.5, 9.5,
      { goal = { shape = "square", half_width = 1, half_height = 2 } })
    assert.is_true(reached)
    assert.are.same({ { 3.5, 5.5 }, { 8.5, 7.5 } }, path)
    -- already inside: the path is the start alone
    path, reached = units:short_path(a, 3, 5, { goal = { shape = "circle", radius = 2 } })
    assert.is_true(reached)
    assert.are.same({ { 3.5, 5.5 } }, path)
  end)

  it("ends near the goal when the goal is out of reach", function()
    local g = wayfinder.grid.from_ascii(table.concat({
      "..........",
      "......#...",
      "......#...",
      "......#...",
      "......#...",
    }, "\n"))
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 2.5, y = 2.5, radius = 0.3, speed = 1 })
    -- a box holding no corner nearer the goal than the start: no path
    assert.are.same({ nil, "no_path" }, { units:short_path(a, 8.5, 3.5, { range = 2 }) })
    -- the wall ends at the top row, but the box is too small to go round
    local path, reached = units:short_path(a, 8.5, 3.5, { range = 4 })
    assert.is_false(reached)
    check_path(g, units, a, path)
    assert.is_true(#path >= 2)
    -- with room enough it goes round the wall's end
    path, reached = units:short_path(a, 8.5, 3.5, { range = 8 })
    assert.is_true(reached)
    check_path(g, units, a, path)
  end)

  it("gives the same paths with buckets as with every edge, all clear", function()
    local checked, detours = 0, 0
    for seed = 1501, 1504 do
      local g = run.map(seed, 32, 32, 0.15)
      local units = wayfinder.units.new(g)
      local ids = run.populate(units, g, seed + 7, 60, 1)
      math.randomseed(seed)
      for _ = 1, 15 do
        local id = ids[math.random(1, #ids)]
        local me = units:info(id)
        local gx = me.x + math.random(-48, 48) / 8
        local gy = me.y + math.random(-48, 48) / 8
        local p1, r1, i1 = units:short_path(id, gx, gy, { range = 6 })
        local p2, r2, i2 = units:short_path(id, gx, gy, { range = 6, brute = true })
        assert.are.same(p1, p2)
        assert.are.equal(r1, r2)
        if p1 then
          assert.are.equal(i1.expanded, i2.expanded)
          assert.is_true(i2.edges > 0)
          check_path(g, units, id, p1)
          if r1 then
            -- no shorter than the straight line, and exactly it when clear
            local straight = math.sqrt((gx - me.x) ^ 2 + (gy - me.y) ^ 2)
            assert.is_true(length(p1) >= straight - 1e-9)
            if #p1 > 2 then detours = detours + 1 end
          end
          checked = checked + 1
        end
      end
    end
    assert.is_true(checked > 20 and detours > 5)
  end)

  it("rejects bad input", function()
    local g = wayfinder.grid.new(16, 16)
    local units = wayfinder.units.new(g)
    local a = units:add({ x = 3.5, y = 5.5, radius = 0.5, speed = 1 })
    assert.has_error(function() units:short_path(a, 1, 1, { range = 0 }) end,
      "units:short_path: options.range must be a number in (0, 64], got 0")
    assert.has_error(function() units:short_path(a, 1, 1, { range = 65 }) end,
      "units:short_path: options.range must be a number in [0, 64], got 65")
    assert.has_error(function() units:short_path(7, 1, 1) end,
      "units:short_path: id must be the id of a unit, got 7")
    assert.has_error(function() units:short_path(a, 1, 0 / 0) end,
      "units:short_path: y must be a number in [-16384, 16384], got nan")
    assert.has_error(function() units:short_path(a, 1, 1, { brute = "yes" }) end,
      "units:short_path: options.brute must be a boolean, got 'yes'")
  end)
end)
