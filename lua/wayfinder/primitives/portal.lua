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
