--- wayfinder.primitives: the movement primitives behind the behavior nodes
-- bt.goto_relative, bt.delta_move, bt.reserve_portal and bt.fail_portal.
-- Each keeps its whole progress in the plain table ctx.state (saved with
-- the world); the world moves people in C and wakes a primitive when its
-- walk ends or is blocked. Primitives reach the world only through the
-- frame context's methods (ctx:position, ctx:plan, ctx:walk, ctx:doors,
-- ...; see docs/behaviors.md) and read their timing from the world's
-- options (goto_stall, crowd_stall, delta_stall, portal_turn).
local fixed = require("wayfinder.fixed")

local M = {}

local SUCCESS <const> = "success"
local FAILURE <const> = "failure"
local RUNNING <const> = "running"

local ARRIVED <const> = 1

local ONE <const> = fixed.ONE
local UNIT, STEP = fixed.UNIT, fixed.STEP
local FACING_INDEX = fixed.FACING_INDEX
local facing_of = fixed.facing_of

--- Sides of an object, as offsets added to its facing (clockwise, y down).
M.SIDES = { front = 0, front_right = 1, right = 2, back_right = 3, back = 4,
  back_left = 5, left = 6, front_left = 7 }
--- Special sides: anywhere near the object; the door's tile in the
-- person's room (doors only).
M.SPECIAL_SIDES = { near = true, portal = true }

M.DEFAULT_TRIES = 5
M.MAX_TRIES = 1000
M.MAX_DISTANCE = 1024

local describe = require("wayfinder.util").describe

local function side_names()
  local names = {}
  for k in pairs(M.SIDES) do names[#names + 1] = k end
  names[#names + 1] = "near"
  names[#names + 1] = "portal"
  table.sort(names)
  return table.concat(names, ", ")
end

local GOTO_KEYS = { side = true, distance = true, max_tries = true, facing = true }
local FINAL_FACINGS = { toward = true, away = true, same = true }

local function check_distance(fname, v, level, positive)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    error(("%s: distance must be a finite number, got %s"):format(fname, describe(v)), level)
  end
  if v < 0 or (positive and v == 0) or v > M.MAX_DISTANCE then
    error(("%s: distance must be in %s0, %d], got %s"):format(
      fname, positive and "(" or "[", M.MAX_DISTANCE, describe(v)), level)
  end
  return fixed.from_number(v)
end

--- Validates goto_relative options; returns the stored (fixed point) form.
function M.check_goto(fname, options, level)
  level = level + 1
  if options == nil then options = {} end
  if type(options) ~= "table" then
    error(fname .. ": options must be a table, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if not GOTO_KEYS[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  local side = options.side or "near"
  if type(side) ~= "string" or not (M.SIDES[side] or M.SPECIAL_SIDES[side]) then
    error(("%s: side must be one of %s, got %s"):format(fname, side_names(), describe(side)),
      level)
  end
  local distance = 0
  if options.distance ~= nil then
    distance = check_distance(fname, options.distance, level + 1, false)
  end
  local tries = M.DEFAULT_TRIES
  if options.max_tries ~= nil then
    local t = options.max_tries
    if math.type(t) == "float" and t == math.floor(t) then t = math.tointeger(t) end
    if math.type(t) ~= "integer" or t < 1 or t > M.MAX_TRIES then
      error(("%s: max_tries must be an integer in [1, %d], got %s"):format(
        fname, M.MAX_TRIES, describe(options.max_tries)), level)
    end
    tries = t
  end
  local facing = options.facing
  if facing ~= nil and not (FINAL_FACINGS[facing] or FACING_INDEX[facing]) then
    error(("%s: facing must be 'toward', 'away', 'same' or a direction "
      .. "('east', 'southeast', ...), got %s"):format(fname, describe(facing)), level)
  end
  return { side = side, distance = distance, max_tries = tries, facing = facing }
end

local DELTA_KEYS = { distance = true }

--- Validates delta_move options.
function M.check_delta(fname, options, level)
  level = level + 1
  if type(options) ~= "table" then
    error(fname .. ": options must be a table {distance =}, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if not DELTA_KEYS[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  return { distance = check_distance(fname, options.distance, level + 1, true) }
end

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
    local x, y = here[1] * ONE + ONE // 2, here[2] * ONE + ONE // 2
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
  local s = STEP[(obj.facing + M.SIDES[side]) % 8]
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

-- ------------------------------------------------------------ goto_relative

local goto_relative = {}
M.goto_relative = goto_relative

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

-- ---------------------------------------------------------------- delta_move

local delta_move = {}
M.delta_move = delta_move

local function start_delta(ctx, st)
  local x, y = ctx:position()
  if not ctx:inside(st.ex, st.ey) then
    ctx:fail("blocked", nil)
    return FAILURE
  end
  ctx:walk({ x, y, st.ex, st.ey })
  st.phase = "walk"
  return RUNNING
end

function delta_move.run(ctx, opt)
  local st = ctx.state
  if not st.phase then
    local x, y, f = ctx:position()
    local u = UNIT[f]
    st.ex = x + (u[1] * opt.distance + ONE // 2) // ONE
    st.ey = y + (u[2] * opt.distance + ONE // 2) // ONE
    st.stalls = 0
    return start_delta(ctx, st)
  end
  if st.phase == "resume" then return start_delta(ctx, st) end
  local kind, blocker = ctx:walk_event()
  if not kind then return RUNNING end
  if kind == ARRIVED then return SUCCESS end
  local other = blocker ~= 0 and ctx:lookup(blocker)
  if other and other.person and st.stalls < ctx:option("delta_stall") then
    -- a person in the way usually walks on: stall a tick, then go on
    st.stalls = st.stalls + 1
    st.phase = "resume"
    return RUNNING
  end
  ctx:fail("blocked", blocker ~= 0 and blocker or nil)
  return FAILURE
end

function delta_move.suspend(ctx)
  local st = ctx.state
  if st.phase == "walk" then
    ctx:stop()
    st.phase = "resume"
  end
end

function delta_move.halt(ctx)
  if ctx.state.phase == "walk" then ctx:stop() end
  ctx:fail("interrupted")
end

-- ------------------------------------------------------------ reserve_portal

local reserve_portal = {}
M.reserve_portal = reserve_portal

local function portal_of(ctx, what)
  local id = ctx.frame.object
  if not id then
    error(what .. ": the frame has no stack object", 0)
  end
  local obj = ctx:lookup(id)
  if obj and not obj.door then
    error(("%s: stack object %d is a '%s', not a door"):format(what, id, obj.type), 0)
  end
  return id, obj
end

--- Validates reserve_portal options.
function M.check_reserve(fname, options, level)
  level = level + 1
  if options == nil then options = {} end
  if type(options) ~= "table" then
    error(fname .. ": options must be a table {ticks =}, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if k ~= "ticks" then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  local t = options.ticks == nil and 60 or options.ticks
  if math.type(t) == "float" and t == math.floor(t) then t = math.tointeger(t) end
  if math.type(t) ~= "integer" or t < 0 or t > 1000000 then
    error(("%s: ticks must be an integer in [0, 1000000], got %s"):format(fname,
      describe(options.ticks)), level)
  end
  return { ticks = t }
end

-- One direction at a time through the door (the world's reservations,
-- docs/behaviors.md): held at once, or after waiting at most opt.ticks.
function reserve_portal.run(ctx, opt)
  local st = ctx.state
  local _, door = portal_of(ctx, "reserve_portal")
  if not door then
    ctx:fail("removed")
    return FAILURE
  end
  if ctx:reserve_portal(door) then return SUCCESS end
  st.waited = (st.waited or 0) + 1
  if st.waited > opt.ticks then
    ctx:fail("busy", ctx:give_up_portal(door))
    return FAILURE
  end
  return RUNNING
end

-- --------------------------------------------------------------- fail_portal

local fail_portal = {}
M.fail_portal = fail_portal

function fail_portal.run(ctx)
  local id = portal_of(ctx, "fail_portal")
  ctx.person.trap_count = -id
  ctx.person.failed_portal = id
  return FAILURE
end

return M
