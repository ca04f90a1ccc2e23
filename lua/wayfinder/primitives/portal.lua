--- wayfinder.primitives.portal: the portal primitives. reserve_portal
-- holds the frame's door for this person (one direction at a time, the
-- world's reservations); fail_portal sets the failed-portal protocol (trap
-- count -id, failed_portal = id) and fails.
local M = {}

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"

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

local ARRIVED = 1

-- Ends the walk to a waiting spot, if any.
local function stop_queue_walk(ctx, st)
  if st.walking then
    ctx:stop()
    st.walking = nil
  end
end

-- The door queue (world option door_flow = "queue"): the person waits out
-- of the doorway, at a spot beside the door (the world's queue spots); it
-- gives up only after opt.ticks ticks in which nobody was admitted.
local function queue(ctx, st, door, opt)
  local admitted = ctx:portal_admitted(door)
  if st.seen ~= admitted then
    st.seen = admitted
    st.waited = 0
  end
  st.waited = (st.waited or 0) + 1
  if st.waited > opt.ticks then
    stop_queue_walk(ctx, st)
    ctx:fail("busy", ctx:give_up_portal(door))
    return FAILURE
  end
  if st.walking then
    local kind = ctx:walk_event()
    if not kind then return RUNNING end
    st.walking = nil
    if kind == ARRIVED then st.parked = true end
    return RUNNING
  end
  if st.parked then return RUNNING end
  st.moves = (st.moves or 0) + 1
  local spots = ctx:queue_spots(door)
  if not spots or st.moves > 3 then
    st.parked = true
    return RUNNING
  end
  -- the first spot the person can walk to (two plans a tick at most)
  for k = 1, math.min(2, #spots) do
    local s = spots[k]
    local points = ctx:plan({ x = s[1], y = s[2], mode = "point",
      parts = { [ctx:part_at(s[1], s[2])] = true } })
    if points and #points > 2 then
      ctx:walk(points, true)
      st.walking = true
      return RUNNING
    end
  end
  return RUNNING
end

-- One direction at a time through the door (the world's reservations,
-- docs/behaviors.md): held at once, or after waiting at most opt.ticks
-- (with the door queue: opt.ticks in which the queue did not move).
function reserve_portal.run(ctx, opt)
  local st = ctx.state
  local _, door = portal_of(ctx, "reserve_portal")
  if not door then
    stop_queue_walk(ctx, st)
    ctx:fail("removed")
    return FAILURE
  end
  if ctx:reserve_portal(door) then
    stop_queue_walk(ctx, st)
    return SUCCESS
  end
  if ctx:door_flow() == "queue" then return queue(ctx, st, door, opt) end
  st.waited = (st.waited or 0) + 1
  if st.waited > opt.ticks then
    ctx:fail("busy", ctx:give_up_portal(door))
    return FAILURE
  end
  return RUNNING
end

function reserve_portal.suspend(ctx)
  local st = ctx.state
  stop_queue_walk(ctx, st)
  st.parked = nil
end

function reserve_portal.halt(ctx)
  stop_queue_walk(ctx, ctx.state)
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
