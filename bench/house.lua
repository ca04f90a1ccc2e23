-- House world benchmark: 200 people routing between random objects in a
-- 64-room house for 10,000 ticks. Prints ticks per second, the share of
-- time spent in the one C call that moves everybody, routes completed and
-- failures by reason; then door scoring on the same house with the
-- best-first propagation beside the reference's recursion.
--
--   lua5.4 bench/house.lua [ticks] [people]      (from the repository root)

local root = (arg and arg[0] or ""):match("^(.-)[^/\\]*$") .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local house = require("wayfinder.house")
local bt = require("wayfinder.bt")

local TICKS = math.tointeger(tonumber(arg and arg[1] or "")) or 10000
local PEOPLE = math.tointeger(tonumber(arg and arg[2] or "")) or 200

local w, info = house.generate { rooms_x = 8, rooms_y = 8, room_w = 7, room_h = 7,
  extra_doors = 50, furniture = 2, exterior_doors = 4, exterior_penalty = 20, seed = 1,
  world = { route_ids = 256 } }
local targets = {}
for k, o in ipairs(info.furniture) do targets[k] = o.id end

-- ------------------------------------------------------------ the crowd --

-- Each person picks a piece of furniture with its own generator (plain data
-- in person.data), walks up to it, stays 3 ticks, and picks again; visits
-- are counted, failed ones by reason.
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

local rng = house.rng(99)
local placed = 0
while placed < PEOPLE do
  local r = info.rooms[rng(#info.rooms)]
  local x = r[1] + rng(r[3] - r[1] + 1) - 0.5
  local y = r[2] + rng(r[4] - r[2] + 1) - 0.5
  if w.house:square_free(math.floor(x * 65536), math.floor(y * 65536), 16384, 0) then
    placed = placed + 1
    local p = w:add_person { x = x, y = y, speed = 0.2,
      data = { seed = placed * 7919, ok = 0, failed = {} } }
    p:push("wander")
  end
end

-- time the C step apart: the world calls its core through this proxy
local core_house = w.house
local step_time = 0
local proxy = {}
for name, fn in pairs(getmetatable(core_house).__index) do
  proxy[name] = function(_, ...) return fn(core_house, ...) end
end
function proxy.step()
  local t = os.clock()
  local ev = core_house:step()
  step_time = step_time + (os.clock() - t)
  return ev
end
w.house = proxy

local t0 = os.clock()
w:tick(TICKS)
local elapsed = os.clock() - t0
w.house = core_house

local ok, failures, failed = 0, {}, 0
local portals, portal_failures, waits, errors = 0, 0, 0, 0
for _, p in ipairs(w:people()) do
  ok = ok + p.data.ok
  for reason, n in pairs(p.data.failed) do
    failures[reason] = (failures[reason] or 0) + n
    failed = failed + n
  end
  portals = portals + p.stats.portals
  portal_failures = portal_failures + p.stats.portal_failures
  waits = waits + p.stats.waits
  errors = errors + p.stats.errors
end

local rooms = w:room_count()
print(("house: %dx%d tiles, %d rooms (64 and the outdoors), %d doors, %d pieces of "
  .. "furniture, %d people"):format(w.width, w.height, rooms, #w:doors(), #info.furniture,
  #w:people()))
print(("crowd: %d ticks in %.2f s CPU: %.0f ticks/s (%.0f person-ticks/s); the one C call "
  .. "per tick that moves everybody takes %.1f%% of it"):format(TICKS, elapsed,
  TICKS / elapsed, TICKS * #w:people() / elapsed, 100 * step_time / elapsed))
print(("routes: %d completed, %d failed (%.1f%%); %d portal trees pushed, %d failed; "
  .. "%d ticks waiting for a route id; %d errors"):format(ok, failed,
  100 * failed / math.max(1, ok + failed), portals, portal_failures, waits, errors))
local reasons = {}
for reason in pairs(failures) do reasons[#reasons + 1] = reason end
table.sort(reasons)
for _, reason in ipairs(reasons) do
  print(("  failed with %-14s %6d"):format(reason, failures[reason]))
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
