-- Route following: the C core that steps every walking person in one call
-- (wayfinder.Walker, reached through world.walker) and the world's walks,
-- Delta Move and replanning on top of it.
local compat = require("wayfinder.compat")
local core = require("wayfinder.core")
local world = require("wayfinder.world")
local bt = require("wayfinder.bt")

local F = 65536
local H = compat.idiv(F, 2)
local Q = compat.idiv(F, 4)

local function walk(h, id, points)
  h:set_route(id, points, 1)
end

-- Steps until the person's walk ends; returns the ticks and the events.
local function run(h, limit)
  for t = 1, limit do
    local ev = h:step()
    if #ev > 0 then return t, ev end
  end
  return nil
end

describe("the route-following core", function()
  it("steps toward each sub-goal by the speed and lands on it within one step", function()
    local h = core.walker_new(8, 4)
    h:add_person(1, H, H, Q, Q, 0)
    walk(h, 1, { H, H, 2 * F + H, H, 2 * F + H, 2 * F + H })
    local xs = {}
    for t = 1, 8 do
      local ev = h:step()
      local x, y, facing, walking, index = h:person(1)
      xs[t] = { x, y, facing, walking, index, #ev }
    end
    assert.are.same({
      { H + Q, H, 0, true, 1, 0 },
      { F, H, 0, true, 1, 0 },
      { F + Q, H, 0, true, 1, 0 },
      { F + H, H, 0, true, 1, 0 },
      { F + H + Q, H, 0, true, 1, 0 },
      { 2 * F, H, 0, true, 1, 0 },
      { 2 * F + Q, H, 0, true, 1, 0 },
      { 2 * F + H, H, 0, true, 2, 0 },
    }, xs)
    local t, ev = run(h, 20)
    assert.are.equal(8, t)
    assert.are.same({ 1, 1, 0 }, ev)
    local x, y, facing, walking, index, n = h:person(1)
    assert.are.same({ 2 * F + H, 2 * F + H, 2, false, 0, 0 }, { x, y, facing, walking, index, n })
  end)

  it("advances at most one sub-goal per tick, even for points closer than a step", function()
    local h = core.walker_new(4, 4)
    h:add_person(1, H, H, Q, compat.idiv(F, 2), 0)
    walk(h, 1, { H, H, H + 10, H, H + 20, H, H + 30, H })
    local t, ev = run(h, 10)
    assert.are.equal(3, t)
    assert.are.same({ 1, 1, 0 }, ev)
  end)

  it("reports a route whose index is already at the end as arrived on the next step", function()
    local h = core.walker_new(2, 2)
    h:add_person(1, H, H, Q, Q, 0)
    h:set_route(1, { H, H }, 1)
    assert.are.same({ 1, 1, 0 }, h:step())
    assert.are.same({}, h:step())
  end)

  it("turns people toward their step, in eight directions", function()
    local h = core.walker_new(8, 8)
    local got = {}
    local targets = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 }, { 0, -1 },
      { 1, -1 }, { 3, 1 }, { 1, 3 } }
    for k, d in ipairs(targets) do
      h:add_person(k, 4 * F, 4 * F, Q, Q, 0)
      walk(h, k, { 4 * F, 4 * F, 4 * F + d[1] * F, 4 * F + d[2] * F })
      h:step()
      local _, _, facing = h:person(k)
      got[k] = facing
      h:remove_person(k)
    end
    assert.are.same({ 0, 1, 2, 3, 4, 5, 6, 7, 0, 2 }, got)
  end)

  it("refuses a step into a wall, reported as blocker 0, and drops the route", function()
    local h = core.walker_new(4, 2)
    for y = 0, 1 do h:set_wall(true, 2, y, true) end
    h:add_person(1, H, H, Q, Q, 0)
    walk(h, 1, { H, H, 3 * F + H, H })
    local t, ev = run(h, 20)
    assert.are.equal(6, t)
    assert.are.same({ 1, 2, 0 }, ev)
    local x, _, _, walking = h:person(1)
    assert.are.equal(F + H + Q, x) -- the square's edge touches the wall
    assert.is_false(walking)
  end)

  it("lets people through an open door and names a closed door as the blocker", function()
    local h = core.walker_new(4, 1)
    h:set_wall(true, 2, 0, true)
    h:set_door(true, 2, 0, 9, true)
    h:add_person(1, H, H, Q, Q, 0)
    walk(h, 1, { H, H, 3 * F + H, H })
    local t, ev = run(h, 20)
    assert.are.equal(12, t)
    assert.are.same({ 1, 1, 0 }, ev)
    h:set_door(true, 2, 0, 9, false)
    walk(h, 1, { 3 * F + H, H, H, H })
    assert.are.same({ 1, 2, 9 }, select(2, run(h, 20)))
    -- removing the door leaves the wall
    h:set_door(true, 2, 0, 0, false)
    walk(h, 1, { 2 * F + Q, H, H, H })
    assert.are.same({ 1, 2, 0 }, select(2, run(h, 20)))
    assert.is_true(h:wall(true, 2, 0))
  end)

  it("stops a small fast person whose centre would jump over a wall", function()
    local h = core.walker_new(4, 1)
    h:set_wall(true, 2, 0, true)
    h:add_person(1, 2 * F - compat.idiv(F, 8), H, compat.idiv(F, 32), F, 0)
    walk(h, 1, { 2 * F - compat.idiv(F, 8), H, 2 * F + compat.idiv(F, 2), H })
    assert.are.same({ 1, 2, 0 }, h:step())
  end)

  it("blocks at boxes and reports their id, and forgets removed boxes", function()
    local h = core.walker_new(6, 1)
    h:set_box(7, 3 * F, 0, 4 * F, F)
    h:add_person(1, H, H, Q, Q, 0)
    walk(h, 1, { H, H, 5 * F + H, H })
    local _, ev = run(h, 40)
    assert.are.same({ 1, 2, 7 }, ev)
    local x = h:person(1)
    assert.are.equal(2 * F + H + Q, x) -- touching the box
    h:remove_box(7)
    walk(h, 1, { x, H, 5 * F + H, H })
    _, ev = run(h, 40)
    assert.are.same({ 1, 1, 0 }, ev)
  end)

  it("blocks at people, lowest id first, and earlier ids move first", function()
    local h = core.walker_new(8, 1)
    h:add_person(1, H, H, Q, Q, 0)
    h:add_person(2, F + H, H, Q, Q, 0)
    -- 1 follows 2 at the same speed: 2 moves first, so 1 is never blocked
    walk(h, 2, { F + H, H, 7 * F + H, H })
    walk(h, 1, { H, H, 6 * F + H, H })
    local ended = {}
    for _ = 1, 40 do
      for _, v in ipairs(h:step()) do ended[#ended + 1] = v end
    end
    assert.are.same({ 1, 1, 0, 2, 1, 0 }, ended)
    -- walking into a standing person
    walk(h, 1, { 6 * F + H, H, 7 * F + H, H })
    local _, ev = run(h, 10)
    assert.are.same({ 1, 2, 2 }, ev)
  end)

  it("never blocks a step away from something already overlapped", function()
    local h = core.walker_new(4, 1)
    h:add_person(1, F, H, Q, Q, 0)
    h:add_person(2, F + Q, H, Q, Q, 0) -- overlapping 1
    walk(h, 2, { F + Q, H, 3 * F, H })
    local _, ev = run(h, 20)
    assert.are.same({ 2, 1, 0 }, ev)
    walk(h, 1, { F, H, F + H, H })
    _, ev = run(h, 20)
    assert.are.same({ 1, 1, 0 }, ev)
  end)

  it("stops a thin fast person before it passes through another person", function()
    -- half 0.05, one tile per tick: the step from x = 1.2 to 2.2 ends clear
    -- of the person at 1.7, but the square it sweeps meets theirs
    local h = core.walker_new(4, 1)
    local tenth = math.floor(F / 20)
    h:add_person(1, F + math.floor(F / 5), H, tenth, F, 0)
    h:add_person(2, F + math.floor(7 * F / 10), H, tenth, Q, 0)
    walk(h, 1, { F + math.floor(F / 5), H, 3 * F + math.floor(F / 5), H })
    assert.are.same({ 1, 2, 2 }, h:step())
    assert.are.equal(F + math.floor(F / 5), (h:person(1)))
    -- with 2 gone the same step goes through
    h:remove_person(2)
    walk(h, 1, { F + math.floor(F / 5), H, 3 * F + math.floor(F / 5), H })
    assert.are.same({}, h:step())
    assert.are.equal(2 * F + math.floor(F / 5), (h:person(1)))
  end)

  it("stops a square that would sweep over a wall's end with neither end touching it", function()
    -- the wall runs from (2, 1) to (2, 2); the centre passes above its end
    -- (x = 2 at y = 2.03) but the square of half 0.25 meets it on the way
    local h = core.walker_new(4, 4)
    h:set_wall(true, 2, 1, true)
    local ax, ay = math.floor(172 * F / 100), math.floor(230 * F / 100)
    local bx, by = math.floor(228 * F / 100), math.floor(176 * F / 100)
    h:add_person(1, ax, ay, Q, F, 0)
    assert.is_true(h:square_free(bx, by, Q, 1))
    walk(h, 1, { ax, ay, bx, by })
    assert.are.same({ 1, 2, 0 }, h:step())
    local px, py = h:person(1)
    assert.are.same({ ax, ay }, { px, py })
    -- a box there stops it the same way, and names the box
    h:set_wall(true, 2, 1, false)
    h:set_box(5, 2 * F - 10, F, 2 * F, 2 * F)
    walk(h, 1, { ax, ay, bx, by })
    assert.are.same({ 1, 2, 5 }, h:step())
    h:remove_box(5)
    walk(h, 1, { ax, ay, bx, by })
    assert.are.same({ 1, 1, 0 }, h:step())
  end)

  it("keeps people inside the world's border", function()
    local h = core.walker_new(2, 2)
    h:add_person(1, H, H, Q, Q, 0)
    walk(h, 1, { H, H, H, compat.idiv(Q, 2) })
    local _, ev = run(h, 10)
    assert.are.same({ 1, 2, 0 }, ev)
  end)

  it("answers whether a square is free", function()
    local h = core.walker_new(4, 4)
    h:set_wall(false, 1, 2, true)
    h:set_box(5, 3 * F, 3 * F, 4 * F, 4 * F)
    h:add_person(3, H, H, Q, Q, 0)
    assert.are.same({ true, 0 }, { h:square_free(2 * F + H, H, Q, 0) })
    assert.are.same({ false, 3 }, { h:square_free(H + Q, H, Q, 0) })
    assert.are.same({ true, 0 }, { h:square_free(H + Q, H, Q, 3) })
    assert.are.same({ false, 5 }, { h:square_free(3 * F, 3 * F, Q, 0) })
    assert.are.same({ false, 0 }, { h:square_free(F + H, 2 * F, Q, 0) })
    assert.are.same({ false, 0 }, { h:square_free(compat.idiv(Q, 2), 2 * F, Q, 0) })
  end)

  it("rejects bad arguments with the method, argument and value", function()
    local h = core.walker_new(4, 4)
    h:add_person(1, H, H, Q, Q, 0)
    assert.has_error(function() core.walker_new(0, 4) end,
      "wayfinder.core.walker_new: width must be an integer in [1, 4096], got 0")
    assert.has_error(function() core.walker_new(4096, 4096) end,
      "wayfinder.core.walker_new: width*height must be at most 4194304 tiles, got 16777216")
    assert.has_error(function() h:add_person(1, H, H, Q, Q, 0) end,
      "walker:add_person: id 1 is already a person")
    assert.has_error(function() h:add_person(2, 5 * F, H, Q, Q, 0) end,
      "walker:add_person: position (327680, 32768) lies outside the world")
    assert.has_error(function() h:add_person(2, H, H, F, Q, 0) end,
      "walker:add_person: half must be an integer in [1, 32768], got 65536")
    assert.has_error(function() h:add_person(2, H, H, Q, 0, 0) end,
      "walker:add_person: speed must be an integer in [1, 65536], got 0")
    assert.has_error(function() h:set_route(1, { H, H, 9 * F, H }, 1) end,
      "walker:set_route: position (589824, 32768) lies outside the world")
    assert.has_error(function() h:set_route(1, { H, H, H }, 1) end,
      "walker:set_route: points must hold 1 to 65536 x, y pairs, got 3 values")
    assert.has_error(function() h:set_route(1, { H, H }, 2) end,
      "walker:set_route: index must be an integer in [0, 1], got 2")
    assert.has_error(function() h:set_route(2, { H, H }, 0) end,
      "walker:set_route: id 2 names no person")
    assert.has_error(function() h:set_wall(true, 5, 0, true) end,
      "walker:set_wall: x must be an integer in [0, 4], got 5")
    assert.has_error(function() h:set_wall(false, 0, 5, true) end,
      "walker:set_wall: y must be an integer in [0, 4], got 5")
    assert.has_error(function() h:set_box(3, F, F, 0, 0) end,
      "walker:set_box: the box must have x0 <= x1 and y0 <= y1")
    assert.has_error(function() h:remove_box(3) end, "walker:remove_box: id 3 names no box")
    assert.has_error(function() h:place(1, H, H, 8) end,
      "walker:place: facing must be an integer in [0, 7], got 8")
    h:close()
    assert.has_error(function() h:step() end, "walker:step: the walker is closed")
    assert.are.equal("wayfinder.Walker (closed)", tostring(h))
  end)
end)

describe("walking in a world", function()
  it("walks a straight route at the person's speed and ends on the point", function()
    local w = world.new { width = 6, height = 3 }
    local p = w:add_person { x = 0.5, y = 0.5, speed = 0.25 }
    p:route_to(3.5, 0.5)
    local xs = {}
    for t = 1, 14 do
      w:tick()
      xs[t] = (p:position())
    end
    assert.are.same({ 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.5 }, xs)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({}, p:state().frames)
    assert.are.equal("east", p:facing_name())
  end)

  it("shows the points still ahead", function()
    local w = world.new { width = 6, height = 6 }
    w:add_object { type = "table", x = 2, y = 0, w = 1, h = 4 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:route_to(4.5, 0.5)
    w:tick()
    local ahead = p:route()
    assert.is_true(#ahead >= 2)
    assert.are.same({ 4.5, 0.5 }, ahead[#ahead])
    -- every point is clear of the table by the person's half width
    for _, pt in ipairs(ahead) do
      assert.is_false(pt[1] > 1.75 and pt[1] < 3.25 and pt[2] < 4.25)
    end
  end)

  it("replans when a step is refused and counts the try", function()
    local w = world.new { width = 8, height = 5 }
    local p = w:add_person { x = 0.5, y = 2.5, speed = 0.5 }
    p:route_to(7.5, 2.5)
    w:tick()
    assert.are.equal(4, p:state().route_counter)
    -- furniture dropped across the straight route
    w:add_object { type = "crate", x = 4, y = 2 }
    w:tick(40)
    local x, y = p:position()
    assert.are.same({ 7.5, 2.5 }, { x, y })
    assert.are.equal("success", p:state().last_result)
    assert.are.equal(1, p:state().stats.routes)
  end)

  it("fails with out_of_tries when every try is blocked", function()
    local w = world.new { width = 6, height = 1 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    local q = w:add_person { x = 3.5, y = 0.5 }
    p:route_to(5.5, 0.5, { max_tries = 2 })
    w:tick(30)
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("out_of_tries", p:last_failure())
    assert.are.equal(0, p:state().route_counter)
    assert.are.same({ 3.5, 0.5 }, { q:position() })
  end)

  it("fails with no_path when the person is too wide for the only gap", function()
    local w = world.new { width = 5, height = 3 }
    w:add_object { type = "shelf", x = 2, y = 0 }
    w:add_object { type = "shelf", x = 2, y = 2 }
    local p = w:add_person { x = 0.5, y = 1.5, width = 1 }
    p:route_to(4.5, 1.5)
    w:tick(3)
    assert.are.equal("no_path", p:last_failure())
    local thin = w:add_person { x = 0.5, y = 0.5, width = 0.5 }
    thin:route_to(4.5, 1.5)
    w:tick(30)
    assert.are.equal("success", thin:state().last_result)
  end)

  it("moves a Delta Move along the facing, straight and diagonal", function()
    local w = world.new { width = 6, height = 6, trees = {
      step2 = bt.delta_move { distance = 2 },
      step1 = bt.delta_move { distance = 1 },
    } }
    local p = w:add_person { x = 0.5, y = 0.5, facing = "east" }
    p:push("step2")
    w:tick(12)
    assert.are.same({ 2.5, 0.5 }, { p:position() })
    assert.are.equal("success", p:state().last_result)
    local d = w:add_person { x = 1.5, y = 2.5, facing = "southeast" }
    d:push("step1")
    w:tick(8)
    local x, y = d:position()
    assert.are.equal(1.5 + 46341 / 65536, x)
    assert.are.equal(2.5 + 46341 / 65536, y)
  end)

  it("fails a Delta Move into a wall with reason blocked", function()
    local w = world.new { width = 4, height = 1, trees = { step = bt.delta_move { distance = 2 } } }
    w:add_wall(2, 0, 2, 1)
    local p = w:add_person { x = 0.5, y = 0.5, facing = "east" }
    p:push("step")
    w:tick(10)
    assert.are.equal("failure", p:state().last_result)
    assert.are.same({ "blocked", nil }, { p:last_failure() })
    assert.are.same({ 1.75, 0.5 }, { p:position() })
  end)

  it("stalls a Delta Move behind a person, then fails naming them", function()
    local w = world.new { width = 4, height = 1, trees = { step = bt.delta_move { distance = 3 } } }
    local p = w:add_person { x = 0.5, y = 0.5, facing = "east" }
    local q = w:add_person { x = 2.5, y = 0.5 }
    p:push("step")
    w:tick(30)
    assert.are.equal("failure", p:state().last_result)
    assert.are.same({ "blocked", q.id }, { p:last_failure() })
  end)

  it("places people, turns them and changes their speed", function()
    local w = world.new { width = 4, height = 4 }
    local p = w:add_person { x = 0.5, y = 0.5 }
    p:place(2.25, 3.5, "north")
    assert.are.same({ 2.25, 3.5 }, { p:position() })
    assert.are.equal("north", p:facing_name())
    p:set_speed(1)
    p:route_to(2.25, 0.5)
    w:tick(5)
    assert.are.same({ 2.25, 0.5 }, { p:position() })
    assert.has_error(function() p:place(4, 1) end, "person:place: (4, 1) lies outside the world")
    assert.has_error(function() p:set_speed(0) end,
      "person:set_speed: speed must be a number in (0, 1], got 0")
    assert.has_error(function() p:route_to(1, 0 / 0) end,
      "person:route_to: y must be a number in [0, 4], got nan")
    assert.has_error(function() p:route_to(1, 1, { max_tries = -1 }) end,
      "person:route_to: options.max_tries must be an integer in [1, 1000], got -1")
  end)
end)
