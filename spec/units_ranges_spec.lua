-- Inverted goals (be outside a circle or square: a minimum range) and the
-- reference's range rules.
local wayfinder = require("wayfinder")
local brute = require("support.sweep_brute")

local fix = brute.fix

local function world(w, h)
  local g = wayfinder.grid.new(w or 24, h or 24)
  return g, wayfinder.units.new(g)
end

describe("inverted goals", function()
  it("end outside the circle, on its edge, straight away from the centre", function()
    local _, units = world()
    local a = units:add({ x = 10.5, y = 10.5, radius = 0.5, speed = 1 })
    local path, reached = units:short_path(a, 11, 10.5,
      { goal = { shape = "circle", radius = 3 }, inverted = true })
    assert.is_true(reached)
    assert.are.same({ { 10.5, 10.5 }, { 8, 10.5 } }, path)
  end)

  it("end outside the open circle for random centres and radii, exactly", function()
    local _, units = world(40, 40)
    local a = units:add({ x = 20.5, y = 20.5, radius = 0.5, speed = 1 })
    math.randomseed(1601)
    local moved = 0
    for _ = 1, 200 do
      local cx, cy = 20.5 + math.random(-24, 24) / 8, 20.5 + math.random(-24, 24) / 8
      local r = math.random(1, 48) / 8
      local path, reached = units:short_path(a, cx, cy,
        { goal = { shape = "circle", radius = r }, inverted = true, range = 12 })
      assert.is_true(reached)
      local e = path[#path]
      local dx, dy = fix(e[1]) - fix(cx), fix(e[2]) - fix(cy)
      assert.is_true(dx * dx + dy * dy >= fix(r) * fix(r))
      if #path > 1 then
        moved = moved + 1
        -- no farther than the circle's edge seen from the start, plus the rounding
        local sx, sy = fix(20.5) - fix(cx), fix(20.5) - fix(cy)
        local d0 = math.sqrt(sx * sx + sy * sy) / 65536
        local len = math.sqrt((e[1] - 20.5) ^ 2 + (e[2] - 20.5) ^ 2)
        assert.is_true(len <= r - d0 + 1e-3, ("%g > %g"):format(len, r - d0))
      else
        -- already outside: nothing to do
        local sx, sy = fix(20.5) - fix(cx), fix(20.5) - fix(cy)
        assert.is_true(sx * sx + sy * sy >= fix(r) * fix(r))
      end
    end
    assert.is_true(moved > 50)
  end)

  it("end outside squares, rotated or not, across the nearer side", function()
    local _, units = world()
    local a = units:add({ x = 10.5, y = 10.5, radius = 0.5, speed = 1 })
    local path = units:short_path(a, 10, 10.5,
      { goal = { shape = "square", half_width = 3, half_height = 1 }, inverted = true })
    assert.are.same({ { 10.5, 10.5 }, { 10.5, 11.5 } }, path)
    math.randomseed(1602)
    for _ = 1, 100 do
      local angle = math.random(0, 359) * math.pi / 180
      local hw, hh = math.random(4, 24) / 8, math.random(4, 24) / 8
      local cx, cy = 10.5 + math.random(-8, 8) / 8, 10.5 + math.random(-8, 8) / 8
      local p, reached = units:short_path(a, cx, cy, { inverted = true,
        goal = { shape = "square", half_width = hw, half_height = hh, angle = angle } })
      assert.is_true(reached)
      local e = p[#p]
      -- outside the open rectangle, checked in floating point with a margin
      local t = angle
      local lu = (e[1] - cx) * math.cos(t) + (e[2] - cy) * math.sin(t)
      local lv = -(e[1] - cx) * math.sin(t) + (e[2] - cy) * math.cos(t)
      assert.is_true(math.abs(lu) >= hw - 1e-3 or math.abs(lv) >= hh - 1e-3)
    end
  end)

  it("move units out of the circle", function()
    local _, units = world()
    local a = units:add({ x = 10.5, y = 10.5, radius = 0.5, speed = 1 })
    units:move(a, 10.5, 10.5, { goal = { shape = "circle", radius = 4 }, inverted = true })
    assert.are.equal("planning", units:state(a))
    local events = units:tick(10)
    assert.are.equal("arrived", events[1].event)
    local x, y = units:position(a)
    assert.is_true((x - 10.5) ^ 2 + (y - 10.5) ^ 2 >= 16)
    -- saved while planning, loaded, it continues the same way
    units:move(a, x, y, { goal = { shape = "circle", radius = 2 }, inverted = true })
    local again = wayfinder.units.load(select(1, world()), units:save())
    assert.are.same(units:tick(5), again:tick(5))
    assert.are.same({ units:position(a) }, { again:position(a) })
  end)

  it("reject a point goal and bad values", function()
    local _, units = world()
    local a = units:add({ x = 10.5, y = 10.5, radius = 0.5, speed = 1 })
    assert.has_error(function() units:move(a, 1, 1, { inverted = true }) end,
      "units:move: options.inverted needs a circle or square goal")
    assert.has_error(function() units:short_path(a, 1, 1, { inverted = 1 }) end,
      "units:short_path: options.inverted must be a boolean, got 1")
    assert.are.equal("idle", units:state(a))
  end)
end)

describe("range rules", function()
  it("add the clearance or both radii and 1/8", function()
    assert.are.equal(2 + 1 + 0.125, wayfinder.units.max_range_structure(2, 1))
    assert.are.equal(0.125, wayfinder.units.max_range_structure(0, 0))
    assert.are.equal(2 + 0.5 + 0.75 + 0.125, wayfinder.units.max_range_unit(2, 0.5, 0.75))
    assert.has_error(function() wayfinder.units.max_range_structure(-1, 0) end,
      "wayfinder.units.max_range_structure: range must be a number in [0, 16384], got -1")
    assert.has_error(function() wayfinder.units.max_range_unit(1, 0.5, 0 / 0) end,
      "wayfinder.units.max_range_unit: r2 must be a number in [0, 8], got nan")
  end)

  it("give a unit goal every unit can reach round a target", function()
    local _, units = world()
    local target = units:add({ x = 10.5, y = 10.5, radius = 0.75, speed = 1 })
    local a = units:add({ x = 3.5, y = 10.5, radius = 0.5, speed = 1 })
    local r = wayfinder.units.max_range_unit(0, 0.5, 0.75)
    units:move(a, 10.5, 10.5, { goal = { shape = "circle", radius = r } })
    local events = units:tick(20)
    assert.are.equal("arrived", events[#events].event)
    assert.are.equal(target, 1)
  end)
end)
