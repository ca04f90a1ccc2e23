-- Route-following options of wayfinder.units.new: accel (speed ramps),
-- turn_rate (heading turns at most so far a tick), arrive_radius (slowing
-- near the end) and lookahead (skipping a waypoint already in sight). Each
-- is checked every tick, together with the invariants: no unit on blocked
-- ground, no move across it.
local wayfinder = require("wayfinder")

local sweep = wayfinder.sweep
local one_unit = require("support.one_unit")
local grid_of, trace = one_unit.grid_of, one_unit.trace
local EPS = 1 / 4096   -- fixed-point rounding of a length or a heading

local OPEN = grid_of({
  "########################",
  "#......................#",
  "#......................#",
  "#......................#",
  "#......................#",
  "########################",
})

local WALLED = grid_of(one_unit.WALLED_ROWS)

describe("units accel", function()
  it("the speed never changes by more than accel in a tick, and the unit arrives", function()
    local accel, speed = 0.05, 0.5
    local out, arrived = trace(OPEN, { accel = accel }, 1.5, 2.5, 21.5, 2.5, speed, 300)
    assert.is_truthy(arrived)
    local prev, top = 0, 0
    for t, o in ipairs(out) do
      assert.is_true(math.abs(o.step - prev) <= accel + EPS,
        ("tick %d: step %.5f after %.5f"):format(t, o.step, prev))
      assert.is_true(math.abs(o.info.current_speed - (out[t - 1] and out[t - 1].info.current_speed or 0))
        <= accel + EPS)
      prev = o.step
      if o.step > top then top = o.step end
    end
    -- the stop after the last step is a change too
    assert.is_true(prev <= accel + EPS, ("last step %.5f"):format(prev))
    assert.is_true(math.abs(top - speed) <= EPS, "it reaches its full speed")
    -- the ramps cost time: at full speed at once it takes 40 ticks
    local _, plain = trace(OPEN, nil, 1.5, 2.5, 21.5, 2.5, speed, 300)
    assert.equal(40, plain)
    assert.is_true(arrived > plain)
  end)
end)

describe("units turn_rate", function()
  it("the heading never turns more than turn_rate in a tick, and the unit keeps to its way", function()
    local rate = 0.3
    local out, arrived = trace(WALLED, { turn_rate = rate }, 3.5, 5.5, 11.5, 5.5, 0.25, 400)
    assert.is_truthy(arrived)
    local hx, hy, turned = 1, 0, 0
    for t, o in ipairs(out) do
      local nx, ny = o.info.hx, o.info.hy
      assert.is_true(math.abs(math.sqrt(nx * nx + ny * ny) - 1) < 1e-3)
      local dot = math.max(-1, math.min(1, hx * nx + hy * ny))
      local a = math.acos(dot)
      assert.is_true(a <= rate + 1e-3, ("tick %d turned %.4f"):format(t, a))
      turned = turned + a
      hx, hy = nx, ny
    end
    -- up round the wall's end and down again: more than a right angle in all
    assert.is_true(turned > 1.2, ("turned %.3f in all"):format(turned))
  end)

  it("a unit that must turn round first stops and turns in place", function()
    local out = trace(OPEN, { turn_rate = 0.5 }, 10.5, 2.5, 2.5, 2.5, 0.25, 100)
    -- heading east at first, the way west: pi / 0.5 = 7 ticks of turning
    assert.equal(0, out[1].step)
    assert.is_true(out[1].info.hx < 1)
    local first_move
    for t, o in ipairs(out) do
      if o.step > 0 then first_move = t break end
    end
    assert.is_true(first_move >= 6 and first_move <= 8, "moved at tick " .. tostring(first_move))
  end)
end)

describe("units arrive_radius", function()
  it("a unit slows inside arrive_radius of its goal and runs at its speed before", function()
    local R, speed = 3, 0.5
    local out, arrived = trace(OPEN, { arrive_radius = R }, 1.5, 2.5, 21.5, 2.5, speed, 300)
    assert.is_truthy(arrived)
    local prev = math.huge
    for t, o in ipairs(out) do
      local left = 21.5 - o.x
      local before = 21.5 - (o.x - o.step)
      if before >= R + speed then
        assert.is_true(math.abs(o.step - speed) <= EPS, ("tick %d"):format(t))
      elseif before < R then
        assert.is_true(o.step <= math.max(speed * before / R, speed / 16) + EPS,
          ("tick %d step %.4f"):format(t, o.step))
        assert.is_true(o.step <= prev + EPS, ("tick %d speeds up"):format(t))
        assert.is_true(o.step >= math.min(speed / 16, before) - EPS)
      end
      prev = o.step
      assert.is_true(left >= -EPS)
    end
  end)
end)

describe("units lookahead", function()
  it("skips a waypoint already in plain sight, walking less", function()
    local function walk(options)
      local units = wayfinder.units.new(WALLED, options)
      local id = assert(units:add({ x = 1.2, y = 7.2, radius = 0.4, speed = 0.25 }))
      units:move(id, 14.5, 1.5)
      local px, py, len, arrived = 1.2, 7.2, 0, nil
      local skipped = false
      for t = 1, 300 do
        for _, e in ipairs(units:tick()) do
          if e.event == "arrived" then arrived = t end
        end
        local x, y = units:position(id)
        assert.is_false(sweep.grid(WALLED, px, py, x, y))
        len = len + math.sqrt((x - px) ^ 2 + (y - py) ^ 2)
        px, py = x, y
        local info = units:info(id)
        if t == 1 and info.next >= 2 then skipped = true end
        if arrived then break end
      end
      return arrived, len, skipped
    end
    local a1, len1, skip1 = walk(nil)
    local a2, len2, skip2 = walk({ lookahead = true })
    assert.is_truthy(a1)
    assert.is_truthy(a2)
    assert.is_false(skip1)
    assert.is_true(skip2, "the first waypoint (its own navcell's centre) is skipped")
    assert.is_true(len2 < len1 - 0.1, ("%.3f against %.3f"):format(len2, len1))
  end)
end)

describe("units motion options", function()
  it("reject bad values, naming the option", function()
    local new = wayfinder.units.new
    assert.has_error(function() new(OPEN, { accel = 0 }) end,
      "wayfinder.units.new: options.accel must be a number in (0, 16], got 0")
    assert.has_error(function() new(OPEN, { accel = 0 / 0 }) end)
    assert.has_error(function() new(OPEN, { turn_rate = 0 }) end,
      "wayfinder.units.new: options.turn_rate must be a number in (0, pi], got 0")
    assert.has_error(function() new(OPEN, { turn_rate = 4 }) end)
    assert.has_error(function() new(OPEN, { arrive_radius = -1 }) end)
    assert.has_error(function() new(OPEN, { lookahead = 1 }) end)
  end)

  it("are saved and loaded with the simulation, which continues exactly", function()
    local opts = { accel = 0.05, turn_rate = 0.4, arrive_radius = 2, lookahead = true,
      avoidance = "velocity" }
    local units = wayfinder.units.new(WALLED, opts)
    local a = units:add({ x = 2.5, y = 5.5, radius = 0.4, speed = 0.3 })
    local b = units:add({ x = 12.5, y = 5.5, radius = 0.4, speed = 0.3 })
    units:move(a, 12.5, 2.5)
    units:move(b, 2.5, 2.5)
    units:tick(15)
    local saved = units:save()
    assert.is_true(math.abs(saved.options.accel - 0.05) < 1 / 65536)
    assert.equal(true, saved.options.lookahead)
    local copy = wayfinder.units.load(WALLED, saved)
    for _ = 1, 100 do
      assert.same(units:tick(), copy:tick())
      for _, id in ipairs({ a, b }) do
        assert.same(units:info(id), copy:info(id))
      end
    end
  end)
end)
