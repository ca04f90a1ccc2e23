-- The corner_radius option of wayfinder.units.new: a unit rounds the
-- corners of its way by a curve that fits the grid for its class, and
-- keeps a corner sharp when no curve fits. Every tick the unit's position,
-- its move since the last tick and every chord of the curve it follows
-- are checked against the grid.
local wayfinder = require("wayfinder")

local one_unit = require("support.one_unit")
local grid_of = one_unit.grid_of

local WALLED = grid_of(one_unit.WALLED_ROWS)

-- a corridor one navcell wide with long arms: any curve with room to show
-- would cut the inner corner
local NARROW = grid_of({
  "##############################",
  "#.................############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "################.#############",
  "##############################",
})

-- Runs one unit (spec/support/one_unit.lua checks every tick); returns
-- the positions per tick, the tick it arrived and whether its way was
-- ever curved (more waypoints than the sharp way's three)
local function run(grid, options, sx, sy, gx, gy, speed, ticks)
  local out, arrived = one_unit.trace(grid, options, sx, sy, gx, gy, speed or 0.3, ticks or 400)
  local curved = false
  for _, o in ipairs(out) do
    if #o.info.waypoints > 3 then curved = true end
  end
  return out, arrived, curved
end

-- the least distance from (cx, cy) to the polyline through the positions
local function nearest(trace, cx, cy)
  local best = math.huge
  for k = 2, #trace do
    local ax, ay, bx, by = trace[k - 1][1], trace[k - 1][2], trace[k][1], trace[k][2]
    local dx, dy = bx - ax, by - ay
    local len2 = dx * dx + dy * dy
    local t = len2 > 0 and math.max(0, math.min(1, ((cx - ax) * dx + (cy - ay) * dy) / len2)) or 0
    local ex, ey = ax + t * dx - cx, ay + t * dy - cy
    best = math.min(best, math.sqrt(ex * ex + ey * ey))
  end
  return best
end

local function same(a, b)
  if #a ~= #b then return false end
  for k = 1, #a do
    if a[k][1] ~= b[k][1] or a[k][2] ~= b[k][2] then return false end
  end
  return true
end

describe("units corner_radius", function()
  it("rounds a corner where there is room, on passable ground every tick", function()
    -- the sharp way turns at (7.5, 7.5), below the wall's foot
    local sharp, t0 = run(WALLED, {}, 3.5, 5.5, 10.5, 5.5)
    local round, t1, curved = run(WALLED, { corner_radius = 1.5 }, 3.5, 5.5, 10.5, 5.5)
    assert.is_number(t0)
    assert.is_number(t1)
    assert.is_true(curved)
    assert.are.same({ 10.5, 5.5 }, { round[#round][1], round[#round][2] })
    -- the sharp walk passes the corner point itself (between two ticks:
    -- the line through its tick positions cuts it by a hair), the curved one
    -- keeps off it (a curve entered 1.5 before the corner passes about 0.4
    -- from it here; chords and rounding take a little)
    assert.is_true(nearest(sharp, 7.5, 7.5) < 0.05)
    local off = nearest(round, 7.5, 7.5)
    assert.is_true(off > 0.3, "passes " .. off .. " from the corner")
    -- the curve is shorter than the corner: it arrives no later
    assert.is_true(t1 <= t0)
    assert.is_false(same(sharp, round))
  end)

  it("keeps a corner sharp in a corridor one navcell wide", function()
    local sharp, t0 = run(NARROW, {}, 1.5, 1.5, 16.5, 18.5)
    local round, t1, curved = run(NARROW, { corner_radius = 8 }, 1.5, 1.5, 16.5, 18.5)
    assert.is_number(t0)
    assert.are.equal(t0, t1)
    assert.is_false(curved)
    assert.is_true(same(sharp, round))
  end)

  it("rounds the same corridor with a small radius, inside it", function()
    local sharp = run(NARROW, {}, 1.5, 1.5, 16.5, 18.5)
    local round, t1, curved = run(NARROW, { corner_radius = 1 }, 1.5, 1.5, 16.5, 18.5)
    assert.is_number(t1)
    assert.is_true(curved)
    assert.is_false(same(sharp, round))
    assert.is_true(nearest(round, 16.5, 1.5) > 0.2)
  end)

  it("is deterministic and a save loaded mid-curve goes on identically", function()
    local options = { corner_radius = 1.5, accel = 0.05, turn_rate = 0.5, lookahead = true }
    local a = wayfinder.units.new(WALLED, options)
    local id = a:add({ x = 3.5, y = 5.5, radius = 0.4, speed = 0.3 })
    a:move(id, 10.5, 5.5)
    local saved
    for _ = 1, 300 do
      a:tick()
      if #a:info(id).waypoints > 3 and a:info(id).next > 2 then
        saved = a:save()
        assert.are.equal(1.5, saved.options.corner_radius)
        break
      end
    end
    assert.is_table(saved)
    local b = wayfinder.units.load(WALLED, saved)
    for t = 1, 60 do
      a:tick()
      b:tick()
      local ax, ay = a:position(id)
      local bx, by = b:position(id)
      assert.are.same({ ax, ay }, { bx, by }, "tick " .. t)
    end
    local ia, ib = a:info(id), b:info(id)
    assert.are.same(ia.waypoints, ib.waypoints)
    assert.are.equal(ia.current_speed, ib.current_speed)
  end)

  it("off by default: the option reads 0 and nothing moves differently", function()
    local u = wayfinder.units.new(WALLED)
    assert.are.equal(0, u:save().options.corner_radius)
    local a = run(WALLED, nil, 3.5, 5.5, 10.5, 5.5)
    local b = run(WALLED, { corner_radius = 0 }, 3.5, 5.5, 10.5, 5.5)
    assert.is_true(same(a, b))
  end)

  it("rejects a bad corner_radius, naming it", function()
    for _, bad in ipairs({ "1", true, 0 / 0, math.huge, -math.huge, -0.5, 16.5, 100 }) do
      local ok, err = pcall(wayfinder.units.new, WALLED, { corner_radius = bad })
      assert.is_false(ok)
      assert.matches("wayfinder.units.new: options.corner_radius must be", err, 1, true)
    end
    -- a bad value in a save is refused the same way
    local u = wayfinder.units.new(WALLED, { corner_radius = 1 })
    local saved = u:save()
    saved.options.corner_radius = -1
    local ok, err = pcall(wayfinder.units.load, WALLED, saved)
    assert.is_false(ok)
    assert.matches("corner_radius", err, 1, true)
  end)
end)
