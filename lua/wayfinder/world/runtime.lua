--- wayfinder.world.runtime: the frame runtime of a house world. Each person
-- has a stack of frames; a tick moves every walking person in one call into
-- the walker, then runs the top frame of each person whose walk has news
-- (object-list order), popping finished frames and delivering their results
-- to the frame below. A frame that raises is halted and popped, and its
-- error delivered as a failure. Behaviors get the world's services only
-- through the frame context (wayfinder.world.ctx).
local bt = require("wayfinder.bt")
local btrun = require("wayfinder.btrun")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")
local objects = require("wayfinder.world.objects")
local reservations = require("wayfinder.world.reservations")
require("wayfinder.world.ctx")

local M = {}
local World = classes.World

local FAILURE = bt.FAILURE
local RUNNING = bt.RUNNING

--- A new frame running tree `tree` (a registered name) with stack object
-- `object` (an id or nil); `portal` marks a portal frame (the door's id),
-- `point` is a route_to goal ({x, y} fixed), `args` its options.
function M.new_frame(tree, object, portal, point, args)
  return { tree = tree, object = object, portal = portal, point = point, args = args,
    states = {}, memory = {} }
end
local new_frame = M.new_frame

--- The world's one context, set up for person p running `frame`.
function M.set_ctx(w, p, frame)
  local ctx = w.ctx
  ctx.person, ctx.data = p, p.data
  ctx.frame, ctx.object = frame, frame and frame.object
  ctx.memory = frame and frame.memory
  ctx.pos, ctx.state = nil, nil
  return ctx
end
local set_ctx = M.set_ctx

local function deliver(p, r, reason, blocker, message)
  local below = p.frames[#p.frames]
  if below then
    if below.waiting then
      below.child = { status = r, reason = reason, blocker = blocker, error = message }
    end
  else
    p.last_result = r
  end
end

-- Pops the top frame; a door reserved through it becomes free.
local function pop(w, p)
  local frame = p.frames[#p.frames]
  p.frames[#p.frames] = nil
  local d = frame.object and w.by_id[frame.object]
  if d and d.door then reservations.release(w, d, p) end
  return frame
end

--- Pushes `frame` on p's stack: with interrupt (or on an empty stack) above
-- the top frame, which pauses; else below the whole stack.
function M.push_frame(w, p, frame, interrupt)
  local frames = p.frames
  if interrupt or #frames == 0 then
    local top = frames[#frames]
    if top then
      btrun.suspend_frame(w.trees[top.tree], top, set_ctx(w, p, top))
    end
    frames[#frames + 1] = frame
  else
    table.insert(frames, 1, frame)
  end
  p.wake = true
end

--- Abandons every frame of p (top first; running primitives clean up) and
-- stops its walk.
function M.halt(w, p)
  while #p.frames > 0 do
    local top = p.frames[#p.frames]
    btrun.halt_frame(w.trees[top.tree], top, set_ctx(w, p, top))
    pop(w, p)
  end
  set_ctx(w, p, nil):stop()
end

local function frame_error(w, p, frame, tree, msg)
  local ctx = set_ctx(w, p, frame)
  pcall(btrun.halt_frame, tree, frame, ctx)
  pop(w, p)
  p.pending = nil
  msg = tostring(msg)
  p.last_error = msg
  p.stats.errors = p.stats.errors + 1
  local reason = frame.portal and "portal_error" or "error"
  p.fail_reason, p.fail_blocker = reason, frame.portal
  local below = p.frames[#p.frames]
  if below and below.waiting then
    deliver(p, FAILURE, reason, frame.portal, msg)
  else
    if not below then p.last_result = FAILURE end
    if w.on_error then w.on_error(p, msg) end
  end
end

local function run_person(w, p)
  p.wake = false
  for _ = 1, w.max_steps do
    local frames = p.frames
    local n = #frames
    if n == 0 or p.removed then break end
    local frame = frames[n]
    local tree = w.trees[frame.tree]
    local ctx = set_ctx(w, p, frame)
    p.pending = nil
    local ok, r = pcall(btrun.run_frame, tree, frame, ctx)
    if p.removed then break end
    if not ok then
      frame_error(w, p, frame, tree, r)
    elseif r == RUNNING then
      local push = p.pending
      if not push then break end
      p.pending = nil
      frame.waiting = push.pos
      frames[n + 1] = new_frame(push.tree, push.object, push.portal)
    else
      pop(w, p)
      if r == FAILURE then
        deliver(p, r, p.fail_reason, p.fail_blocker)
      else
        deliver(p, r)
      end
    end
  end
  p.ev_kind, p.ev_blocker = nil, nil
end

--- Advances the world by n ticks (default 1): one call into C moves every
-- walking person, then behaviors run in object-list order.
function World:tick(n)
  if n ~= nil then n = check.int("world:tick", "n", n, 0, 1000000000) else n = 1 end
  for _ = 1, n do
    topology.refresh(self)
    local ev = self.walker:step()
    for i = 1, #ev, 3 do
      local p = self.by_id[ev[i]]
      p.ev_kind, p.ev_blocker = ev[i + 1], ev[i + 2]
      p.waiting_move = false
    end
    self.tick_count = self.tick_count + 1
    local people = objects.copy_list(self.person_list)
    for _, p in ipairs(people) do
      if not p.removed and p.frames[1] and (not p.waiting_move or p.ev_kind or p.wake) then
        run_person(self, p)
      end
    end
  end
end

--- Ticks run so far.
function World:now()
  return self.tick_count
end

return M
