--- wayfinder.primitives.delta_move: the Delta Move primitive: walk
-- `distance` tiles straight along the person's facing; a person in the way
-- gets up to the world's delta_stall ticks to move on.
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"

local ARRIVED = 1

local ONE = fixed.ONE
local UNIT = fixed.UNIT

local delta_move = {}

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
    st.ex = x + idiv(u[1] * opt.distance + idiv(ONE, 2), ONE)
    st.ey = y + idiv(u[2] * opt.distance + idiv(ONE, 2), ONE)
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

return delta_move
