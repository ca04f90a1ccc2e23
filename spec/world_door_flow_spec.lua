-- Door flow in house worlds (options.door_flow = "queue", docs/world.md
-- "Crowds"): people told to wait for a door step out of its doorway and
-- lane and wait while the queue moves; someone coming through keeps the
-- other side out until it has stepped off the door. Two groups crossing
-- one door in opposite directions all arrive, a crowd through one door all
-- arrive, and nobody who waits stands in the doorway. Every tick: no two
-- people overlap, nobody overlaps a wall or furniture or leaves the world.
-- Without the door flow the same crowds do not all arrive. And a walk a
-- sidestep took off its leg goes back to it at a wall instead of ending.
local world = require("wayfinder.world")
local prng = require("support.prng")

local ONE = 65536

local tick_check = require("support.house_tick_check")
local trace = tick_check.trace

-- Two rooms 6 x 7 side by side, one door (tiles (5, 3) and (6, 3)) between
-- them, a table in each room away from the door. `left` people start in
-- the left room and `right` in the right one, every one walking to a
-- spot in the other room (none in the doorway or right in front of it:
-- whoever ends a walk there would stand in everybody's way).
local function rooms(flow, left, right, seed)
  local w = world.new { width = 12, height = 7, avoidance = "sidestep", door_flow = flow }
  w:add_wall(6, 0, 6, 7)
  local door = w:add_object { type = "door", x = 5, y = 3, w = 2, h = 1 }
  w:add_object { type = "table", x = 1, y = 0, w = 1, h = 1 }
  w:add_object { type = "table", x = 10, y = 6, w = 1, h = 1 }
  local boxes = { { 1, 0, 2, 1 }, { 10, 6, 11, 7 } }
  local walls = {}
  for r = 0, 6 do
    if r ~= 3 then walls[#walls + 1] = { true, 6, r } end
  end
  local rng = prng.new(seed)
  local spots = {}
  for x = 0, 5 do
    for y = 0, 6 do
      local doorway = (x == 5 and y >= 2 and y <= 4) or (x == 4 and y == 3)
      if not (x == 1 and y == 0) and not (x == 4 and y == 6) and not doorway then
        spots[#spots + 1] = { x, y }
      end
    end
  end
  for k = #spots, 2, -1 do
    local j = rng.int(1, k)
    spots[k], spots[j] = spots[j], spots[k]
  end
  local people, goals = {}, {}
  for side = 0, 1 do
    for k = 1, side == 0 and left or right do
      -- the right room is the left one turned half round
      local s, g = spots[k], spots[#spots - k + 1]
      local sx, sy = s[1] + 0.5, s[2] + 0.5
      local gx, gy = g[1] + 6.5, 6.5 - g[2]
      if side == 1 then sx, sy, gx, gy = 11 - s[1] + 0.5, 6.5 - s[2], 5.5 - g[1], g[2] + 0.5 end
      local p = w:add_person { x = sx, y = sy, speed = 0.2 }
      people[#people + 1] = p
      goals[p.id] = { gx, gy }
    end
  end
  for _, p in ipairs(people) do
    p:route_to(goals[p.id][1], goals[p.id][2], { max_tries = 20 })
  end
  return { w = w, door = door, people = people, goals = goals, walls = walls, boxes = boxes }
end

-- Runs until everybody has a result (or `limit` ticks), checking the
-- invariants each tick (spec/support/house_tick_check.lua). Returns the
-- ticks used, how many arrived (route succeeded, standing within a tile of
-- the goal), and the longest time (ticks) anybody not holding the door
-- stood still on one of its tiles.
local function run(c, limit)
  c.doors = { c.door }
  return tick_check.run_doors(c, limit, function(_, x, y)
    return math.floor(y) == 3 and (math.floor(x) == 5 or math.floor(x) == 6)
  end)
end

describe("door flow (options.door_flow = 'queue')", function()
  it("two groups of 6 crossing one door in opposite directions all arrive within 400 ticks",
    function()
      for _, seed in ipairs({ 77, 5, 31, 8, 13 }) do
        local c = rooms("queue", 6, 6, seed)
        local ticks, arrived, stood = run(c, 400)
        assert.is_true(ticks < 400, ("seed %d: still going after 400 ticks"):format(seed))
        assert.are.equal(12, arrived, ("seed %d"):format(seed))
        -- nobody waiting stood in the doorway: those on the door's tiles
        -- were coming through (and soon off)
        assert.is_true(stood <= 30, ("seed %d: someone stood %d ticks in the doorway")
          :format(seed, stood))
      end
    end)

  it("a crowd of 10 through one door all arrive within 500 ticks", function()
    for _, seed in ipairs({ 77, 5, 8 }) do
      local c = rooms("queue", 10, 0, seed)
      local ticks, arrived = run(c, 500)
      assert.is_true(ticks < 500, "still going after 500 ticks")
      assert.are.equal(10, arrived, ("seed %d"):format(seed))
      for _, p in ipairs(c.people) do
        assert.is_true(p:position() > 6, "person " .. p.id .. " did not cross")
      end
    end
  end)

  it("without the door flow the crossing groups do not all arrive", function()
    local short = 0
    for _, seed in ipairs({ 77, 5, 31, 8, 13 }) do
      local _, arrived = run(rooms(nil, 6, 6, seed), 400)
      if arrived < 12 then short = short + 1 end
    end
    -- measured: not one of the five
    assert.are.equal(5, short)
  end)

  it("identical runs give identical traces, and a saved run goes on as the original",
    function()
      local a, b = rooms("queue", 6, 6, 77), rooms("queue", 6, 6, 77)
      assert.are.equal(prng.hex(trace(a.w, 80)), prng.hex(trace(b.w, 80)))
      local saved = a.w:save()
      assert.are.equal("queue", saved.door_flow)
      local copy = world.load(saved, {})
      assert.are.equal(prng.hex(trace(a.w, 300)), prng.hex(trace(copy, 300)))
      assert.are_not.equal(prng.hex(trace(rooms(nil, 6, 6, 77).w, 380)),
        prng.hex(trace(rooms("queue", 6, 6, 77).w, 380)))
    end)

  it("keeps saves of worlds without door flow as they were", function()
    assert.is_nil(world.new { width = 4, height = 4 }:save().door_flow)
    assert.is_nil(world.new { width = 4, height = 4, door_flow = "none" }:save().door_flow)
  end)

  it("a walk off its leg whose step meets a wall end goes back to the leg and arrives",
    function()
      -- the leg runs along y = 2.5 under a wall x = 4, y 0..2; the person
      -- stands a tile above the leg (where a sidestep may leave it), so its
      -- straight step on to the sub-goal runs into the wall
      local core = require("wayfinder.core")
      local kinds = {}
      for _, mode in ipairs({ "none", "sidestep" }) do
        local wk = core.walker_new(8, 5)
        wk:set_wall(true, 4, 0, true)
        wk:set_wall(true, 4, 1, true)
        wk:add_person(1, 3 * ONE, 3 * ONE / 2, ONE / 4, 13107, 0)
        wk:set_avoidance(mode)
        wk:set_route(1, { 3 * ONE / 2, 5 * ONE / 2, 13 * ONE / 2, 5 * ONE / 2 }, 1)
        for _ = 1, 300 do
          local ev = wk:step()
          if #ev > 0 then
            kinds[mode] = ev[2]
            break
          end
        end
        if mode == "sidestep" then
          local x, y = wk:person(1)
          assert.are.same({ 13 * ONE / 2, 5 * ONE / 2 }, { x, y })
        end
      end
      assert.are.same({ none = 2, sidestep = 1 }, kinds)   -- blocked by the wall / arrived
    end)

  it("rejects bad door flow modes", function()
    for _, bad in ipairs({ "fifo", 1, true, "" }) do
      local ok, msg = pcall(world.new, { width = 4, height = 4, door_flow = bad })
      assert.is_false(ok)
      assert.matches("wayfinder.world.new: options.door_flow must be 'none' or 'queue'",
        msg, 1, true)
    end
  end)
end)
