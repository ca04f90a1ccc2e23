--- wayfinder.primitives.follow: the company primitives. follow keeps a
-- person within a distance behind a target, escort beside it until it has
-- arrived, hold_formation in its slot of a formation hung behind a leader
-- (slots given with wayfinder.formation's least-travel assignment), and
-- flee_from takes a person away from a target or point until a distance
-- is reached. All walk short legs planned through the frame context, so
-- they plan again as the target moves, cross doors through the doors'
-- portal trees, and keep every bit of progress in ctx.state.
local compat = require("wayfinder.compat")
local fixed = require("wayfinder.fixed")
local formation = require("wayfinder.formation")
local chase = require("wayfinder.primitives.chase")
local describe = require("wayfinder.util").describe

local idiv = compat.idiv
local ONE = fixed.ONE
local UNIT = fixed.UNIT
local FACING_INDEX = fixed.FACING_INDEX
local facing_of = fixed.facing_of
local distance = fixed.distance

local SUCCESS, FAILURE, RUNNING = chase.SUCCESS, chase.FAILURE, chase.RUNNING

local M = {}

-- -------------------------------------------------------------- checks --

local FOLLOW_KEYS = { distance = true, ticks = true, max_tries = true }
local ESCORT_KEYS = { distance = true, side = true, max_tries = true }
local FLEE_KEYS = { distance = true, max_tries = true }
local FORMATION_KEYS = { members = true, shape = true, spacing = true, tolerance = true,
  ticks = true, max_tries = true }
local ESCORT_SIDES = { left = true, right = true, near = true }

M.DEFAULT_TRIES = 20

-- options.max_tries, checked like every node's (1 to 1000, default 20);
-- `sub` is the level of the caller's caller, one more from here (not a
-- tail call, so the level is the same on every Lua version)
local function check_tries(fname, options, sub)
  local n = chase.check_int(fname, "max_tries", options.max_tries, 1, 1000, M.DEFAULT_TRIES,
    sub + 1)
  return n
end

--- Validates bt.follow's target and options.
function M.check_follow(fname, target, options, level)
  local sub = level + 1
  local t = chase.check_target(fname, target, false, sub)
  options = chase.check_keys(fname, options, FOLLOW_KEYS, sub)
  return {
    target = t,
    distance = chase.check_length(fname, "distance", options.distance, 64, 1.5, sub),
    ticks = chase.check_int(fname, "ticks", options.ticks, 1, 1000000000, nil, sub),
    max_tries = check_tries(fname, options, sub),
  }
end

--- Validates bt.escort's target and options.
function M.check_escort(fname, target, options, level)
  local sub = level + 1
  local t = chase.check_target(fname, target, false, sub)
  options = chase.check_keys(fname, options, ESCORT_KEYS, sub)
  local side = options.side or "right"
  if not ESCORT_SIDES[side] then
    error(("%s: options.side must be 'left', 'right' or 'near', got %s"):format(
      fname, describe(options.side)), level)
  end
  return {
    target = t,
    side = side,
    distance = chase.check_length(fname, "distance", options.distance, 64, 1.5, sub),
    max_tries = check_tries(fname, options, sub),
  }
end

--- Validates bt.flee_from's target and options.
function M.check_flee(fname, target, options, level)
  local sub = level + 1
  local t = chase.check_target(fname, target, true, sub)
  if options == nil then
    error(fname .. ": options must be a table {distance =}, got nil", level)
  end
  options = chase.check_keys(fname, options, FLEE_KEYS, sub)
  return {
    target = t,
    distance = chase.check_length(fname, "distance", options.distance, 1024, nil, sub),
    max_tries = check_tries(fname, options, sub),
  }
end

--- Validates bt.hold_formation's leader and options.
function M.check_formation(fname, leader, options, level)
  local sub = level + 1
  local t = chase.check_target(fname, leader, false, sub)
  if options == nil then
    error(fname .. ": options must be a table {members =}, got nil", level)
  end
  options = chase.check_keys(fname, options, FORMATION_KEYS, sub)
  if type(options.members) ~= "function" then
    error(("%s: options.members must be a function, got %s"):format(
      fname, describe(options.members)), level)
  end
  local shape = options.shape or "box"
  local known = false
  for _, s in ipairs(formation.SHAPES) do known = known or s == shape end
  if not known then
    error(("%s: options.shape must be one of %s, got %s"):format(fname,
      table.concat(formation.SHAPES, ", "), describe(options.shape)),
      level)
  end
  return {
    target = t,
    members = options.members,
    shape = shape,
    spacing = chase.check_length(fname, "spacing", options.spacing, 8, 1, sub),
    tolerance = chase.check_length(fname, "tolerance", options.tolerance, 8, 0.75, sub),
    ticks = chase.check_int(fname, "ticks", options.ticks, 1, 1000000000, nil, sub),
    max_tries = check_tries(fname, options, sub),
  }
end

-- ------------------------------------------------------------- helpers --

local function facing_index(obj)
  return FACING_INDEX[obj:facing_name()] or 0
end

-- (x, y) moved by `len` (fixed) along facing f turned by `turn` eighths.
local function offset(x, y, f, turn, len)
  local u = UNIT[(f + turn) % 8]
  return x + idiv(u[1] * len, ONE), y + idiv(u[2] * len, ONE)
end

local function face(ctx, f)
  if not f then return end
  local _, _, now = ctx:position()
  if now ~= f then ctx:turn(f) end
end

-- The shared run of follow, escort and hold_formation. `how` gives:
--   settled(ctx, opt, st, obj, x, y) -> true when no move is needed
--   dests(ctx, opt, st, obj) -> the destinations to plan for, best first
--   facing(ctx, opt, st, obj, x, y) -> the facing to take when settled
--   within(ctx, opt, st, obj, x, y) -> true when within the hard limit
--   done(ctx, opt, st, obj, x, y) -> SUCCESS / FAILURE when finished (asked
--     only within the hard limit), or nil
local function keep(ctx, opt, how)
  local st = ctx.state
  if not st.phase then
    st.phase = "idle"
    st.tries = 0
    st.ignore = false
    st.start = ctx:now()
  end
  local phase = st.phase
  if phase == "portal" then
    local r = chase.portal_news(ctx, st)
    if r then return r end
  elseif phase == "walk" then
    local obj = chase.target(ctx, opt.target)
    local r = chase.walk_news(ctx, st, obj, how.yield)
    if r then return r end
  elseif phase == "stall" then
    st.stall = st.stall - 1
    if st.stall > 0 then return RUNNING end
    st.phase = "idle"
  end
  local obj, tx, ty = chase.target(ctx, opt.target)
  if not obj then return chase.fail(ctx, st, "lost_target") end
  if how.prepare then how.prepare(ctx, opt, st, obj) end
  if opt.ticks and ctx:now() - st.start >= opt.ticks then
    chase.release(ctx, st)
    return SUCCESS
  end
  local x, y = ctx:position()
  local within = how.within(ctx, opt, st, obj, x, y)
  if within then
    local r = how.done(ctx, opt, st, obj, x, y)
    if r == FAILURE then return chase.fail(ctx, st, st.why) end
    if r then
      face(ctx, how.facing(ctx, opt, st, obj, x, y))
      chase.release(ctx, st)
      return r
    end
  end
  if how.settled(ctx, opt, st, obj, x, y) then
    st.tries, st.crossings = 0, 0
    face(ctx, how.facing(ctx, opt, st, obj, x, y))
    return RUNNING
  end
  if st.tries >= opt.max_tries then return chase.fail(ctx, st, "out_of_tries") end
  local here, there = ctx:part_at(x, y), ctx:part_at(tx, ty)
  if not here then return chase.fail(ctx, st, "no_route") end
  if there and here ~= there then return chase.cross(ctx, st, tx, ty, there) end
  local r, why = chase.step_toward(ctx, st, how.dests(ctx, opt, st, obj))
  if r == "walk" then return RUNNING end
  if r == "here" then
    -- as near as the planner gets: within the hard limit that is fine,
    -- else wait a tick and look again
    if within then
      st.tries, st.crossings = 0, 0
      face(ctx, how.facing(ctx, opt, st, obj, x, y))
    else
      st.tries = st.tries + 1
      if how.stuck then how.stuck(ctx, opt, st, obj) end
    end
    return RUNNING
  end
  if r == "crowded" then
    st.tries = st.tries + 1
    st.phase = "stall"
    st.stall = ctx:option("crowd_stall")
    return RUNNING
  end
  return chase.fail(ctx, st, why == "no_path" and "no_route" or why)
end

-- Settled (no move needed) within three quarters of the distance; the
-- hard limit is the distance itself.
local function near_target(opt, obj, ctx, x, y)
  local tx, ty = ctx:center(obj)
  return distance(x, y, tx, ty) <= idiv(opt.distance * 3, 4)
end

local function within_target(ctx, opt, _, obj, x, y)
  local tx, ty = ctx:center(obj)
  return distance(x, y, tx, ty) <= opt.distance
end

-- Around a point: within a quarter of the distance of (ax, ay), else
-- within half of it around the target itself.
local function around(ctx, opt, obj, ax, ay)
  local tx, ty = ctx:center(obj)
  return {
    { x = ax, y = ay, mode = "near", near = idiv(opt.distance, 4), object = obj.id },
    { x = tx, y = ty, mode = "near", near = idiv(opt.distance, 2), object = obj.id },
  }
end

-- -------------------------------------------------------------- follow --

local follow_how = {
  within = within_target,
  settled = function(ctx, opt, _, obj, x, y) return near_target(opt, obj, ctx, x, y) end,
  dests = function(ctx, opt, _, obj)
    local tx, ty = ctx:center(obj)
    local bx, by = offset(tx, ty, facing_index(obj), 4, idiv(opt.distance, 2))
    return around(ctx, opt, obj, bx, by)
  end,
  facing = function(ctx, _, _, obj, x, y)
    local tx, ty = ctx:center(obj)
    return facing_of(tx - x, ty - y)
  end,
  done = function() return nil end,
}

M.follow = {
  run = function(ctx, opt) return keep(ctx, opt, follow_how) end,
  suspend = chase.suspend,
  halt = chase.halt,
}

-- -------------------------------------------------------------- escort --

local SIDE_TURN = { left = 6, right = 2 }

local escort_how = {
  within = within_target,
  settled = function(ctx, opt, _, obj, x, y) return near_target(opt, obj, ctx, x, y) end,
  dests = function(ctx, opt, _, obj)
    local tx, ty = ctx:center(obj)
    local turn = SIDE_TURN[opt.side]
    if not turn then return around(ctx, opt, obj, tx, ty) end
    local sx, sy = offset(tx, ty, facing_index(obj), turn, idiv(opt.distance, 2))
    return around(ctx, opt, obj, sx, sy)
  end,
  facing = function(_, _, _, obj) return facing_index(obj) end,
  done = function(_, _, st, obj)
    if not chase.idle(obj) then return nil end
    if obj.last_result == FAILURE then
      st.why = "target_failed"
      return FAILURE
    end
    return SUCCESS
  end,
}

M.escort = {
  run = function(ctx, opt) return keep(ctx, opt, escort_how) end,
  suspend = chase.suspend,
  halt = chase.halt,
}

-- ------------------------------------------------------ hold_formation --

local function is_id(v)
  return type(v) == "number" and v == math.floor(v) and v >= 1 and v < 2 ^ 53
end

-- The member ids from options.members, checked.
local function member_ids(ctx, opt)
  local list = opt.members(ctx)
  local what = "hold_formation: options.members"
  if type(list) ~= "table" then
    error(("%s must return a list of people, got %s"):format(what,
      describe(list)), 0)
  end
  local n = #list
  if n < 1 or n > 256 then
    error(("%s must return 1 to 256 people, got %d"):format(what, n), 0)
  end
  local ids, mine = {}, nil
  for i = 1, n do
    local v = list[i]
    if type(v) == "table" then v = v.id end
    local obj = is_id(v) and ctx:lookup(v)
    if not obj or not obj.person then
      error(("%s returned [%d] = %s, not a person"):format(what, i,
        describe(list[i])), 0)
    end
    ids[i] = v
    if v == ctx.person.id then mine = i end
  end
  if not mine then
    error(("%s must return a list holding the person running it (%d)"):format(
      what, ctx.person.id), 0)
  end
  return ids, mine
end

-- Slot k's point around the leader: the formation's offsets (x forward,
-- y left) hung one spacing behind the leader, turned to its facing.
local function slot_point(ctx, st, obj)
  local lx, ly = ctx:center(obj)
  local f = facing_index(obj)
  local u = UNIT[f]
  local ax, ay = offset(lx, ly, f, 4, st.spacing)
  local ox, oy = st.ox, st.oy
  return ax + idiv(ox * u[1] + oy * u[2], ONE), ay + idiv(ox * u[2] - oy * u[1], ONE)
end

-- The least-travel assignment of the members `ids` to the shape's slots
-- `offs` around the leader as it stands, from where the members stand.
local function assign_slots(ctx, opt, obj, ids, offs)
  local lx, ly = ctx:center(obj)
  local f = facing_index(obj)
  local u = UNIT[f]
  local ax, ay = offset(lx, ly, f, 4, opt.spacing)
  local members, slots = {}, {}
  for i = 1, #ids do
    local ox, oy = fixed.from_number(offs[i].x), fixed.from_number(offs[i].y)
    local sx = ax + idiv(ox * u[1] + oy * u[2], ONE)
    local sy = ay + idiv(ox * u[2] - oy * u[1], ONE)
    slots[i] = { x = fixed.to_number(sx), y = fixed.to_number(sy) }
    local mx, my = ctx:center(ctx:lookup(ids[i]))
    members[i] = { x = fixed.to_number(mx), y = fixed.to_number(my) }
  end
  return formation.assign(members, slots)
end

-- This person's slot from the shared answer.
local function take_slot(st, shared, offs, mine)
  local k = shared.slots[mine]
  st.slot = k
  st.round = shared.round
  st.ox, st.oy = fixed.from_number(offs[k].x), fixed.from_number(offs[k].y)
end

local formation_how = {
  -- On the first run: the members, the shape's offsets, and this person's
  -- slot from the assignment the group shares (kept in the leader's data,
  -- so every member reads the same one). Later runs take the slot again
  -- when the group was assigned anew (`stuck` below).
  prepare = function(ctx, opt, st, obj)
    local data = obj.data
    local shared = data and data.formation_slots
    if st.ox and not (shared and shared.key == st.key and shared.round ~= st.round) then
      return
    end
    local ids, mine = member_ids(ctx, opt)
    local offs = formation.offsets(opt.shape, #ids, fixed.to_number(opt.spacing))
    st.spacing = opt.spacing
    local key = ("%s:%d:%s"):format(opt.shape, opt.spacing, table.concat(ids, ","))
    st.key = key
    if not (shared and shared.key == key) then
      local given = assign_slots(ctx, opt, obj, ids, offs)
      shared = { key = key, round = 0, slots = {} }
      for i = 1, #ids do shared.slots[i] = given[i] end
      if data then data.formation_slots = shared end
    end
    take_slot(st, shared, offs, mine)
  end,
  -- The way to the slot ends where this member stands (another member
  -- holds it, most likely one whose own slot this member stands on): the
  -- group is assigned again from where everyone stands, so two members on
  -- each other's slots swap instead of waiting until out of tries.
  stuck = function(ctx, opt, st, obj)
    local shared = obj.data and obj.data.formation_slots
    if not (shared and shared.key == st.key) then return end
    local ids, mine = member_ids(ctx, opt)
    local offs = formation.offsets(opt.shape, #ids, fixed.to_number(opt.spacing))
    local given = assign_slots(ctx, opt, obj, ids, offs)
    local same = true
    for i = 1, #ids do same = same and given[i] == shared.slots[i] end
    if same then return end
    local slots = {}
    for i = 1, #ids do slots[i] = given[i] end
    shared = { key = st.key, round = (shared.round or 0) + 1, slots = slots }
    obj.data.formation_slots = shared
    take_slot(st, shared, offs, mine)
  end,
  -- a member overtaking in its lane (st.bumped) goes on to the slot itself
  -- before it counts as in place
  settled = function(ctx, opt, st, obj, x, y)
    if st.bumped then return false end
    local sx, sy = slot_point(ctx, st, obj)
    return distance(x, y, sx, sy) <= opt.tolerance
  end,
  within = function(ctx, opt, st, obj, x, y)
    if st.bumped then return false end
    local sx, sy = slot_point(ctx, st, obj)
    return distance(x, y, sx, sy) <= opt.tolerance
  end,
  dests = function(ctx, opt, st, obj)
    local sx, sy = slot_point(ctx, st, obj)
    local tx, ty = ctx:center(obj)
    local out = {}
    if st.bumped then
      -- the last leg ran into a person (another member, most likely, whose
      -- slot lies beside the way in): first overtake in this member's own
      -- lane, up to the point level with the slot, then step across to it
      local u = UNIT[facing_index(obj)]
      local x, y = ctx:position()
      local ahead = idiv((sx - x) * u[1] + (sy - y) * u[2], ONE)
      if ahead > idiv(ONE, 16) then
        local lx, ly = x + idiv(ahead * u[1], ONE), y + idiv(ahead * u[2], ONE)
        out[1] = { x = lx, y = ly, mode = "point" }
      else
        st.bumped = nil
      end
    end
    out[#out + 1] = { x = sx, y = sy, mode = "point" }
    -- the slot is out of reach (a wall, furniture): keep near the leader
    out[#out + 1] = { x = tx, y = ty, mode = "near", near = opt.spacing, object = obj.id }
    return out
  end,
  yield = true,
  facing = function(_, _, _, obj) return facing_index(obj) end,
  done = function(_, opt, _, obj)
    if opt.ticks or not chase.idle(obj) then return nil end
    return SUCCESS
  end,
}

M.hold_formation = {
  run = function(ctx, opt) return keep(ctx, opt, formation_how) end,
  suspend = chase.suspend,
  halt = chase.halt,
}

-- ----------------------------------------------------------- flee_from --

local FLEE_RADIUS = 16   -- tiles looked at around the person, each way

-- The tiles of the person's part worth fleeing to, best first, as
-- destinations: those at least `want` from the threat nearest the person,
-- then the others farthest from the threat; only tiles farther from the
-- threat than the person is now. Ties go to the lower row, then column.
local function flee_dests(ctx, x, y, tx, ty, want, now)
  local part = ctx:part_at(x, y)
  if not part then return {} end
  local px, py = idiv(x, ONE), idiv(y, ONE)
  local r = math.min(idiv(want + ONE - 1, ONE) + 2, FLEE_RADIUS)
  local found = {}
  for cy = py - r, py + r do
    for cx = px - r, px + r do
      local mx, my = cx * ONE + idiv(ONE, 2), cy * ONE + idiv(ONE, 2)
      if ctx:inside(mx, my) and ctx:tile_part(cx, cy) == part then
        local d = distance(mx, my, tx, ty)
        if d > now then
          local far = d >= want
          found[#found + 1] = { x = mx, y = my, far = far,
            key = far and distance(mx, my, x, y) or -d, row = cy, col = cx }
        end
      end
    end
  end
  table.sort(found, function(a, b)
    if a.far ~= b.far then return a.far end
    if a.key ~= b.key then return a.key < b.key end
    if a.row ~= b.row then return a.row < b.row end
    return a.col < b.col
  end)
  local dests = {}
  for i = 1, math.min(#found, 4) do
    dests[i] = { x = found[i].x, y = found[i].y, mode = "point" }
  end
  return dests
end

M.flee_from = {
  run = function(ctx, opt)
    local st = ctx.state
    if not st.phase then
      st.phase = "idle"
      st.tries = 0
      st.ignore = false
    end
    local phase = st.phase
    if phase == "walk" then
      local obj = chase.target(ctx, opt.target)
      local r = chase.walk_news(ctx, st, obj)
      if r then return r end
    elseif phase == "stall" then
      st.stall = st.stall - 1
      if st.stall > 0 then return RUNNING end
      st.phase = "idle"
    end
    local _, tx, ty = chase.target(ctx, opt.target)
    if not tx then return chase.fail(ctx, st, "lost_target") end
    local x, y = ctx:position()
    local now = distance(x, y, tx, ty)
    if now >= opt.distance then return SUCCESS end
    if st.tries >= opt.max_tries then return chase.fail(ctx, st, "out_of_tries") end
    local dests = flee_dests(ctx, x, y, tx, ty, opt.distance, now)
    if #dests == 0 then return chase.fail(ctx, st, "cornered") end
    local r = chase.step_toward(ctx, st, dests)
    if r == "walk" then return RUNNING end
    if r == "crowded" then
      st.tries = st.tries + 1
      st.phase = "stall"
      st.stall = ctx:option("crowd_stall")
      return RUNNING
    end
    return chase.fail(ctx, st, "cornered")
  end,
  suspend = chase.suspend,
  halt = chase.halt,
}

return M
