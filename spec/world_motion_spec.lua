-- Motion options of house people (world:add_person): accel (step length
-- ramps), turn_rate (the heading, and so the facing, turns at most so far
-- a tick), arrive_radius (slowing near the end), lookahead (skipping a
-- sub-goal already in plain sight) and corner_radius (curved corners
-- that fit between walls and furniture). Checked tick by tick; the
-- defaults keep today's walk.
local world = require("wayfinder.world")
local core = require("wayfinder.core")

local ONE = 65536
local EPS = 1e-9
local atan2 = math.atan2 or math.atan   -- two arguments on every version

local FACING_INDEX = { east = 0, southeast = 1, south = 2, southwest = 3, west = 4,
  northwest = 5, north = 6, northeast = 7 }

-- Ticks w until person p has a result; returns per tick {x, y, motion,
-- facing}. Every tick the person's square stands free of walls, boxes
-- and the border, and so does every point along its move at 1/64 tile.
local function run(w, p, limit)
  local out = {}
  local px, py = p:position()
  for t = 1, limit or 400 do
    w:tick()
    local x, y = p:position()
    local n = math.max(1, math.ceil(math.sqrt((x - px) ^ 2 + (y - py) ^ 2) * 64))
    for k = 0, n do
      local qx, qy = px + (x - px) * k / n, py + (y - py) * k / n
      local free = w.walker:square_free(math.floor(qx * ONE + 0.5), math.floor(qy * ONE + 0.5),
        p.half, p.id)
      assert(free, ("tick %d: the square at (%g, %g) meets a wall or a box"):format(t, qx, qy))
    end
    out[t] = { x = x, y = y, m = p:motion(), facing = FACING_INDEX[p:facing_name()],
      step = math.sqrt((x - px) ^ 2 + (y - py) ^ 2) }
    px, py = x, y
    if not p:walking() and p:state().last_result then break end
  end
  return out
end

local function open_room(spec)
  local w = world.new { width = 14, height = 6 }
  local s = { x = 1.5, y = 2.5, speed = 0.25 }
  for k, v in pairs(spec) do s[k] = v end
  return w, w:add_person(s)
end

-- the least distance from (cx, cy) to the line through the positions
local function nearest(trace, cx, cy)
  local best = math.huge
  for k = 2, #trace do
    local ax, ay, bx, by = trace[k - 1].x, trace[k - 1].y, trace[k].x, trace[k].y
    local dx, dy = bx - ax, by - ay
    local len2 = dx * dx + dy * dy
    local t = len2 > 0 and math.max(0, math.min(1, ((cx - ax) * dx + (cy - ay) * dy) / len2)) or 0
    best = math.min(best, math.sqrt((ax + t * dx - cx) ^ 2 + (ay + t * dy - cy) ^ 2))
  end
  return best
end

local function positions(trace)
  local out = {}
  for k, e in ipairs(trace) do out[k] = { e.x, e.y } end
  return out
end

describe("house people accel", function()
  it("the step never changes by more than accel in a tick, from rest to rest", function()
    local accel = math.floor(0.02 * ONE + 0.5) / ONE   -- as the walker holds it
    local w, p = open_room({ accel = accel })
    p:route_to(12.5, 2.5)
    local tr = run(w, p)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 12.5, 2.5 }, { p:position() })
    local prev, top, ramping = 0, 0, false
    for t = 1, #tr - 1 do                      -- the last tick reads the rest after arrival
      local e = tr[t]
      local v = e.m.current_speed
      assert.is_true(math.abs(v - prev) <= accel + EPS, ("tick %d: %g after %g"):format(t, v, prev))
      if t > 2 and tr[t - 1].step > 0 and e.step > 0 and e.step < 0.25 - 1e-4 then
        ramping = true
      end
      assert.is_true(e.step <= v + 1e-4, ("tick %d: moved %g at speed %g"):format(t, e.step, v))
      top = math.max(top, v)
      prev = v
    end
    -- the first tick plans; the second walks its first, short step
    assert.are.equal(0, tr[1].step)
    assert.is_true(tr[2].step > 0 and tr[2].step <= accel + EPS)
    assert.is_true(ramping)
    assert.are.equal(0.25, top)               -- runs at full speed in between
    -- it brakes to its last step (the braking curve keeps at least accel),
    -- and stands once arrived
    assert.is_true(tr[#tr - 1].m.current_speed <= 2 * accel)
    assert.are.equal(0, tr[#tr].m.current_speed)
    -- without the option the first step is a full one
    local w2, q = open_room({})
    q:route_to(12.5, 2.5)
    assert.are.equal(0.25, run(w2, q, 2)[2].step)
  end)
end)

describe("house people turn_rate", function()
  it("the heading turns by at most turn_rate a tick and the facing follows it", function()
    local rate = 0.3
    local w, p = open_room({ x = 6.5, turn_rate = rate, facing = "east" })
    p:route_to(1.5, 2.5)                       -- straight behind it
    local tr = run(w, p)
    assert.are.equal("success", p:state().last_result)
    local hx, hy, turned = 1, 0, 0
    for t, e in ipairs(tr) do
      local a = atan2(hx * e.m.hy - hy * e.m.hx, hx * e.m.hx + hy * e.m.hy)
      assert.is_true(math.abs(a) <= rate + 1e-3, ("tick %d: turned %g"):format(t, a))
      if math.abs(a) > 1e-3 then turned = turned + 1 end
      if math.abs(a) > rate - 1e-3 then
        assert.are.equal(0, e.step, "tick " .. t .. ": stands while it turns a full turn_rate")
      end
      local exp = math.floor(atan2(e.m.hy, e.m.hx) / (math.pi / 4) + 0.5) % 8
      assert.are.equal(exp, e.facing)
      if t > 1 then
        local d = math.abs(e.facing - tr[t - 1].facing)
        assert.is_true(math.min(d, 8 - d) <= 1, "tick " .. t .. ": the facing jumped")
      end
      hx, hy = e.m.hx, e.m.hy
    end
    -- pi / 0.3: 10 full turns and a last part
    assert.is_true(turned >= 10 and turned <= 11, "turned for " .. turned .. " ticks")
    assert.are.equal(FACING_INDEX.west, tr[#tr].facing)
    -- without the option the facing snaps round at once
    local w2, q = open_room({ x = 6.5, facing = "east" })
    q:route_to(1.5, 2.5)
    local first = run(w2, q, 2)[2]
    assert.are.equal(FACING_INDEX.west, first.facing)
    assert.are.equal(0.25, first.step)
  end)
end)

describe("house people arrive_radius", function()
  it("slows inside arrive_radius of the end in proportion to the length left", function()
    local R, speed = 2, 0.25
    local w, p = open_room({ arrive_radius = R })
    p:route_to(12.5, 2.5)
    local tr = run(w, p)
    assert.are.equal("success", p:state().last_result)
    local inside = 0
    local px = 1.5
    for t = 1, #tr - 1 do                      -- the last tick reads the rest after arrival
      local e = tr[t]
      local left = 12.5 - px                   -- before this tick's step
      local v = e.m.current_speed
      if t == 1 then
        assert.are.equal(0, v)                 -- the first tick plans
      elseif left >= R then
        assert.are.equal(speed, v, "tick " .. t)
      elseif left > 0 then
        inside = inside + 1
        assert.is_true(v <= math.max(speed * left / R, speed / 16) + 1e-4,
          ("tick %d: %g at %g left"):format(t, v, left))
        assert.is_true(v >= speed / 16 - 1e-4, "tick " .. t)
      end
      px = e.x
    end
    -- 2 tiles at full speed take 8 ticks; slowing takes many more
    assert.is_true(inside > 16, "slowed for " .. inside .. " ticks")
  end)
end)

describe("house people lookahead", function()
  -- the walker itself, with a route through a sub-goal off to one side
  local function walk(lookahead, wall, stander)
    local wk = core.walker_new(10, 6)
    if wall then                               -- x = 5 walled for y in [0, 3]
      for y = 0, 2 do wk:set_wall(true, 5, y, true) end
    end
    if stander then                            -- somebody standing on the straight line
      wk:add_person(2, 5 * ONE, 1 * ONE + ONE / 2, ONE / 4, ONE / 4, 0)
    end
    wk:add_person(1, 1 * ONE + ONE / 2, 1 * ONE + ONE / 2, ONE / 4, ONE / 4, 0)
    wk:set_motion(1, 0, 0, 0, lookahead, 0)
    wk:set_route(1, { 1 * ONE + ONE / 2, 1 * ONE + ONE / 2, 5 * ONE + ONE / 2, 4 * ONE,
      8 * ONE + ONE / 2, 1 * ONE + ONE / 2 }, 1)
    local near, ticks = math.huge, 0
    for t = 1, 200 do
      local ev = wk:step()
      local x, y = wk:person(1)
      near = math.min(near, math.sqrt((x - 5.5 * ONE) ^ 2 + (y - 4 * ONE) ^ 2) / ONE)
      ticks = t
      if #ev > 0 then
        assert.are.equal(1, ev[2])             -- arrived
        break
      end
    end
    return near, ticks
  end

  it("skips a sub-goal when the one after it is in plain sight", function()
    local near, ticks = walk(false)
    assert.are.equal(0, near)                  -- walks through the sub-goal
    assert.are.equal(35, ticks)
    local near2, ticks2 = walk(true)
    assert.are.equal(2.5, near2)               -- the straight line, 2.5 from it
    assert.are.equal(28, ticks2)               -- 7 tiles at 0.25
  end)

  it("keeps a sub-goal while the one after it is hidden by a wall", function()
    -- it heads for the sub-goal until it sees past the wall's end, then
    -- cuts across (without the option it walks to the sub-goal itself)
    local near, ticks = walk(true, true)
    assert.is_true(near > 0 and near < 1, "came within " .. near)
    assert.is_true(ticks > 28 and ticks < 35, ticks .. " ticks")
    assert.are.same({ 0, 35 }, { walk(false, true) })
  end)

  it("counts a person standing in the way as hiding what is behind", function()
    -- it heads for the sub-goal until its line to the goal clears the
    -- standing person (without the person: 2.5 off the sub-goal, 28 ticks)
    local near, ticks = walk(true, false, true)
    assert.is_true(near < 2.2, "came within " .. near)
    assert.is_true(ticks > 28 and ticks <= 35, ticks .. " ticks")
  end)

  it("reaches the walker from world:add_person", function()
    local _, p = open_room({ lookahead = true })
    assert.is_true(p:motion().lookahead)
    local _, q = open_room({})
    assert.is_false(q:motion().lookahead)
  end)
end)

describe("house people corner_radius", function()
  -- round a 3 x 3 table: the planned way hugs two of its corners
  local function table_walk(R)
    local w = world.new { width = 10, height = 8 }
    w:add_object { type = "table", x = 3, y = 2, w = 3, h = 3 }
    local p = w:add_person { x = 1.5, y = 3.5, speed = 0.25, corner_radius = R }
    p:route_to(8.5, 3.5)
    return run(w, p), p
  end

  it("curves round the corners it hugs, never meeting the table", function()
    local sharp, p0 = table_walk(nil)
    local round, p1 = table_walk(2)
    assert.are.equal("success", p0:state().last_result)
    assert.are.equal("success", p1:state().last_result)
    assert.are.same({ 8.5, 3.5 }, { p1:position() })
    -- the sharp walk passes the two corner points of its route (2.75,
    -- 1.75) and (6.25, 1.75); the curved one swings round them
    for _, c in ipairs({ { 2.75, 1.75 }, { 6.25, 1.75 } }) do
      assert.is_true(nearest(sharp, c[1], c[2]) < 1e-3)
      assert.is_true(nearest(round, c[1], c[2]) > 0.1,
        ("passes %g from (%g, %g)"):format(nearest(round, c[1], c[2]), c[1], c[2]))
    end
    assert.are_not.same(positions(sharp), positions(round))
    -- a curve costs little: at most 2 ticks more than the sharp corners
    assert.is_true(#round <= #sharp + 2, #round .. " against " .. #sharp)
  end)

  it("keeps a corner sharp in a corridor its square barely fits", function()
    local function corridor(R)
      local w = world.new { width = 10, height = 8 }
      w:add_wall(0, 1, 5, 1)
      w:add_wall(6, 1, 10, 1)
      w:add_wall(6, 1, 6, 8)
      w:add_wall(5, 1, 5, 8)
      local p = w:add_person { x = 0.5, y = 0.5, speed = 0.25, width = 0.9, corner_radius = R }
      p:route_to(5.5, 6.5)
      return run(w, p), p
    end
    local sharp, p0 = corridor(nil)
    local round, p1 = corridor(1)
    assert.are.equal("success", p0:state().last_result)
    assert.are.equal("success", p1:state().last_result)
    assert.are.same(positions(sharp), positions(round))
  end)

  it("round the end of a wall: every tick clear of it", function()
    local w = world.new { width = 10, height = 8 }
    w:add_wall(0, 4, 6, 4)
    local p = w:add_person { x = 1.5, y = 1.5, speed = 0.25, corner_radius = 1.5, accel = 0.05,
      turn_rate = 0.5, arrive_radius = 1, lookahead = true }
    p:route_to(1.5, 6.5)
    run(w, p)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 1.5, 6.5 }, { p:position() })
  end)
end)

describe("house people motion defaults and saves", function()
  it("a person without options reads all off and walks as before", function()
    local _, p = open_room({})
    assert.are.same({ accel = 0, turn_rate = 0, arrive_radius = 0, lookahead = false,
      corner_radius = 0, current_speed = 0, hx = 1, hy = 0 }, p:motion())
  end)

  it("a save keeps the options and a load mid-curve goes on identically", function()
    local function make()
      local w = world.new { width = 10, height = 8 }
      w:add_object { type = "table", x = 3, y = 2, w = 3, h = 3 }
      local p = w:add_person { x = 1.5, y = 3.5, speed = 0.25, corner_radius = 1, accel = 0.03,
        turn_rate = 0.4, arrive_radius = 1.5, lookahead = true }
      p:route_to(8.5, 3.5)
      return w, p
    end
    local w, p = make()
    local saved
    for _ = 1, 200 do
      w:tick()
      local _, _, _, _, _, _, _, _, bend = w.walker:motion(p.id)
      if bend >= 0 then
        saved = w:save()
        break
      end
    end
    assert.is_table(saved)
    local w2 = world.load(saved, {})
    local p2 = w2:object(p.id)
    assert.are.same(p:motion(), p2:motion())
    assert.are.equal(0.03, math.floor(p2:motion().accel * 1e4 + 0.5) / 1e4)
    assert.are.equal(1, p2:motion().corner_radius)
    for t = 1, 60 do
      w:tick()
      w2:tick()
      assert.are.same({ p:position() }, { p2:position() }, "tick " .. t)
      assert.are.equal(p:facing_name(), p2:facing_name())
    end
    assert.are.same(p:motion(), p2:motion())
  end)

  it("a slower speed set mid-walk caps the step, and the save still loads", function()
    local w, p = open_room({ accel = 0.05 })
    p:route_to(12.5, 2.5)
    w:tick(12)
    assert.are.equal(0.25, p:motion().current_speed)
    p:set_speed(0.1)
    assert.is_true(p:motion().current_speed <= 0.1 + 1e-4)
    local w2 = world.load(w:save(), {})
    for t = 1, 10 do
      w:tick()
      w2:tick()
      assert.are.same({ p:position() }, { w2:object(p.id):position() }, "tick " .. t)
      assert.is_true(p:motion().current_speed <= 0.1 + 1e-4)
    end
  end)

  it("a load refuses a bad saved option or motion state, naming it", function()
    local w = world.new { width = 6, height = 4 }
    w:add_person { x = 1.5, y = 1.5, accel = 0.1 }
    local saved = w:save()
    local person = saved.objects[1]
    for key, bad in pairs({ accel = 0, turn_rate = -1, arrive_radius = 0.5, lookahead = 1,
      corner_radius = 2 ^ 30 }) do
      local old = person[key]
      person[key] = bad
      local ok, err = pcall(world.load, saved, {})
      assert.is_false(ok)
      assert.matches(key .. " must be", err, 1, true)
      person[key] = old
    end
    person.motion = { 1, 0, 0, -1 }
    local ok, err = pcall(world.load, saved, {})
    assert.is_false(ok)
    assert.matches("motion must be", err, 1, true)
    person.motion = { ONE, ONE, 0, -1 }              -- faster than its speed
    ok, err = pcall(world.load, saved, {})
    assert.is_false(ok)
    assert.matches("does not fit", err, 1, true)
  end)
end)

describe("motion options: determinism", function()
  it("people and units give the same trace on every build of the core", function()
    local trace = require("support.motion_trace")
    local wayfinder = require("wayfinder")
    local want = ("%08x"):format(trace.trace(wayfinder, 200))
    assert.are.equal(want, ("%08x"):format(trace.trace(wayfinder, 200)))
    assert.are_not.equal(want, ("%08x"):format(trace.trace(wayfinder, 199)))
    -- raises, naming `make clang-check`, when a build is missing
    local builds = require("support.builds")
    for _, build in ipairs(builds.all()) do
      local cmd = (builds.lua_for(build) .. " -e \"package.path='lua/?.lua;lua/?/init.lua;spec/?.lua;'"
        .. "..package.path; package.cpath='%s'\" spec/support/motion_trace.lua 200")
        :format(build.cpath)
      local p = assert(io.popen(cmd))
      local got = p:read("*l")
      p:close()
      assert.are.equal(want, got, build.name .. " (" .. build.cpath .. ") differs")
    end
  end)
end)

describe("house people motion options: bad input", function()
  local BAD = {
    accel = { "0.1", true, 0 / 0, math.huge, -math.huge, -0.1, 0, 1.5 },
    turn_rate = { "1", false, 0 / 0, math.huge, -1, 0, 4 },
    arrive_radius = { {}, 0 / 0, math.huge, -1, 5000 },
    corner_radius = { "x", 0 / 0, math.huge, -0.5, 16.5 },
    lookahead = { 1, "yes", 0 / 0 },
  }
  for key, values in pairs(BAD) do
    it("spec." .. key .. " is checked and nothing changes", function()
      local w = world.new { width = 6, height = 4 }
      local before = #w:people()
      local saved = w:save()
      for _, bad in ipairs(values) do
        local ok, err = pcall(w.add_person, w, { x = 1.5, y = 1.5, [key] = bad })
        assert.is_false(ok)
        assert.matches("world:add_person: spec." .. key .. " must be", err, 1, true)
        assert.are.equal(before, #w:people())
        assert.are.same(saved, w:save())
      end
    end)
  end

  it("the options do not apply to things that are not people", function()
    local w = world.new { width = 6, height = 4 }
    local ok, err = pcall(w.add_object, w, { type = "chair", x = 1, y = 1, accel = 0.1 })
    assert.is_false(ok)
    assert.matches("spec.accel does not apply to objects that are not people", err, 1, true)
  end)

  it("the walker checks its own arguments", function()
    local wk = core.walker_new(4, 4)
    wk:add_person(1, ONE, ONE, ONE / 4, ONE / 4, 0)
    local ok, err = pcall(wk.set_motion, wk, 1, ONE + 1, 0, 0, false, 0)
    assert.is_false(ok)
    assert.matches("accel", err, 1, true)
    ok, err = pcall(wk.set_motion, wk, 1, 0, 0, 0, false, 16 * ONE + 1)
    assert.is_false(ok)
    assert.matches("corner_radius", err, 1, true)
    ok, err = pcall(wk.set_motion_state, wk, 1, 0, 0, 0, -1)   -- a zero heading
    assert.is_false(ok)
    assert.matches("walker:set_motion_state", err, 1, true)
    assert.same({ 0, 0, 0, false, 0, 0, ONE, 0, -1 }, { wk:motion(1) })
  end)
end)
