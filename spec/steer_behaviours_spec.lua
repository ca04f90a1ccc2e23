-- Worked examples for each steering behaviour of wayfinder.steer, with the
-- fixed-point arithmetic spelled out: values are Q16.16 (n / 65536),
-- lengths are floors of integer square roots, scalings truncate toward
-- zero. Then the weighted sum, the cuts, and every bad argument.
local steer = require("wayfinder.steer")

local Q = 65536

-- A group with max_speed 0.5 (32768) and max_accel 0.25 (16384); agent 1
-- stands still at the origin.
local function origin_group(options)
  local o = { max_speed = 0.5, max_accel = 0.25 }
  for k, v in pairs(options or {}) do o[k] = v end
  local g = steer.group(o)
  local a = g:add(0, 0)
  return g, a
end

local function force(g, i, name)
  local x, y = g:force(i, name)
  return { x * Q, y * Q }
end

describe("steer behaviours", function()
  it("seek: max_speed toward the point, minus the velocity", function()
    local g, a = origin_group()
    g:target(a, 3, 4)
    -- (3, 4) is 5 away: 196608 * 32768 / 327680 = 19660.8 -> 19660,
    -- 262144 * 32768 / 327680 = 26214.4 -> 26214
    assert.same({ 19660, 26214 }, force(g, a, "seek"))
    g:set(a, 0, 0, 0.25, 0)
    assert.same({ 19660 - 16384, 26214 }, force(g, a, "seek"))
  end)

  it("flee: max_speed away from the point", function()
    local g, a = origin_group()
    g:target(a, 3, 4)
    assert.same({ -19660, -26214 }, force(g, a, "flee"))
  end)

  it("arrive: full speed outside slow_radius, linear slowing inside", function()
    local g, a = origin_group({ slow_radius = 10 })
    g:target(a, 3, 4)
    -- speed 32768 * 5 / 10 = 16384: 196608 * 16384 / 327680 = 9830.4,
    -- 262144 * 16384 / 327680 = 13107.2
    assert.same({ 9830, 13107 }, force(g, a, "arrive"))
    local g2, b = origin_group({ slow_radius = 5 })
    g2:target(b, 3, 4)
    assert.same({ 19660, 26214 }, force(g2, b, "arrive"))
    g2:target(b, 0, 0)   -- at the point: the force stops the agent
    g2:set(b, 0, 0, 0.25, -0.125)
    assert.same({ -16384, 8192 }, force(g2, b, "arrive"))
  end)

  it("pursue and evade aim at the quarry's predicted position", function()
    local g, a = origin_group()
    local q = g:add(4, 0, 0, 0.375)
    assert.same({ nil, "no_quarry" }, { g:predict(a) })
    assert.same({ 0, 0 }, force(g, a, "pursue"))
    g:chase(a, q)
    -- distance 4, max_speed 0.5: T = 8 ticks; (4, 0) + 8 * (0, 0.375)
    assert.same({ 4, 3 }, { g:predict(a) })
    assert.same({ 26214, 19660 }, force(g, a, "pursue"))
    assert.same({ -26214, -19660 }, force(g, a, "evade"))
    -- the look-ahead caps T
    local g2, b = origin_group({ lookahead = 4 })
    local q2 = g2:add(4, 0, 0, 0.375)
    g2:chase(b, q2)
    assert.same({ 4, 1.5 }, { g2:predict(b) })
    g2:chase(b, nil)
    assert.same({ nil, "no_quarry" }, { g2:predict(b) })
  end)

  it("wander: seeks a point on a circle ahead, turned by seeded jitter", function()
    local g, a = origin_group({ wander_distance = 2, wander_radius = 1 })
    -- still: heading (1, 0); angle 0: the point (2, 0) + (1, 0)
    assert.same({ 32768, 0 }, force(g, a, "wander"))
    g:behave(a, { wander = 1 })
    local angles = {}
    for t = 1, 5 do
      g:step()
      angles[t] = (g:wander(a))
    end
    local turned = false
    for t = 1, 5 do
      assert.is_true(angles[t] >= 0 and angles[t] < 2 * math.pi)
      local prev = angles[t - 1] or 0
      local d = math.abs(angles[t] - prev)
      d = math.min(d, 2 * math.pi - d)
      assert.is_true(d <= 0.25 + 1e-9, "a turn is at most wander_jitter")
      if d > 0 then turned = true end
    end
    assert.is_true(turned)
  end)

  it("separation: pushes away, harder when closer, coincident agents part along x", function()
    local g, a = origin_group({ separation_radius = 1 })
    g:add(0.5, 0)
    -- length 32768 * (65536 - 32768) / 65536 = 16384, away along -x
    assert.same({ -16384, 0 }, force(g, a, "separation"))
    g:add(0, -0.75)   -- length 32768 * 16384 / 65536 = 8192 along +y
    assert.same({ -16384, 8192 }, force(g, a, "separation"))
    local g2, b = origin_group()
    local c = g2:add(0, 0)
    assert.same({ -32768, 0 }, force(g2, b, "separation"))
    assert.same({ 32768, 0 }, force(g2, c, "separation"))
    g2:add(5, 5)      -- beyond neighbour_radius: no effect
    assert.same({ -32768, 0 }, force(g2, b, "separation"))
  end)

  it("alignment: the neighbours' mean velocity minus the agent's", function()
    local g, a = origin_group({ neighbour_radius = 2 })
    assert.same({ 0, 0 }, force(g, a, "alignment"))
    g:add(1, 0, 0.5, 0)
    g:add(0, 1, 0, 0.25)
    g:add(3, 0, -0.5, 0)   -- 3 away: not a neighbour
    g:set(a, 0, 0, 0, 0.125)
    assert.same({ 16384, 8192 - 8192 }, force(g, a, "alignment"))
  end)

  it("cohesion: seeks the neighbours' mean position", function()
    local g, a = origin_group({ neighbour_radius = 2 })
    g:add(0.5, 0)
    g:add(-0.5, 1)
    -- mean (0, 0.5): straight up at max_speed
    assert.same({ 0, 32768 }, force(g, a, "cohesion"))
  end)

  it("sums weighted forces, cuts them to max_accel, the velocity to max_speed", function()
    local g, a = origin_group()
    g:target(a, 3, 4)
    g:behave(a, { seek = 3 })
    g:step()
    -- 3 * (19660, 26214) = (58980, 78642), length 98301 > 16384:
    -- 58980 * 16384 / 98301 = 9830.4, 78642 * 16384 / 98301 = 13107.9
    local x, y, vx, vy = g:get(a)
    assert.same({ 9830, 13107, 9830, 13107 }, { x * Q, y * Q, vx * Q, vy * Q })
    g:target(a, 300, 400)
    for _ = 1, 20 do g:step() end
    local _, _, wx, wy = g:get(a)
    assert.is_true(math.sqrt(wx * wx + wy * wy) <= 0.5)
    assert.is_true(math.sqrt(wx * wx + wy * wy) > 0.49)
    -- equal seek and flee cancel
    local g2, b = origin_group()
    g2:target(b, 3, 4)
    g2:behave(b, { seek = 2, flee = 2 })
    g2:step()
    assert.same({ 0, 0, 0, 0 }, { g2:get(b) })
  end)

  it("a slower agent keeps to its own speed", function()
    local g, a = origin_group({ max_accel = 8 })
    assert.equal(0.5, g:speed(a))
    assert.equal(0.25, g:speed(a, 0.25))
    g:target(a, 10, 0)
    g:behave(a, { seek = 1 })
    g:step()
    assert.same({ 0.25, 0, 0.25, 0 }, { g:get(a) })
  end)

  it("counts agents and ticks, and closes once", function()
    local g = origin_group()
    assert.equal(1, g:count())
    g:step()
    g:step()
    assert.equal(2, g:ticks())
    assert.matches("wayfinder.Group %(1 agents%)", tostring(g))
    g:close()
    g:close()
    assert.matches("closed", tostring(g))
    assert.has_error(function() g:count() end, "group:count: the group is closed")
  end)
end)

describe("steer bad input", function()
  local function err(pattern, f, ...)
    local ok, msg = pcall(f, ...)
    assert.is_false(ok)
    assert.matches(pattern, msg, 1, true)
  end

  it("names the bad option", function()
    err("wayfinder.steer.group: options must be a table, got 5", steer.group, 5)
    err("options.max_speed must be", steer.group, { max_speed = 0 })
    err("options.max_speed must be", steer.group, { max_speed = 9 })
    err("options.max_accel must be", steer.group, { max_accel = 0 / 0 })
    err("options.slow_radius must be", steer.group, { slow_radius = -1 })
    err("options.lookahead must be", steer.group, { lookahead = 0.5 })
    err("options.seed must be", steer.group, { seed = -1 })
    err("options.capacity must be", steer.group, { capacity = 0 })
    err("options.wander_jitter must be", steer.group, { wander_jitter = math.huge })
    err("options.separation_radius must be at most options.neighbour_radius",
      steer.group, { neighbour_radius = 1, separation_radius = 2 })
    err("options.neighbour_radius must be at least 2 * radius + 2 * max_speed",
      steer.group, { radius = 0.5, max_speed = 0.5, neighbour_radius = 1 })
    err("unknown options key 'speed'", steer.group, { speed = 1 })
  end)

  it("names the bad argument of each method and changes nothing", function()
    local g = steer.group({ capacity = 2 })
    err("group:add: x must be", g.add, g, "a", 0)
    err("group:add: y must be", g.add, g, 0, 1e9)
    err("group:add: the speed |(vx, vy)| must be at most max_speed", g.add, g, 0, 0, 1, 0)
    assert.equal(0, g:count())
    err("group:get: i must be an agent of the group (1 to 0), got 1", g.get, g, 1)
    local a = g:add(0, 0)
    g:add(1, 1)
    err("group:add: the group is full (options.capacity)", g.add, g, 2, 2)
    err("group:get: i must be an integer in [1, 2], got 3", g.get, g, 3)
    err("group:set: vx must be", g.set, g, a, 0, 0, 0 / 0)
    err("group:behave: weights must be a table", g.behave, g, a, 3)
    err("group:behave: weights.seek must be", g.behave, g, a, { seek = -1 })
    err("group:behave: weights.seek must be", g.behave, g, a, { seek = 1001 })
    err("group:behave: unknown weights key 'pursuit'", g.behave, g, a, { pursuit = 1 })
    err("group:target: y must be", g.target, g, a, 0)
    err("group:chase: j must differ from i, got 1", g.chase, g, a, a)
    err("group:chase: j must be an integer in [1, 2], got 7", g.chase, g, a, 7)
    err("group:force: behaviour must be one of", g.force, g, a, "seeking")
    err("group:speed: max_speed must be", g.speed, g, a, 1)
    err("group:speed: max_speed must be", g.speed, g, a, 0)
    err("group:step: grid must be", g.step, g, 5)
    err("self must be a wayfinder.Group", g.step, {})
    assert.same({ 0, 0, 0, 0 }, { g:get(a) })
  end)

  it("survives a weights table whose metamethod closes the group", function()
    local g = steer.group()
    local a = g:add(0, 0)
    local weights = setmetatable({}, { __index = function()
      g:close()
      return nil
    end })
    err("group:behave: the group is closed", g.behave, g, a, weights)
    assert.matches("closed", tostring(g))
    err("group:count: the group is closed", g.count, g)
    g:close()
  end)
end)
