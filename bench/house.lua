-- House world benchmark: 200 people routing between random objects in a
-- 64-room house for 10,000 ticks, once with the rectangle planner (the
-- default) and once with the grid planner, side by side. Prints ticks per
-- second, the share of time spent in the one C call that moves everybody
-- and in planning, routes completed and failures by reason; then door
-- scoring on the same house with the best-first propagation beside the
-- reference's recursion.
--
--   lua5.4 bench/house.lua [ticks] [people] [avoidance] [door_flow] [seed]
--   (from the repository root)
--
-- avoidance is the worlds' options.avoidance: "sidestep" (the default
-- here) or "none" (people drop a walk at their first refused step);
-- door_flow the worlds' options.door_flow: "queue" (the default here:
-- people told to wait for a door step out of its doorway, and wait while
-- the queue moves) or "none". seed (default 99) places the people and
-- seeds their choices: the crowd is chaotic, so a change is best judged
-- over several seeds (docs/house-bench.md).
local root = (arg and arg[0] or ""):match("^(.-)[^/\\]*$") .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. root .. "spec/?.lua;"
  .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath
local compat = require("wayfinder.compat")

-- the specs' seeded house generator: one copy, in spec/support
local house = require("support.house_gen")
local bt = require("wayfinder.bt")

local TICKS = compat.tointeger(tonumber(arg and arg[1] or "")) or 10000
local PEOPLE = compat.tointeger(tonumber(arg and arg[2] or "")) or 200
local AVOIDANCE = arg and arg[3] or "sidestep"
local DOOR_FLOW = arg and arg[4] or "queue"
local SEED = compat.tointeger(tonumber(arg and arg[5] or "")) or 99

local rectplan = require("wayfinder.rectplan")
local gridplan = require("wayfinder.gridplan")

local function make_house(planner)
  return house.generate { rooms_x = 8, rooms_y = 8, room_w = 7, room_h = 7,
    extra_doors = 50, furniture = 2, exterior_doors = 4, exterior_penalty = 20, seed = 1,
    world = { route_ids = 256, planner = planner, avoidance = AVOIDANCE,
      door_flow = DOOR_FLOW } }
end

-- ------------------------------------------------------------ the crowd --

-- Each person picks a piece of furniture with its own generator (plain data
-- in person.data), walks up to it, stays 3 ticks, and picks again; visits
-- are counted, failed ones by reason.
local function add_trees(w, targets)
  w:add_tree("visit", bt.sequence {
    bt.goto_relative { side = "near", distance = 0.25, max_tries = 5 },
    bt.wait(3),
  })
  w:add_tree("wander", bt.loop(bt.sequence {
    bt.action(function(ctx)
      local d = ctx.data
      d.seed = (d.seed * 1103515245 + 12345) % 2147483648
      d.target = targets[d.seed % #targets + 1]
      return true
    end),
    bt.selector {
      bt.sequence {
        bt.subtree("visit", function(ctx) return ctx.data.target end),
        bt.action(function(ctx)
          ctx.data.ok = ctx.data.ok + 1
          return true
        end),
      },
      bt.action(function(ctx)
        local reason = ctx.person:last_failure() or "?"
        ctx.data.failed[reason] = (ctx.data.failed[reason] or 0) + 1
        return true
      end),
    },
  }))
end

-- The same crowd in the same house, planned by `planner`: returns what it
-- measured and the world.
local function crowd(planner)
  local w, info = make_house(planner)
  local targets = {}
  for k, o in ipairs(info.furniture) do targets[k] = o.id end
  add_trees(w, targets)
  local rng = house.rng(SEED)
  local placed = 0
  while placed < PEOPLE do
    local r = info.rooms[rng(#info.rooms)]
    local x = r[1] + rng(r[3] - r[1] + 1) - 0.5
    local y = r[2] + rng(r[4] - r[2] + 1) - 0.5
    if w.walker:square_free(math.floor(x * 65536), math.floor(y * 65536), 16384, 0) then
      placed = placed + 1
      local p = w:add_person { x = x, y = y, speed = 0.2,
        data = { seed = placed * 7919 + SEED - 99, ok = 0, failed = {} } }
      p:push("wander")
    end
  end

  -- time the C step and the planner apart: the world calls its walker
  -- through this proxy, and its planner through the wrapper below
  local core_house = w.walker
  local step_time, plan_time, plans = 0, 0, 0
  -- walks that ended: arrived, or stopped by a person, a wall (or the
  -- border, or a closed door) or a piece of furniture
  local ends = { arrived = 0, person = 0, wall = 0, object = 0 }
  local proxy = {}
  for name, fn in pairs(getmetatable(core_house).__index) do
    proxy[name] = function(_, ...) return fn(core_house, ...) end
  end
  function proxy.step()
    local t = os.clock()
    local ev = core_house:step()
    step_time = step_time + (os.clock() - t)
    for i = 1, #ev, 3 do
      local kind, blocker = ev[i + 1], ev[i + 2]
      local o = blocker ~= 0 and w:object(blocker)
      local k = kind == 1 and "arrived" or not o and "wall"
        or (o.person and "person" or o.door and "wall" or "object")
      ends[k] = ends[k] + 1
    end
    return ev
  end
  w.walker = proxy
  local plan = w.planner
  w.planner = function(room, query)
    local t = os.clock()
    local a, b = plan(room, query)
    plan_time = plan_time + (os.clock() - t)
    plans = plans + 1
    return a, b
  end

  local t0 = os.clock()
  w:tick(TICKS)
  local elapsed = os.clock() - t0
  w.walker = core_house
  w.planner = plan

  local r = { elapsed = elapsed, step = step_time, plan = plan_time, plans = plans, ok = 0,
    failed = 0, failures = {}, portals = 0, portal_failures = 0, waits = 0, errors = 0,
    furniture = #info.furniture, ends = ends }
  for _, p in ipairs(w:people()) do
    r.ok = r.ok + p.data.ok
    for reason, n in pairs(p.data.failed) do
      r.failures[reason] = (r.failures[reason] or 0) + n
      r.failed = r.failed + n
    end
    local stats = p:state().stats
    r.portals = r.portals + stats.portals
    r.portal_failures = r.portal_failures + stats.portal_failures
    r.waits = r.waits + stats.waits
    r.errors = r.errors + stats.errors
  end
  return r, w
end

local runs = {
  { name = "rectangle planner (default)", result = nil, planner = rectplan.plan },
  { name = "grid planner", result = nil, planner = gridplan.plan },
}
local w
for _, run in ipairs(runs) do
  local world
  run.result, world = crowd(run.planner)
  w = w or world
end

print(("house: %dx%d tiles, %d rooms (64 and the outdoors), %d doors, %d pieces of "
  .. "furniture, %d people, %d ticks, avoidance %s, door flow %s, seed %d"):format(w.width,
  w.height, w:room_count(), #w:doors(), runs[1].result.furniture, #w:people(), TICKS,
  AVOIDANCE, DOOR_FLOW, SEED))
for _, run in ipairs(runs) do
  local r = run.result
  print(("crowd, %s: %.2f s CPU: %.0f ticks/s (%.0f person-ticks/s); the one C call per "
    .. "tick that moves everybody takes %.1f%% of it; %d planning calls, %.1f us each "
    .. "(%.1f%% of the time)"):format(run.name, r.elapsed, TICKS / r.elapsed,
    TICKS * PEOPLE / r.elapsed, 100 * r.step / r.elapsed, r.plans,
    1e6 * r.plan / math.max(1, r.plans), 100 * r.plan / r.elapsed))
  print(("  routes: %d completed, %d failed (%.1f%%); %d portal trees pushed, %d failed; "
    .. "%d ticks waiting for a route id; %d errors"):format(r.ok, r.failed,
    100 * r.failed / math.max(1, r.ok + r.failed), r.portals, r.portal_failures, r.waits,
    r.errors))
  print(("  walks: %d arrived; stopped by a person %d, by a wall or door %d, by furniture %d")
    :format(r.ends.arrived, r.ends.person, r.ends.wall, r.ends.object))
  local reasons = {}
  for reason in pairs(r.failures) do reasons[#reasons + 1] = reason end
  table.sort(reasons)
  for _, reason in ipairs(reasons) do
    print(("    failed with %-14s %6d"):format(reason, r.failures[reason]))
  end
end

-- ---------------------------------------------------------- door scoring --

-- The same goals scored by both propagations: same scores, different work.
-- The reference knows no penalties, so the exterior doors lose theirs here.
for _, d in ipairs(w:doors()) do w:set_penalty(d.id, 0) end
local goals = {}
local grng = house.rng(7)
while #goals < 100 do
  local x, y = grng(w.width) - 0.5, grng(w.height) - 0.5
  if w:part_at(x, y) then goals[#goals + 1] = { x, y } end
end
local results = {}
for _, prop in ipairs({ "best_first", "recursive" }) do
  local visits, t = 0, os.clock()
  local sum = 0
  for _, g in ipairs(goals) do
    local scores, v = w:door_scores(g[1], g[2], { propagation = prop })
    visits = visits + v
    for _, s in pairs(scores) do sum = sum + s end
  end
  results[prop] = { time = os.clock() - t, visits = visits, sum = sum }
end
local a, b = results.best_first, results.recursive
print(("door scoring, %d goals, %d doors:"):format(#goals, #w:doors()))
print(("  best_first (default)  %8.1f ms  %9d door visits  %.3f ms per route"):format(
  a.time * 1000, a.visits, a.time * 1000 / #goals))
print(("  recursive (reference) %8.1f ms  %9d door visits  %.3f ms per route"):format(
  b.time * 1000, b.visits, b.time * 1000 / #goals))
print(("  same scores: %s; the recursion makes %.1fx the visits and takes %.1fx the time")
  :format(a.sum == b.sum and "yes" or "NO", b.visits / a.visits, b.time / a.time))
