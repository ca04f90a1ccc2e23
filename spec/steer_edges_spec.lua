-- Steering groups at their edges: options that round to nothing, an empty
-- group, behaviours with nothing to act on, predictions and moves that
-- would leave the world's limit of +-8192, and flocking by one weight.
local steer = require("wayfinder.steer")

local Q = 65536

local function err(pattern, f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok)
  assert.matches(pattern, msg, 1, true)
end

describe("steer options at their edges", function()
  it("a positive length below 1/65536 is refused, not rounded to zero", function()
    err("wayfinder.steer.group: options.max_speed must be in (0, 8], got 1e-07",
      steer.group, { max_speed = 1e-7 })
    err("wayfinder.steer.group: options.slow_radius must be in (0, 1024], got 1e-07",
      steer.group, { slow_radius = 1e-7 })
    -- the wander lengths and the radius may be zero, so they are taken as 0
    local g = steer.group({ wander_distance = 1e-7, radius = 1e-7 })
    assert.equal(0, g:count())
  end)

  it("a small neighbour_radius pulls the default separation_radius down to it", function()
    -- the default separation_radius is 1: with neighbour_radius 0.5 it
    -- becomes 0.5 rather than failing, unless it is given
    err("options.separation_radius must be at most options.neighbour_radius (0.5), got 1",
      steer.group, { neighbour_radius = 0.5, separation_radius = 1 })
    local g = steer.group({ neighbour_radius = 0.5, max_speed = 0.5 })
    local a = g:add(0, 0)
    g:add(0.25, 0)
    -- the neighbour 0.25 away is inside the (shrunk) separation radius
    local x, y = g:force(a, "separation")
    assert.is_true(x < 0)
    assert.equal(0, y)
    -- one 0.75 away is beyond both radii: no push at all
    local g2 = steer.group({ neighbour_radius = 0.5, max_speed = 0.5 })
    local b = g2:add(0, 0)
    g2:add(0.75, 0)
    assert.same({ 0, 0 }, { g2:force(b, "separation") })
  end)
end)

describe("steer methods at their edges", function()
  it("an empty group has no agent to name", function()
    local g = steer.group()
    err("group:get: i must be an agent of the group (1 to 0), got 1", g.get, g, 1)
    err("group:force: i must be an agent of the group (1 to 0), got 1",
      g.force, g, 1, "seek")
    g:add(0, 0)
    err("group:get: i must be an agent of the group (1 to 1), got 'one'", g.get, g, "one")
    err("group:get: i must be an integer in [1, 1], got 2", g.get, g, 2)
    g = steer.group()
    -- stepping nobody is fine and counts the tick
    assert.equal(0, g:step())
    assert.equal(1, g:ticks())
  end)

  it("a speed below 1/65536 is refused and the old speed kept", function()
    local g = steer.group({ max_speed = 0.5 })
    local a = g:add(0, 0)
    err("group:speed: max_speed must be in (0, 0.5], got 1e-07", g.speed, g, a, 1e-7)
    assert.equal(0.5, g:speed(a))
  end)

  it("a behaviour name must match whole, with no zero byte", function()
    local g = steer.group()
    local a = g:add(0, 0)
    err("group:force: behaviour must not contain a NUL byte", g.force, g, a, "seek\0x")
    err("group:force: behaviour must be one of", g.force, g, a, "see")
  end)

  it("seek, flee and arrive with no target point give no force", function()
    local g = steer.group({ max_speed = 0.5 })
    local a = g:add(1, 2, 0.25, 0)
    for _, kind in ipairs({ "seek", "flee", "arrive" }) do
      assert.same({ 0, 0 }, { g:force(a, kind) })
    end
    -- weighted, they leave the velocity alone: the agent coasts
    g:behave(a, { seek = 5, flee = 5, arrive = 5 })
    g:step()
    assert.same({ 1.25, 2, 0.25, 0 }, { g:get(a) })
  end)

  it("a prediction past the world's limit is cut to +-8192", function()
    local g = steer.group({ max_speed = 0.5, lookahead = 30 })
    local a = g:add(8000, 0)
    local q = g:add(8190, -8190, 0.25, -0.25)
    g:chase(a, q)
    -- the quarry is far: 30 ticks of (0.25, -0.25) from (8190, -8190) is
    -- (8197.5, -8197.5), beyond the limit on both axes
    assert.same({ 8192, -8192 }, { g:predict(a) })
    -- and pursue steers toward the cut point
    local fx, fy = g:force(a, "pursue")
    assert.is_true(fx > 0 and fy < 0)
  end)

  it("a prediction is cut on the other sides too", function()
    local g = steer.group({ max_speed = 0.5, lookahead = 30 })
    local a = g:add(-8000, 8000)
    local q = g:add(-8190, 8190, -0.25, 0.25)
    g:chase(a, q)
    assert.same({ -8192, 8192 }, { g:predict(a) })
  end)

  it("an agent in the same neighbour bucket but a far cell is no neighbour", function()
    -- capacity 2 gives four buckets; cells (0, 0) and (0, 4) (neighbour
    -- radius 2) hash to the same one, yet are not adjacent
    local g = steer.group({ capacity = 2, neighbour_radius = 2, max_speed = 0.5 })
    local a = g:add(0.5, 0.5)
    g:add(0.5, 8.5)
    for _, kind in ipairs({ "separation", "alignment", "cohesion" }) do
      assert.same({ 0, 0 }, { g:force(a, kind) })
    end
    -- moved next to it, it counts
    g:set(2, 0.5, 1.5)
    local _, y = g:force(a, "cohesion")
    assert.is_true(y > 0)
  end)

  it("cohesion alone draws an agent to its neighbours", function()
    local g = steer.group({ max_speed = 0.5, max_accel = 0.25, neighbour_radius = 2 })
    local a = g:add(0, 0)
    g:add(1, 1)
    g:add(1, -1)
    g:behave(a, { cohesion = 1 })
    g:step()
    -- the neighbours' mean is (1, 0): seek it at max_speed, cut to 0.25
    assert.same({ 0.25, 0, 0.25, 0 }, { g:get(a) })
  end)

  it("a move past the world's limit slides along it or stops", function()
    local g = steer.group({ max_speed = 0.5 })
    -- moving out across x = 8192 only: keeps its y part
    local a = g:add(8191.75, 0, 0.375, 0.25)
    -- moving out across a corner: stays where it is
    local b = g:add(-8191.875, -8191.875, -0.25, -0.25)
    -- moving out straight across y = 8192: its y part is dropped
    local c = g:add(0, 8191.875, 0, 0.25)
    assert.equal(3, g:step())
    assert.same({ 8191.75, 0.25, 0, 0.25 }, { g:get(a) })
    assert.same({ -8191.875, -8191.875, 0, 0 }, { g:get(b) })
    assert.same({ 0, 8191.875, 0, 0 }, { g:get(c) })
    -- nothing left to cut: the next tick moves a along y freely
    assert.equal(0, g:step())
    assert.same({ 8191.75, 0.5, 0, 0.25 }, { g:get(a) })
  end)

  it("alignment alone gathers neighbours without separation or cohesion", function()
    local g = steer.group({ max_speed = 0.5, max_accel = 0.25, neighbour_radius = 2 })
    local a = g:add(0, 0)
    g:add(1, 0, 0, 0.5)
    g:add(-1, 0, 0, 0.5)
    g:behave(a, { alignment = 1 })
    g:step()
    -- the neighbours' mean velocity is (0, 0.5); the force (0, 0.5) is cut
    -- to max_accel 0.25
    local x, y, vx, vy = g:get(a)
    assert.same({ 0, 0.25 * Q, 0, 0.25 * Q }, { x * Q, y * Q, vx * Q, vy * Q })
  end)
end)
