-- Two doors side by side (docs/world.md, "Door queues"): with
-- options.door_flow = "queue", people waiting for one door keep out of
-- the way of every door of their room, not only of the one they wait for,
-- and people stalled in a doorway step out of it. Two doors two tiles
-- apart in one wall, a group crossing each door in opposite directions:
-- all arrive, and nobody who does not hold a door stands still on its
-- tiles for long. Every tick: no two people overlap, nobody overlaps a
-- wall or furniture or leaves the world. Repeated runs and a saved run
-- go on alike.
local world = require("wayfinder.world")
local prng = require("support.prng")

local bt = require("wayfinder.bt")
local goto_relative = require("wayfinder.primitives.goto_relative")

local tick_check = require("support.house_tick_check")
local trace = tick_check.trace

-- Two rooms 6 x 9 side by side; door A (tiles (5, 2) and (6, 2)) and door
-- B (tiles (5, 4) and (6, 4)) in the wall between them. `n` people start
-- in the left room and walk to goals near B in the right room; `n` start
-- in the right room and walk to goals near A in the left room. So the left
-- group crosses by B and waits for it beside it, where door A's tile is
-- one of the spots two tiles along the wall.
local function rooms(n, seed)
  local w = world.new { width = 12, height = 9, avoidance = "sidestep", door_flow = "queue" }
  w:add_wall(6, 0, 6, 9)
  local a = w:add_object { type = "door", x = 5, y = 2, w = 2, h = 1 }
  local b = w:add_object { type = "door", x = 5, y = 4, w = 2, h = 1 }
  local walls = {}
  for r = 0, 8 do
    if r ~= 2 and r ~= 4 then walls[#walls + 1] = { true, 6, r } end
  end
  local rng = prng.new(seed)
  -- starts: the far columns of each room, shuffled
  local left, right = {}, {}
  for x = 0, 2 do
    for y = 0, 8 do
      left[#left + 1] = { x + 0.5, y + 0.5 }
      right[#right + 1] = { 11 - x + 0.5, y + 0.5 }
    end
  end
  for _, list in ipairs({ left, right }) do
    for k = #list, 2, -1 do
      local j = rng.int(1, k)
      list[k], list[j] = list[j], list[k]
    end
  end
  -- goals: each group ends in the other room, half of it in the rows
  -- above A, half in the rows below B, so both doors are crossed both
  -- ways
  local people, goals = {}, {}
  for k = 1, n do
    local p = w:add_person { x = left[k][1], y = left[k][2], speed = 0.2 }
    people[#people + 1] = p
    local gy = k % 2 == 0 and 0.5 + math.floor(k / 2) % 2 or 6.5 + math.floor(k / 2) % 3
    goals[p.id] = { 7.5 + math.floor(k / 2) % 4, gy }
  end
  for k = 1, n do
    local p = w:add_person { x = right[k][1], y = right[k][2], speed = 0.2 }
    people[#people + 1] = p
    local gy = k % 2 == 1 and 0.5 + math.floor(k / 2) % 2 or 6.5 + math.floor(k / 2) % 3
    goals[p.id] = { 1.5 + math.floor(k / 2) % 4, gy }
  end
  for _, p in ipairs(people) do
    p:route_to(goals[p.id][1], goals[p.id][2], { max_tries = 20 })
  end
  return { w = w, doors = { a, b }, people = people, goals = goals, walls = walls }
end

-- Runs until everybody has a result (or `limit` ticks), checking the
-- invariants each tick (spec/support/house_tick_check.lua). Returns the
-- ticks used, how many arrived (route succeeded, standing within a tile of
-- the goal), and the longest time (ticks) anybody stood still on a door's
-- tile without holding that door.
local function run(c, limit)
  return tick_check.run_doors(c, limit, function(d, x, y)
    return math.floor(y) == d.tiles[2] and (math.floor(x) == 5 or math.floor(x) == 6)
  end)
end

describe("two doors side by side (options.door_flow = 'queue')", function()
  it("nobody waiting for one door stands on the other, and the groups get through",
    function()
      -- measured before waiters kept clear of every door of their room:
      -- someone stood still on a door's tile for 135 ticks (seed 5)
      for _, seed in ipairs({ 77, 5, 31, 8, 13 }) do
        local c = rooms(12, seed)
        local ticks, arrived, stood = run(c, 600)
        assert.is_true(ticks < 600, ("seed %d: still going after 600 ticks"):format(seed))
        assert.is_true(arrived >= 20, ("seed %d: %d of 24 arrived"):format(seed, arrived))
        assert.is_true(stood <= 30, ("seed %d: someone stood %d ticks on a door it did not hold")
          :format(seed, stood))
      end
    end)

  it("identical runs give identical traces, and a saved run goes on as the original",
    function()
      local a, b = rooms(12, 5), rooms(12, 5)
      assert.are.equal(prng.hex(trace(a.w, 80)), prng.hex(trace(b.w, 80)))
      local copy = world.load(a.w:save(), {})
      assert.are.equal(prng.hex(trace(a.w, 300)), prng.hex(trace(copy, 300)))
    end)
end)

-- One door between two rooms whose portal tree fails its first `fails`
-- tries with `reason` (as a crowd makes the standard tree fail), then is
-- the standard door tree. A person routes through it to the other room.
local function flaky(flow, fails, reason)
  local w = world.new { width = 8, height = 4, avoidance = "sidestep", door_flow = flow }
  w:add_wall(4, 0, 4, 4)
  local root = bt.selector {
    bt.sequence {
      bt.condition(function(ctx)
        ctx.data.tries = ctx.data.tries + 1
        return ctx.data.tries > fails
      end, reason),
      world.standard_door_tree(flow),
    },
    bt.fail_portal(),
  }
  w:add_tree("flaky", root)
  local door = w:add_object { type = "door", x = 3, y = 1, w = 2, h = 1 }
  w:set_portal_tree(door.id, "flaky")
  local p = w:add_person { x = 0.5, y = 1.5, data = { tries = 0 } }
  p:route_to(6.5, 1.5)
  return w, p, root
end

describe("a door that failed in a crowd (options.door_flow = 'queue')", function()
  it("is tried again after a pause instead of failing the route with no_door", function()
    local w, p = flaky("queue", 2, "busy")
    w:tick(200)
    assert.are.equal("success", p:state().last_result)
    assert.are.same({ 6.5, 1.5 }, { p:position() })
    assert.are.equal(3, p.data.tries)
  end)

  it("is lost to the route for good after the last round", function()
    local w, p = flaky("queue", goto_relative.DOOR_ROUNDS + 5, "busy")
    w:tick(400)
    assert.are.equal("failure", p:state().last_result)
    assert.are.equal("no_door", p:last_failure())
    -- the first try and one for each round
    assert.are.equal(1 + goto_relative.DOOR_ROUNDS, p.data.tries)
  end)

  it("is lost at once without the door flow, or when it failed for another reason",
    function()
      for _, case in ipairs({ { nil, "busy" }, { "queue", "locked" } }) do
        local w, p = flaky(case[1], 2, case[2])
        w:tick(200)
        assert.are.equal("no_door", p:last_failure())
        assert.are.equal(1, p.data.tries)
      end
    end)

  it("a world saved during the pause goes on as the original", function()
    local w, p, root = flaky("queue", 2, "busy")
    local paused
    for _ = 1, 50 do
      w:tick()
      if p.data.tries == 1 and not p:walking() then paused = true break end
    end
    assert.is_true(paused)
    local copy = world.load(w:save(), { flaky = root })
    assert.are.equal(prng.hex(trace(w, 150)), prng.hex(trace(copy, 150)))
    assert.are.equal("success", p:state().last_result)
    assert.are.equal("success", copy:object(p.id):state().last_result)
  end)
end)
