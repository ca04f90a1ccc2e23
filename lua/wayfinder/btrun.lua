--- wayfinder.btrun: runs behavior trees built with wayfinder.bt. A tree is
-- compiled once per world into arrays indexed by pre-order position (root =
-- 1); a frame keeps each running node's progress in frame.states[position]
-- as plain data, so nothing but data has to survive between ticks.
local bt = require("wayfinder.bt")
local primitives = require("wayfinder.primitives")

local M = {}

local SUCCESS = bt.SUCCESS
local FAILURE = bt.FAILURE
local RUNNING = bt.RUNNING

local describe = require("wayfinder.util").describe

-- -------------------------------------------------------------- compiling --

--- Flattens a tree into arrays indexed by pre-order position. Raises when
-- root is not a node.
function M.compile(root, name)
  if not bt.is_node(root) then
    error(("tree '%s' must be a node, got %s"):format(tostring(name), describe(root)), 3)
  end
  local tree = { name = name, kind = {}, def = {}, children = {}, size = 0 }
  local function visit(node)
    local pos = tree.size + 1
    tree.size = pos
    tree.kind[pos] = node.kind == "primitive" and node.primitive or node.kind
    tree.def[pos] = node
    if node.children then
      local ch = {}
      tree.children[pos] = ch
      -- indexed, not ipairs: before 5.3 ipairs skips the frozen view's __index
      local i = 1
      while node.children[i] ~= nil do
        ch[i] = visit(node.children[i])
        i = i + 1
      end
    end
    return pos
  end
  visit(root)
  return tree
end

-- ----------------------------------------------------------------- running --

local tick

local function normalize(fname, r)
  if r == true or r == SUCCESS then return SUCCESS end
  if r == false or r == nil or r == FAILURE then return FAILURE end
  if r == RUNNING then return RUNNING end
  error(("%s returned %s; expected 'success', 'failure', 'running' or a boolean")
    :format(fname, describe(r)), 0)
end

local H = {}

-- Sequence and selector tick their children in order until one returns
-- `stop` (failure for a sequence, success for a selector) and return that;
-- a running child keeps its place in the frame; when every child is done
-- they return the other outcome.
local function in_order(stop)
  local finished = stop == FAILURE and SUCCESS or FAILURE
  return function(tree, pos, frame, ctx)
    local states = frame.states
    local ch = tree.children[pos]
    local i = states[pos] or 1
    while i <= #ch do
      local r = tick(tree, ch[i], frame, ctx)
      if r == RUNNING then states[pos] = i; return RUNNING end
      if r == stop then states[pos] = nil; return stop end
      i = i + 1
    end
    states[pos] = nil
    return finished
  end
end

H.sequence = in_order(FAILURE)
H.selector = in_order(SUCCESS)

H.invert = function(tree, pos, frame, ctx)
  local r = tick(tree, tree.children[pos][1], frame, ctx)
  if r == SUCCESS then return FAILURE end
  if r == FAILURE then return SUCCESS end
  return RUNNING
end

H.succeed = function(tree, pos, frame, ctx)
  local r = tick(tree, tree.children[pos][1], frame, ctx)
  return r == RUNNING and RUNNING or SUCCESS
end

H.fail = function(tree, pos, frame, ctx)
  local r = tick(tree, tree.children[pos][1], frame, ctx)
  return r == RUNNING and RUNNING or FAILURE
end

H.retry = function(tree, pos, frame, ctx)
  local states = frame.states
  local left = states[pos] or tree.def[pos].n
  local child = tree.children[pos][1]
  while true do
    local r = tick(tree, child, frame, ctx)
    if r == RUNNING then states[pos] = left; return RUNNING end
    if r == SUCCESS then states[pos] = nil; return SUCCESS end
    left = left - 1
    if left <= 0 then states[pos] = nil; return FAILURE end
  end
end

H.loop = function(tree, pos, frame, ctx)
  local states = frame.states
  local done = states[pos] or 0
  local r = tick(tree, tree.children[pos][1], frame, ctx)
  if r == RUNNING then states[pos] = done; return RUNNING end
  done = done + 1
  local times = tree.def[pos].times
  if times and done >= times then states[pos] = nil; return SUCCESS end
  states[pos] = done
  return RUNNING
end

H.action = function(tree, pos, frame, ctx)
  local states = frame.states
  local st = states[pos] or {}
  ctx.pos, ctx.state = pos, st
  local def = tree.def[pos]
  local r = normalize(def.name and ("action '" .. def.name .. "'") or "an action",
    def.fn(ctx))
  if r == RUNNING then states[pos] = st else states[pos] = nil end
  return r
end

H.condition = function(tree, pos, _, ctx)
  ctx.pos, ctx.state = pos, nil
  local def = tree.def[pos]
  if def.fn(ctx) then return SUCCESS end
  if def.reason then ctx:fail(def.reason) end
  return FAILURE
end

H.wait = function(tree, pos, frame)
  local states = frame.states
  local left = states[pos] or tree.def[pos].ticks
  if left <= 0 then states[pos] = nil; return SUCCESS end
  states[pos] = left - 1
  return RUNNING
end

H.subtree = function(tree, pos, frame, ctx)
  local states = frame.states
  ctx.pos, ctx.state = pos, nil
  if states[pos] then
    local child = ctx:take_child()
    if not child then return RUNNING end
    states[pos] = nil
    return child.status
  end
  local def = tree.def[pos]
  local obj = frame.object
  if def.object_fn then obj = def.object_fn(ctx) end
  ctx:push(def.name, obj)
  states[pos] = true
  return RUNNING
end

local function primitive_handler(name)
  local run = primitives[name].run
  return function(tree, pos, frame, ctx)
    local states = frame.states
    local st = states[pos]
    if not st then st = {}; states[pos] = st end
    ctx.pos, ctx.state = pos, st
    local r = run(ctx, tree.def[pos].options)
    if r ~= RUNNING then states[pos] = nil end
    return r
  end
end
H.goto_relative = primitive_handler("goto_relative")
H.delta_move = primitive_handler("delta_move")
H.fail_portal = primitive_handler("fail_portal")
H.reserve_portal = primitive_handler("reserve_portal")
H.explore = primitive_handler("explore")
H.goto_known = primitive_handler("goto_known")
H.follow = primitive_handler("follow")
H.escort = primitive_handler("escort")
H.flee_from = primitive_handler("flee_from")
H.hold_formation = primitive_handler("hold_formation")

tick = function(tree, pos, frame, ctx)
  return H[tree.kind[pos]](tree, pos, frame, ctx)
end

--- Runs a frame's tree once from the root; returns its status.
function M.run_frame(tree, frame, ctx)
  return tick(tree, 1, frame, ctx)
end

local function sorted_positions(states)
  local keys = {}
  for k in pairs(states) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

--- Abandons a frame: every running primitive and action with a halt runs
-- its cleanup once, in position order; the frame's states are cleared.
function M.halt_frame(tree, frame, ctx)
  local states = frame.states
  for _, pos in ipairs(sorted_positions(states)) do
    local kind = tree.kind[pos]
    local st = states[pos]
    ctx.pos, ctx.state = pos, st
    if primitives[kind] and primitives[kind].halt and type(st) == "table" then
      primitives[kind].halt(ctx)
    elseif kind == "action" and tree.def[pos].halt then
      pcall(tree.def[pos].halt, ctx)
    end
  end
  frame.states = {}
end

--- Pauses a frame because another is pushed above it: running primitives
-- stop walking and will replan when the frame resumes.
function M.suspend_frame(tree, frame, ctx)
  local states = frame.states
  for _, pos in ipairs(sorted_positions(states)) do
    local kind = tree.kind[pos]
    local st = states[pos]
    if primitives[kind] and primitives[kind].suspend and type(st) == "table" then
      ctx.pos, ctx.state = pos, st
      primitives[kind].suspend(ctx)
    end
  end
end


return M
