-- Crowds through a door one navcell wide with avoidance = "velocity": a
-- packed crowd crossing to the mirror image of its start, and two opposing
-- groups through the same door. Every tick: no two units overlap, no unit
-- on blocked ground. Also the goal-taken rule, determinism and save/load.
local wayfinder = require("wayfinder")

local avoid_run = require("support.avoid_run")

-- Two rooms 19 x 23 with a wall at x = 20 and a door at row 12.
local ROOMS = { w = 41, h = 25, wall_x = 20, door_y = 12, right = 0, left = 0 }

local function rooms()
  return avoid_run.field(ROOMS.w, ROOMS.h, ROOMS)
end

-- The n navcells of the left room nearest the door; mirrored: of the
-- right room.
local function nearest(n, mirror)
  return avoid_run.nearest_door(ROOMS, n, mirror)
end

-- Runs `list` ({x, y, gx, gy}) for at most `ticks`, checking the
-- invariants every tick (spec/support/avoid_run.lua) and calling
-- after(t, units) when given; returns arrival ticks, failures, a trace
-- hash, the units and their ids.
local function run(list, ticks, after)
  return avoid_run.run("velocity", rooms(), list, ticks, { max_wait = 1000000 }, after)
end

local function crowd(n)
  local s, g, list = nearest(n), nearest(n, true), {}
  for i = 1, n do list[i] = { s[i][1], s[i][2], g[i][1], g[i][2] } end
  return list
end

describe("avoidance through a door one navcell wide", function()
  it("two opposing groups of 10 all arrive within 1500 ticks", function()
    local left, right = nearest(10), nearest(10, true)
    local list = {}
    for i = 1, 10 do
      list[#list + 1] = { left[i][1], left[i][2], right[i][1], 4.5 + i }
      list[#list + 1] = { right[i][1], right[i][2], left[i][1], 4.5 + i }
    end
    local arrived, failed = run(list, 1500)
    avoid_run.all_arrive(list, arrived, failed, 1500)
  end)

  it("a unit whose goal an arrived unit stands on arrives beside it (goal_taken)", function()
    local grid = rooms()
    local units = wayfinder.units.new(grid, { avoidance = "velocity", max_wait = 1000000 })
    -- a walks into the corner and arrives; an idle unit above it leaves it
    -- no room to be shoved; then b is sent to the same corner
    local a = units:add({ x = 35.5, y = 23.5, radius = 0.4, speed = 0.25 })
    units:add({ x = 39.5, y = 22.5, radius = 0.4, speed = 0.25 })
    local b = units:add({ x = 30.5, y = 23.5, radius = 0.4, speed = 0.25 })
    units:move(a, 39.5, 23.5)
    local first
    for _ = 1, 100 do
      for _, e in ipairs(units:tick()) do
        if e.id == a and e.event == "arrived" then first = e end
      end
      if first then break end
    end
    assert.is_truthy(first)
    assert.is_nil(first.reason)
    units:move(b, 39.5, 23.5)
    local got
    for _ = 1, 200 do
      for _, e in ipairs(units:tick()) do
        if e.id == b and e.event ~= "blocked" then got = e end
      end
      if got then break end
    end
    assert.is_truthy(got)
    assert.equal("arrived", got.event)
    assert.equal("goal_taken", got.reason)
    local x, y = units:position(b)
    assert.is_true(math.abs(x - 39.5) <= 2 and math.abs(y - 23.5) <= 2)
    local ax, ay = units:position(a)
    assert.is_true(math.abs(x - ax) > 0.8 or math.abs(y - ay) > 0.8)
    assert.equal("idle", units:state(b))
  end)

  it("an idle unit that never walked a path does not count: the mover fails blocked", function()
    local grid = rooms()
    local units = wayfinder.units.new(grid, { avoidance = "velocity", max_wait = 30 })
    units:add({ x = 33.5, y = 12.5, radius = 0.4, speed = 0.25 })
    -- boxed in: nowhere to be shoved to
    for _, p in ipairs({ { 34.5, 12.5 }, { 33.5, 11.5 }, { 33.5, 13.5 }, { 34.5, 11.5 }, { 34.5, 13.5 } }) do
      units:add({ x = p[1], y = p[2], radius = 0.4, speed = 0.25 })
    end
    local b = units:add({ x = 28.5, y = 12.5, radius = 0.4, speed = 0.25 })
    units:move(b, 33.5, 12.5)
    local got
    for _ = 1, 300 do
      for _, e in ipairs(units:tick()) do
        if e.id == b and e.event ~= "blocked" then got = e end
      end
      if got then break end
    end
    assert.is_truthy(got)
    assert.is_not.equal("goal_taken", got.reason)
  end)

  it("identical runs give identical traces, and a save loaded mid-move continues exactly", function()
    local list = crowd(24)
    local _, _, h1 = run(list, 300)
    local _, _, h2 = run(list, 300)
    assert.equal(h1, h2)
    local copy
    run(list, 200, function(t, units)
      if t == 80 then
        copy = wayfinder.units.load(rooms(), units:save())
      elseif t > 80 then
        local e2 = copy:tick()
        for _, id in ipairs(units:ids()) do
          assert.same({ units:position(id) }, { copy:position(id) })
        end
        assert.is_table(e2)
      end
    end)
    assert.is_truthy(copy)
  end)
end)
