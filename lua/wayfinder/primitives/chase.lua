--- wayfinder.primitives.chase: what follow, escort, flee_from and
-- hold_formation share: their option checks (run when a tree is built),
-- finding the target, short walking legs planned with the frame context
-- (so a moving target is planned for again after every leg), and crossing
-- doors toward a target in another part of the house (the door graph's
-- scores and the door's portal tree, as Goto Relative does).
local compat = require("wayfinder.compat")
local fixed = require("wayfinder.fixed")
local describe = require("wayfinder.util").describe

local idiv = compat.idiv
local ONE = fixed.ONE

local M = {}

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"
M.SUCCESS, M.FAILURE, M.RUNNING = SUCCESS, FAILURE, RUNNING

M.ARRIVED = 1

--- The longest leg walked before planning again, fixed point (2 tiles).
M.LEG = 2 * ONE

-- ------------------------------------------------------------- options --

local function is_integer(v)
  return type(v) == "number" and v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53
end

--- Checks a target: nil or "object" (the frame's stack object), an object
-- id, or a function(ctx); with points, also a point {x, y} in tiles.
function M.check_target(fname, target, points, level)
  if target == nil or target == "object" then return { kind = "object" } end
  if type(target) == "function" then return { kind = "fn", fn = target } end
  if is_integer(target) and target >= 1 then return { kind = "id", id = target } end
  if points and type(target) == "table" then
    local x, y = target[1], target[2]
    for i = 1, 2 do
      local v = target[i]
      if type(v) ~= "number" or v ~= v or v < 0 or v > 65536 then
        error(("%s: target point must be {x, y} with numbers in [0, 65536], got %s"):format(
          fname, describe(v)), level)
      end
    end
    return { kind = "point", x = fixed.from_number(x), y = fixed.from_number(y) }
  end
  error(("%s: target must be nil, 'object', an object id%s or a function, got %s"):format(
    fname, points and ", a point {x, y}" or "", describe(target)), level)
end

--- A number option in (0, hi] (tiles) as fixed point; def when nil.
function M.check_length(fname, name, v, hi, def, level)
  if v == nil then
    if def == nil then
      error(("%s: options.%s must be a number in (0, %d], got nil"):format(fname, name, hi),
        level)
    end
    return fixed.from_number(def)
  end
  if type(v) ~= "number" or v ~= v or v <= 0 or v > hi then
    error(("%s: options.%s must be a number in (0, %d], got %s"):format(
      fname, name, hi, describe(v)), level)
  end
  return fixed.from_number(v)
end

--- An integer option in [lo, hi]; def when nil.
function M.check_int(fname, name, v, lo, hi, def, level)
  if v == nil then return def end
  if not is_integer(v) or v < lo or v > hi then
    error(("%s: options.%s must be an integer in [%d, %d], got %s"):format(
      fname, name, lo, hi, describe(v)), level)
  end
  return v
end

--- Checks that options is nil or a table holding only the keys in `keys`.
function M.check_keys(fname, options, keys, level)
  if options == nil then return {} end
  if type(options) ~= "table" then
    error(fname .. ": options must be a table, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if not keys[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  return options
end

-- -------------------------------------------------------------- target --

--- The target's object, or nil when it is gone; for a point target, nil
-- and its fixed point x, y.
function M.target(ctx, t)
  if t.kind == "point" then return nil, t.x, t.y end
  local v
  if t.kind == "object" then
    v = ctx.frame.object
  elseif t.kind == "id" then
    v = t.id
  else
    v = t.fn(ctx)
  end
  if type(v) == "table" then v = v.id end
  if not is_integer(v) then return nil end
  local obj = ctx:lookup(v)
  if not obj or obj.removed or obj == ctx.person then return nil end
  local x, y = ctx:center(obj)
  return obj, x, y
end

--- True when obj has nothing left to do: a person with no frames that is
-- not walking; any other object always.
function M.idle(obj)
  if not obj.person then return true end
  return #obj:frame_stack() == 0 and not obj:walking()
end

--- Distance in fixed point between (ax, ay) and (bx, by).
M.distance = fixed.distance

-- ---------------------------------------------------------------- legs --

--- The first `len` (fixed point) of the flat route `points`.
function M.leg(points, len)
  local out = { points[1], points[2] }
  local left = len
  for i = 3, #points - 1, 2 do
    local ax, ay, bx, by = points[i - 2], points[i - 1], points[i], points[i + 1]
    local d = fixed.distance(ax, ay, bx, by)
    if d >= left then
      if d > 0 and left > 0 then
        out[#out + 1] = ax + idiv((bx - ax) * left, d)
        out[#out + 1] = ay + idiv((by - ay) * left, d)
      end
      return out
    end
    out[#out + 1] = bx
    out[#out + 1] = by
    left = left - d
  end
  return out
end

--- Counts a failure reason in the person's stats and sets it.
function M.fail(ctx, st, reason, blocker)
  local p = ctx.person
  if st.phase == "walk" then ctx:stop() end
  M.release(ctx, st)
  ctx:fail(reason, blocker)
  local f = p.stats.failures
  f[reason] = (f[reason] or 0) + 1
  st.phase = nil
  return FAILURE
end

--- Plans toward `dests` (tried in order, each {x, y, mode, near}) and walks
-- the first leg. Returns "walk" when walking, "here" when the person is
-- already there, "crowded" when only people are in the way, or nil,
-- "no_path".
function M.step_toward(ctx, st, dests)
  local crowded = false
  for _, dest in ipairs(dests) do
    if ctx:inside(dest.x, dest.y) and ctx:part_at(dest.x, dest.y) then
      local points, why = ctx:plan(dest, st.ignore)
      if points then
        st.ignore = false
        if #points <= 2 then return "here" end
        local leg = M.leg(points, M.LEG)
        if #leg <= 2 then return "here" end
        ctx:walk(leg)
        st.phase = "walk"
        return "walk"
      end
      if why == "crowded" then crowded = true end
    end
  end
  if crowded then
    st.ignore = true
    return "crowded"
  end
  return nil, "no_path"
end

--- Reads the walk's news: RUNNING while walking on; otherwise sets the
-- phase to "idle" (after a stall of goto_stall ticks when a person other
-- than `target` is in the way) and returns nil.
function M.walk_news(ctx, st, target, yield)
  local kind, blocker = ctx:walk_event()
  if not kind then return RUNNING end
  st.phase = "idle"
  if kind ~= M.ARRIVED and blocker ~= 0 and not (target and blocker == target.id) then
    local other = ctx:lookup(blocker)
    if other and other.person then
      if yield then st.bumped = true end
      if yield and other:walking() then
        -- a person on the move: look again next tick, no try spent
        return nil
      end
      st.phase = "stall"
      st.stall = ctx:option("goto_stall")
    end
    st.tries = st.tries + 1
  elseif kind ~= M.ARRIVED then
    st.tries = st.tries + 1
  end
  return nil
end

-- --------------------------------------------------------------- doors --

--- Gives back the node's route id.
function M.release(ctx, st)
  if st.rid then
    ctx:doors():release(st.rid, ctx.person)
    st.rid = nil
  end
end

--- Takes the person one door toward (gx, gy) in part `goal`: pushes the
-- best door's portal tree (phase "portal"). Returns RUNNING, or FAILURE
-- after setting the reason.
function M.cross(ctx, st, gx, gy, goal)
  local p = ctx.person
  local x, y = ctx:position()
  local part = ctx:part_at(x, y)
  if not part then return M.fail(ctx, st, "no_route") end
  local graph = ctx:doors()
  st.crossings = (st.crossings or 0) + 1
  if st.crossings > 2 * graph:count() + 4 then return M.fail(ctx, st, "no_route") end
  if not st.rid then
    st.rid = graph:acquire(p)
    if not st.rid then
      st.phase = "idle"   -- no route id free: ask again next tick
      p.stats.waits = p.stats.waits + 1
      return RUNNING
    end
  end
  st.failed = st.failed or {}
  graph:compute(st.rid, gx, gy, { [goal] = true }, nil, st.failed)
  local door = graph:best(st.rid, part, x, y)
  if not door then return M.fail(ctx, st, "no_route") end
  st.door = door.id
  st.phase = "portal"
  p.trap_count = 0
  p.failed_portal = nil
  p.stats.portals = p.stats.portals + 1
  ctx:push(door.portal_tree, door.id, door.id)
  return RUNNING
end

--- In phase "portal": waits for the portal tree's result. Returns RUNNING
-- while it runs, FAILURE on a portal error, else nil (phase "idle").
function M.portal_news(ctx, st)
  local child = ctx:take_child()
  if not child then return RUNNING end
  local p = ctx.person
  M.release(ctx, st)
  st.phase = "idle"
  if child.status ~= SUCCESS then
    if child.reason == "portal_error" or child.reason == "error" then
      return M.fail(ctx, st, "portal_error", st.door)
    end
    local failed = p.failed_portal
    if not failed and p.trap_count < 0 then failed = -p.trap_count end
    failed = failed or st.door
    p.failed_portal = nil
    p.trap_count = 0
    st.failed = st.failed or {}
    st.failed[#st.failed + 1] = failed
    p.stats.portal_failures = p.stats.portal_failures + 1
  end
  st.door = nil
  return nil
end

--- The suspend and halt functions of a chasing primitive.
function M.suspend(ctx)
  local st = ctx.state
  if st.phase == "walk" then
    ctx:stop()
    st.phase = "idle"
  end
end

function M.halt(ctx)
  local st = ctx.state
  if st.phase == "walk" then ctx:stop() end
  M.release(ctx, st)
  ctx:fail("interrupted")
  local f = ctx.person.stats.failures
  f.interrupted = (f.interrupted or 0) + 1
end

return M
