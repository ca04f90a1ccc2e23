-- Walks that a wall or a door frame stopped in crowds (options.avoidance =
-- "sidestep", docs/world.md "Crowds"): a person off its leg whose way back
-- to the leg is taken by someone standing shoves that person aside; a
-- person on its leg whose leg cuts a door frame's corner, with the sidestep
-- taken by someone standing, moves along one axis; and in a jam of two (the
-- way back and the slide taken by a walking person of a higher id, whose
-- own step the walker refuses) the other steps out of the walker's way.
-- Each walk goes on and arrives instead of ending at the wall. A person
-- whose walk ended this tick is not shoved before the next, and a
-- sidestep never takes a person through a door its leg does not go
-- through. Every tick: no overlap, nobody on a wall or out of the world.
-- Runs repeat, and a saved world goes on exactly as the original.
local world = require("wayfinder.world")
local prng = require("support.prng")

local tick_check = require("support.house_tick_check")
local broken, trace = tick_check.broken, tick_check.trace

local ONE = 65536

local function fx(v) return math.floor(v * ONE + 0.5) end

-- The two scenes: a world, the walker (person a, walking its route) and
-- the one standing in its way (person b), and the wall edges for the
-- invariants.
local SCENES = {
  {
    name = "a walk off its leg whose way back to it is taken",
    -- a wall x = 4, y 0..2 above a leg along y = 2.5; the walker starts a
    -- tile above the leg, a sidestep round the wall's end takes it down
    -- toward the leg, where b stands
    build = function(w)
      w:add_wall(4, 0, 4, 2)
      return { { true, 4, 0 }, { true, 4, 1 } }
    end,
    a = { 3, 1.5 }, b = { 3.75, 2.75 }, route = { 1.5, 2.5, 6.5, 2.5 },
  },
  {
    name = "a leg cutting a door frame's corner, the sidestep taken",
    -- a wall y = 2 with a gap (the doorway) at x 2..3; the leg runs from
    -- the walker's start down through the gap so close to its frame that
    -- the swept step meets the corner at (3, 2); b stands where the
    -- sidestep to the left would go
    build = function(w)
      w:add_wall(0, 2, 2, 2)
      w:add_wall(3, 2, 8, 2)
      local walls = {}
      for x = 0, 7 do
        if x ~= 2 then walls[#walls + 1] = { false, x, 2 } end
      end
      return walls
    end,
    a = { 2.9, 1.74 }, b = { 2.35, 1.6 }, route = { 2.9, 1.74, 2.4, 2.7 },
  },
  {
    name = "a jam of two: the way back and the slide taken by a walking person",
    -- the first scene's wall and walker, but b walks (a higher id than a)
    -- from below-left of the walker round the wall's end: a, off its leg
    -- beside the wall, finds the way back and the slide taken by b, whose
    -- own step a refuses; before, a's walk ended at the wall on tick 5, now
    -- b steps away from a that tick and a slides on
    build = function(w)
      w:add_wall(4, 0, 4, 2)
      return { { true, 4, 0 }, { true, 4, 1 } }
    end,
    a = { 3, 1.5 }, b = { 2.5, 2.25 }, route = { 1.5, 2.5, 6.5, 2.5 },
    b_route = { 2.5, 2.25, 4.5, 2 },
  },
}

local function scene(s)
  local w = world.new { width = 8, height = 5, avoidance = "sidestep", door_flow = "queue" }
  local walls = s.build(w)
  local a = w:add_person { x = s.a[1], y = s.a[2], speed = 0.2 }
  local b = w:add_person { x = s.b[1], y = s.b[2], speed = 0.2 }
  local pts = {}
  for k, v in ipairs(s.route) do pts[k] = fx(v) end
  w.walker:set_route(a.id, pts, 1)
  if s.b_route then
    local bpts = {}
    for k, v in ipairs(s.b_route) do bpts[k] = fx(v) end
    w.walker:set_route(b.id, bpts, 1)
  end
  return w, a, b, walls
end

-- Ticks until a's walk ends (at most `limit`), checking the invariants
-- every tick; returns the ticks used and a's position (fixed point).
local function run(w, a, walls, limit)
  local t = tick_check.run_until(w, walls, limit, function()
    local _, _, _, walking = w.walker:person(a.id)
    return not walking
  end)
  if not t then error("the walk did not end in " .. limit .. " ticks") end
  local x, y = w.walker:person(a.id)
  return t, x, y
end

describe("walks stopped by walls in crowds (avoidance = 'sidestep')", function()
  for _, s in ipairs(SCENES) do
    it(s.name .. " goes on and arrives", function()
      local w, a, b, walls = scene(s)
      local bx0, by0 = w.walker:person(b.id)
      local ticks, x, y = run(w, a, walls, 200)
      -- before: the walk ended against the wall, a tile or more short
      assert.are.same({ fx(s.route[#s.route - 1]), fx(s.route[#s.route]) }, { x, y })
      assert.is_true(ticks <= 40, "took " .. ticks .. " ticks")
      local bx, by = w.walker:person(b.id)
      assert.are_not.same({ bx0, by0 }, { bx, by })   -- b was shoved aside (or walked)
    end)

    it(s.name .. ": identical runs, and a saved world goes on as the original", function()
      local w1, a1 = scene(s)
      local w2 = scene(s)
      assert.are.equal(prng.hex(trace(w1, 3)), prng.hex(trace(w2, 3)))
      local x1, y1, _, walking = w1.walker:person(a1.id)
      assert.is_true(walking)
      local copy = world.load(w1:save(), {})
      assert.are.equal(prng.hex(trace(w1, 40)), prng.hex(trace(copy, 40)))
      local x2, y2 = w1.walker:person(a1.id)
      assert.are_not.same({ x1, y1 }, { x2, y2 })
    end)
  end

  it("a person whose walk ended this tick is not shoved before the next", function()
    -- a corridor one tile wide: a (the lower id) walks a tile east and
    -- arrives on tick 4; b walks west into it that very tick. Before, b
    -- shoved a off the end of its walk in the step it arrived, so the
    -- behaviour that ended the walk found a elsewhere (a door tree's step
    -- through then started off the door's lane and met its frame)
    local w = world.new { width = 8, height = 3, avoidance = "sidestep" }
    w:add_wall(0, 1, 8, 1)
    w:add_wall(0, 2, 8, 2)
    local walls = {}
    for x = 0, 7 do
      walls[#walls + 1] = { false, x, 1 }
      walls[#walls + 1] = { false, x, 2 }
    end
    local a = w:add_person { x = 2.5, y = 1.5, speed = 0.25 }
    local b = w:add_person { x = 4.6, y = 1.5, speed = 0.2 }
    w.walker:set_route(a.id, { fx(2.5), fx(1.5), fx(3.5), fx(1.5) }, 1)
    w.walker:set_route(b.id, { fx(4.6), fx(1.5), fx(0.5), fx(1.5) }, 1)
    local seen, bxs = {}, {}
    for t = 1, 5 do
      w:tick()
      local msg = broken(w, walls)
      assert(msg == nil, msg)
      local x, y, _, walking = w.walker:person(a.id)
      seen[t] = { x, y, walking }
      bxs[t] = w.walker:person(b.id)
    end
    assert.are.same({ fx(3.5), fx(1.5), false }, seen[4])   -- where its walk ended
    assert.are.equal(bxs[3], bxs[4])                        -- b waited that tick
    -- the next tick a stands, and b's shove moves it aside
    assert.are.same({ fx(3.5), fx(1.25), false }, seen[5])
  end)

  it("a sidestep never takes a person through a door its leg does not go through", function()
    -- a wall x = 4 with a door in row 2; a walks north along the wall,
    -- right beside the doorway, and b stands in its way: the sidesteps to
    -- a's right lead east, through the door. Before, a's centre went
    -- through into the other room (x 4.04) while its leg stayed in its
    -- own; in the house benchmark such a person then walked on beside
    -- the wall toward a sub-goal behind it and its walk ended at the wall
    local w = world.new { width = 8, height = 5, avoidance = "sidestep" }
    w:add_wall(4, 0, 4, 5)
    w:add_object { type = "door", x = 3, y = 2, w = 2, h = 1 }
    local walls = {}
    for r = 0, 4 do
      if r ~= 2 then walls[#walls + 1] = { true, 4, r } end
    end
    local a = w:add_person { x = 3.9, y = 2.6, speed = 0.2 }
    w:add_person { x = 3.7, y = 1.7, speed = 0.2 }
    w.walker:set_route(a.id, { fx(3.9), fx(2.6), fx(3.9), fx(0.5) }, 1)
    local most, sidestepped = 0, false
    for _ = 1, 40 do
      w:tick()
      local msg = broken(w, walls)
      assert(msg == nil, msg)
      local x, _, _, walking = w.walker:person(a.id)
      if x ~= fx(3.9) then sidestepped = true end
      most = math.max(most, x)
      if not walking then break end
    end
    assert.is_true(sidestepped)          -- it did step aside
    assert.is_true(most < fx(4), "a's centre went through the door")
  end)

  it("in a jam of two the other steps out of the walker's way", function()
    local s = SCENES[3]
    local w, a, b, walls = scene(s)
    local gx, gy = fx(s.b_route[3]), fx(s.b_route[4])
    local prev, back, a_end, b_end
    -- the walk events of the tick, as the world's tick sees them
    local core = w.walker
    local step = getmetatable(core).__index.step
    local proxy = setmetatable({}, { __index = function(_, k)
      local f = core[k]
      return function(_, ...) return f(core, ...) end
    end })
    function proxy.step()
      local ev = step(core)
      for i = 1, #ev, 3 do
        if ev[i] == a.id then a_end = { ev[i + 1], ev[i + 2] } end
        if ev[i] == b.id then b_end = { ev[i + 1], ev[i + 2] } end
      end
      return ev
    end
    w.walker = proxy
    for t = 1, 60 do
      w:tick()
      local msg = broken(w, walls)
      assert(msg == nil, msg)
      local x, y, _, walking = core:person(b.id)
      local d = (x - gx) ^ 2 + (y - gy) ^ 2
      if walking and prev and d > prev then back = back or t end
      prev = walking and d or nil
      if a_end then break end
    end
    w.walker = core
    -- before: a's walk ended on tick 5 with no blocker (the wall)
    assert.are.same({ 1, 0 }, a_end)           -- arrived
    assert.are.same({ 1, 0 }, b_end)           -- b arrived too, earlier
    assert.is_truthy(back, "b never stepped away from its goal")
    local x, y = core:person(a.id)
    assert.are.same({ fx(6.5), fx(2.5) }, { x, y })
  end)
end)
