--- wayfinder.primitives.explore: the Explore and Goto Known primitives. A
-- person learns the house a part at a time: standing in a part it sees
-- the parts behind that part's open doors. What it has seen is kept in
-- ctx.data.known_parts (a sorted list of part numbers, plain data, saved
-- with the world). Each decision builds a wayfinder.explore agent over the
-- door graph (parts as nodes, open doors as edges of cost 1), teaches it
-- those parts, and moves one door along the agent's route table, which
-- holds only doors between parts seen: so a person never routes through a
-- part it has not seen. Explore walks to the nearest seen part that still
-- has unseen neighbours until there is none; Goto Known walks to the
-- frame's stack object (as Goto Relative) over the seen parts only, Goto
-- Relative doing the last leg inside the room. All through the frame
-- context (see docs/behaviors.md).
local explore = require("wayfinder.explore")
local goto_relative = require("wayfinder.primitives.goto_relative")
local options = require("wayfinder.primitives.options")
local describe = require("wayfinder.util").describe
local compat = require("wayfinder.compat")

local M = {}

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"

local MAX_PARTS = 2048

--- Validates explore options ({max_tries =}); returns the stored form.
function M.check_explore(fname, opts, level)
  level = level + 1
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    error(fname .. ": options must be a table {max_tries =}, got " .. describe(opts), level)
  end
  for k in pairs(opts) do
    if k ~= "max_tries" then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  local t = opts.max_tries == nil and options.DEFAULT_TRIES or opts.max_tries
  if compat.type(t) == "float" and t == math.floor(t) then t = compat.tointeger(t) end
  if compat.type(t) ~= "integer" or t < 1 or t > options.MAX_TRIES then
    error(("%s: max_tries must be an integer in [1, %d], got %s"):format(fname,
      options.MAX_TRIES, describe(opts.max_tries)), level)
  end
  return { max_tries = t }
end

-- The open doors (active, not locked, not failed in this node) as edges
-- between parts, in door-list order; the highest part number seen.
local function door_edges(ctx, failed, top)
  local edges, door_of = {}, {}
  for _, d in ipairs(ctx:doors():doors()) do
    if d.active and not d.locked and not failed[d.id] then
      local a, b = d.part_a, d.part_b
      edges[#edges + 1] = { a, b, 1 }
      door_of[#edges] = d
      if a > top then top = a end
      if b > top then top = b end
    end
  end
  return edges, door_of, top
end

-- An explorer standing in `part` that knows what the person has seen,
-- having looked round; the person's list is brought up to date. Returns
-- the agent and the door list (edge id -> door), or nil when the house has
-- too many parts.
local function agent_for(ctx, st, part, extra)
  local failed = {}
  for _, id in ipairs(st.failed) do failed[id] = true end
  local known = ctx.data.known_parts
  if type(known) ~= "table" then known = {} end
  local top = math.max(part, extra or 0)
  for _, v in ipairs(known) do
    if type(v) == "number" and v > top then top = v end
  end
  local edges, door_of, n = door_edges(ctx, failed, top)
  if n > MAX_PARTS then return nil end
  local list = {}
  for _, v in ipairs(known) do
    if type(v) == "number" and v >= 1 and v == math.floor(v) then list[#list + 1] = v end
  end
  local agent = explore.new { nodes = n, edges = edges, start = part, known = list }
  ctx.data.known_parts = agent:known_nodes()
  return agent, door_of
end

-- The first open door, in door-list order, between parts a and b.
local function door_between(door_of, a, b)
  for i = 1, #door_of do
    local d = door_of[i]
    if (d.part_a == a and d.part_b == b) or (d.part_a == b and d.part_b == a) then return d end
  end
  return nil
end

local function fail(ctx, reason, blocker)
  ctx:fail(reason, blocker)
  local f = ctx.person.stats.failures
  f[reason] = (f[reason] or 0) + 1
  return FAILURE
end

-- Starts crossing door d toward the next part on the route.
local function cross(ctx, st, d)
  local p = ctx.person
  st.portals = st.portals + 1
  if st.portals > st.max_portals then return fail(ctx, "out_of_tries") end
  st.door = d.id
  st.phase = "portal"
  p.trap_count = 0
  p.failed_portal = nil
  p.stats.portals = p.stats.portals + 1
  ctx:push(d.portal_tree, d.id, d.id)
  return RUNNING
end

-- After the portal frame popped: a failed door is left out from now on
-- (the failed-portal protocol names it); too many failures end the node.
local function portal_done(ctx, st, opt)
  local child = ctx:take_child()
  if not child then return RUNNING end
  local p = ctx.person
  if child.status ~= SUCCESS then
    if child.reason == "portal_error" or child.reason == "error" then
      return fail(ctx, "portal_error", st.door)
    end
    local failed = p.failed_portal
    if not failed and p.trap_count < 0 then failed = -p.trap_count end
    failed = failed or st.door
    p.failed_portal = nil
    p.trap_count = 0
    st.failed[#st.failed + 1] = failed
    p.stats.portal_failures = p.stats.portal_failures + 1
    st.failures = st.failures + 1
    if st.failures >= opt.max_tries then return fail(ctx, "out_of_tries", failed) end
  end
  st.door = nil
  st.phase = "start"
  return nil
end

local function setup(ctx, st)
  if st.phase then return end
  st.phase = "start"
  st.failed = {}
  st.failures = 0
  st.portals = 0
  local n = ctx:doors():count() + 2
  st.max_portals = 4 * n * n + 16
end

-- ------------------------------------------------------------ explore --

local explore_node = {}
M.explore = explore_node

function explore_node.run(ctx, opt)
  local st = ctx.state
  setup(ctx, st)
  if st.phase == "portal" then
    local r = portal_done(ctx, st, opt)
    if r then return r end
  end
  local part = ctx:part_at(ctx:position())
  if not part then return fail(ctx, "no_path") end
  local agent, door_of = agent_for(ctx, st, part)
  if not agent then return fail(ctx, "too_many_parts") end
  local target = agent:frontier()
  if not target then
    -- nothing seen has an unseen neighbour this person can reach
    ctx.person.stats.routes = ctx.person.stats.routes + 1
    return SUCCESS
  end
  local nxt = agent:next_hop(target)
  return cross(ctx, st, door_between(door_of, part, nxt))
end

function explore_node.halt(ctx)
  ctx:fail("interrupted")
  local f = ctx.person.stats.failures
  f.interrupted = (f.interrupted or 0) + 1
end

-- --------------------------------------------------------- goto_known --

local goto_known = {}
M.goto_known = goto_known

-- Runs Goto Relative for the last leg with its own state table.
local function last_leg(ctx, st, opt, fn)
  local outer = ctx.state
  st.inner = st.inner or {}
  ctx.state = st.inner
  local r = fn(ctx, opt)
  ctx.state = outer
  return r
end

function goto_known.run(ctx, opt)
  local st = ctx.state
  setup(ctx, st)
  if st.phase == "last" then return last_leg(ctx, st, opt, goto_relative.run) end
  if st.phase == "portal" then
    local r = portal_done(ctx, st, opt)
    if r then return r end
  end
  local dest, why = goto_relative.destination(ctx, opt)
  if not dest then return fail(ctx, why) end
  local part = ctx:part_at(ctx:position())
  if not part then return fail(ctx, "no_path") end
  local top = 0
  local goals = {}
  for g in pairs(dest.parts) do goals[#goals + 1] = g end
  table.sort(goals)
  for _, g in ipairs(goals) do if g > top then top = g end end
  local agent, door_of = agent_for(ctx, st, part, top)
  if not agent then return fail(ctx, "too_many_parts") end
  if dest.parts[part] then
    st.phase = "last"
    return last_leg(ctx, st, opt, goto_relative.run)
  end
  -- the nearest seen part of the destination, by the person's own table
  local best, best_cost
  local seen = false
  for _, g in ipairs(goals) do
    if agent:known(g) then
      seen = true
      local d = agent:distance(g)
      if d and (best_cost == nil or d < best_cost) then best, best_cost = g, d end
    end
  end
  if not best then return fail(ctx, seen and "no_known_route" or "unknown") end
  return cross(ctx, st, door_between(door_of, part, agent:next_hop(best)))
end

function goto_known.suspend(ctx)
  local st = ctx.state
  if st.phase == "last" then last_leg(ctx, st, nil, goto_relative.suspend) end
end

function goto_known.halt(ctx)
  local st = ctx.state
  if st.phase == "last" then
    last_leg(ctx, st, nil, goto_relative.halt)
    return
  end
  explore_node.halt(ctx)
end

return M
