--- wayfinder.primitives.goto_relative: the Goto Relative primitive. It
-- works out where the frame's stack object (or point) wants the person,
-- plans inside the room when the person is in that part already, or takes a
-- route id, scores the doors and pushes the best door's portal tree, and
-- applies the failed-portal protocol when a portal tree fails. All through
-- the frame context (see docs/behaviors.md).
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")
local options = require("wayfinder.primitives.options")

local M = {}

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"

local ARRIVED = 1

local ONE = fixed.ONE
local STEP = fixed.STEP
local FACING_INDEX = fixed.FACING_INDEX
local facing_of = fixed.facing_of
local SIDES = options.SIDES

-- -------------------------------------------------------------- helpers --

local function bump(stats, reason)
  local f = stats.failures
  f[reason] = (f[reason] or 0) + 1
end

local function release(ctx, st)
  if st.route_id then
    ctx:doors():release(st.route_id, ctx.person)
    st.route_id = nil
  end
end

local function fail(ctx, st, reason, blocker)
  local p = ctx.person
  ctx:stop()
  release(ctx, st)
  ctx:fail(reason, blocker)
  bump(p.stats, reason)
  p.route_counter = 0
  return FAILURE
end

--- Where a goto_relative of this frame should end. Returns a table
-- {x, y, mode, near, parts, object, facing} (fixed point) or nil, reason.
function M.destination(ctx, opt)
  local frame = ctx.frame
  local ph = ctx:extents(ctx.person)
  if frame.point then
    local x, y = frame.point[1], frame.point[2]
    local part = ctx:part_at(x, y)
    if not part then return nil, "no_path" end
    return { x = x, y = y, mode = "point", parts = { [part] = true } }
  end
  local obj = ctx:stack_object()
  if not obj then return nil, "removed" end
  local cx, cy = ctx:center(obj)
  local hw, hh = ctx:extents(obj)
  local side = opt.side
  if side == "portal" then
    if not obj.door then
      error(("goto_relative: side 'portal' needs a door as stack object, object %d is a '%s'")
        :format(obj.id, obj.type), 0)
    end
    local part = ctx:part_at(ctx:position())
    local a = { obj.tiles[1], obj.tiles[2] }
    local b = { obj.tiles[3], obj.tiles[4] }
    local pa = ctx:tile_part(a[1], a[2])
    local pb = ctx:tile_part(b[1], b[2])
    local here, there
    if part and part == pa then
      here, there = a, b
    elseif part and part == pb then
      here, there = b, a
    else
      return nil, "no_path"
    end
    local x, y = here[1] * ONE + idiv(ONE, 2), here[2] * ONE + idiv(ONE, 2)
    if opt.distance > 0 then
      -- approach: anywhere within `distance` of the door's tile
      return { x = x, y = y, mode = "near", near = opt.distance, parts = { [part] = true },
        object = obj.id }
    end
    return { x = x, y = y, mode = "point", parts = { [part] = true }, object = obj.id,
      facing = facing_of(there[1] - here[1], there[2] - here[2]) }
  end
  if side == "near" then
    local near = math.max(hw, hh) + ph + opt.distance
    local parts = ctx:parts_near(obj, cx, cy, near)
    if not next(parts) then return nil, "no_path" end
    return { x = cx, y = cy, mode = "near", near = near, parts = parts, object = obj.id }
  end
  local s = STEP[(obj.facing + SIDES[side]) % 8]
  local x = cx + s[1] * (hw + ph + opt.distance)
  local y = cy + s[2] * (hh + ph + opt.distance)
  if not ctx:inside(x, y) then return nil, "no_path" end
  local part = ctx:part_at(x, y)
  if not part then return nil, "no_path" end
  return { x = x, y = y, mode = "point", parts = { [part] = true }, object = obj.id }
end

local function final_facing(ctx, opt, dest)
  if dest and dest.facing then return dest.facing end
  local f = opt.facing
  if not f then return nil end
  if FACING_INDEX[f] then return FACING_INDEX[f] end
  local obj = ctx:stack_object()
  if not obj then return nil end
  if f == "same" then return obj.facing end
  local x, y = ctx:position()
  local cx, cy = ctx:center(obj)
  local toward = facing_of(cx - x, cy - y)
  if not toward then return nil end
  if f == "toward" then return toward end
  return (toward + 4) % 8
end

local function succeed(ctx, st, opt)
  local p = ctx.person
  local dest = st.facing and { facing = st.facing } or nil
  local f = final_facing(ctx, opt, dest)
  if f then ctx:turn(f) end
  release(ctx, st)
  p.stats.routes = p.stats.routes + 1
  return SUCCESS
end



local goto_relative = M

--- With door queues (world option door_flow = "queue"): rounds a route
-- tries its doors again once every door of its part has failed, and the
-- ticks it waits before each round.
M.DOOR_ROUNDS = 12
M.DOOR_PAUSE = 5
-- The reasons of a portal tree that failed in a crowd (its door is not
-- lost to the route for good).
local CROWDED = { busy = true, out_of_tries = true, blocked = true }

local function route(ctx, opt, st)
  local p = ctx.person
  local dest, why = M.destination(ctx, opt)
  if not dest then return fail(ctx, st, why) end
  st.facing = dest.facing
  local x, y = ctx:position()
  local part = ctx:part_at(x, y)
  if part and dest.parts[part] then
    release(ctx, st)
    if st.tries <= 0 then return fail(ctx, st, "out_of_tries", st.blocker) end
    st.tries = st.tries - 1
    p.route_counter = st.tries
    local points, reason = ctx:plan(dest, st.ignore)
    if not points then
      if reason == "no_path" then return fail(ctx, st, "no_path") end
      -- blocked by people only: give them time to move, then try again
      -- without the people standing near the destination
      st.ignore = true
      st.blocker = nil
      st.phase = "stall"
      st.stall = ctx:option("crowd_stall")
      return RUNNING
    end
    if #points <= 2 then return succeed(ctx, st, opt) end
    ctx:walk(points)
    st.phase = "walk"
    return RUNNING
  end
  if not part then return fail(ctx, st, "no_path") end
  local graph = ctx:doors()
  if not st.route_id then
    local rid = graph:acquire(p)
    if not rid then
      st.phase = "wait_id"
      p.stats.waits = p.stats.waits + 1
      return RUNNING
    end
    st.route_id = rid
    st.key = nil
  end
  local key = ctx:topology_version() .. ":" .. dest.x .. ":" .. dest.y .. ":" .. #st.failed
  if st.key ~= key then
    graph:compute(st.route_id, dest.x, dest.y, dest.parts, nil, st.failed)
    st.key = key
  end
  st.portals = st.portals + 1
  if st.portals > 2 * graph:count() + 4 then return fail(ctx, st, "out_of_tries") end
  local door = graph:best(st.route_id, part, x, y)
  if not door and st.crowded and ctx:door_flow() == "queue"
      and (st.rounds or 0) < M.DOOR_ROUNDS then
    -- with door queues a door that failed in a crowd (its wait ran out,
    -- or its walks were blocked) is usually free again soon: wait, then
    -- try every door again (a bounded number of rounds)
    st.rounds = (st.rounds or 0) + 1
    st.failed = {}
    st.crowded = nil
    st.portals = 0
    release(ctx, st)
    st.phase = "stall"
    st.stall = M.DOOR_PAUSE
    return RUNNING
  end
  if not door then return fail(ctx, st, "no_door") end
  st.door = door.id
  st.phase = "portal"
  p.trap_count = 0
  p.failed_portal = nil
  p.stats.portals = p.stats.portals + 1
  ctx:push(door.portal_tree, door.id, door.id)
  return RUNNING
end

function goto_relative.run(ctx, opt)
  local st, p = ctx.state, ctx.person
  local frame = ctx.frame
  if not st.phase then
    st.phase = "start"
    st.tries = (frame.point and frame.args and frame.args.max_tries) or opt.max_tries
    st.ignore = false
    st.failed = {}
    st.portals = 0
    p.route_counter = st.tries
  end
  local phase = st.phase
  if phase == "portal" then
    local child = ctx:take_child()
    if not child then return RUNNING end
    if child.status ~= SUCCESS then
      if child.reason == "portal_error" or child.reason == "error" then
        return fail(ctx, st, "portal_error", st.door)
      end
      local failed = p.failed_portal
      if not failed and p.trap_count < 0 then failed = -p.trap_count end
      failed = failed or st.door
      p.failed_portal = nil
      p.trap_count = 0
      -- the protocol: that door's score becomes 0 for this route id; the
      -- best-first scoring also routes round it when it scores again below
      st.failed[#st.failed + 1] = failed
      if CROWDED[child.reason] then st.crowded = true end
      ctx:doors():zero(st.route_id, failed)
      p.stats.portal_failures = p.stats.portal_failures + 1
    end
    st.door = nil
    st.phase = "start"
  elseif phase == "walk" then
    local kind, blocker = ctx:walk_event()
    if not kind then
      -- woken without news from the walk: is the stack object still there?
      if frame.object and not ctx:lookup(frame.object) then
        return fail(ctx, st, "removed")
      end
      return RUNNING
    end
    if kind == ARRIVED then return succeed(ctx, st, opt) end
    st.blocker = blocker ~= 0 and blocker or nil
    local other = st.blocker and ctx:lookup(st.blocker)
    local stall = ctx:option("goto_stall")
    if other and other.person and stall > 0 then
      -- people in the way usually walk on: stall before planning again
      st.phase = "stall"
      st.stall = stall
      return RUNNING
    end
    st.phase = "start"
  elseif phase == "stall" then
    st.stall = st.stall - 1
    if st.stall > 0 then return RUNNING end
    st.stall = nil
    st.phase = "start"
  else
    -- "start" or "wait_id"
    st.phase = "start"
  end
  return route(ctx, opt, st)
end

function goto_relative.suspend(ctx)
  local st = ctx.state
  if st.phase == "walk" then
    ctx:stop()
    st.phase = "start"
    st.tries = st.tries + 1 -- the interrupted walk does not count as a try
  end
end

function goto_relative.halt(ctx)
  local st, p = ctx.state, ctx.person
  if st.phase == "walk" then ctx:stop() end
  release(ctx, st)
  ctx:fail("interrupted")
  bump(p.stats, "interrupted")
end

return M
