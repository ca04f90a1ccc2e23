--- wayfinder.bt: behavior trees for the house world.
-- Node constructors build immutable definitions shared by every person; a
-- world registers a tree under a name (world:add_tree) and runs it in
-- frames. All per-person progress lives in the frame as plain data, keyed by
-- the node's position in the tree (pre-order, root = 1), so a world can be
-- saved and restored in the middle of a walk. See docs/behaviors.md.
local compat = require("wayfinder.compat")
local primitives = require("wayfinder.primitives")

local M = {}

local SUCCESS = "success"
local FAILURE = "failure"
local RUNNING = "running"
M.SUCCESS, M.FAILURE, M.RUNNING = SUCCESS, FAILURE, RUNNING

local describe = require("wayfinder.util").describe

-- Nodes are frozen: a node is an empty proxy whose own metatable reads its
-- fields from a table only this module holds, and refuses every write; its
-- children list and options are frozen the same way. getmetatable gives
-- the type name, so the fields cannot be reached for writing either.
local NODE_NAME = "wayfinder.bt.node"
local nodes = setmetatable({}, { __mode = "k" })   -- every node ever made
-- node or frozen view -> the plain table it reads from (for M.fields)
local sources = setmetatable({}, { __mode = "k" })

-- How an error names a node: its kind, and its name where it has one.
local function label(f)
  local what = f.kind == "primitive" and f.primitive or f.kind
  if f.kind == "action" and f.name then what = ("%s '%s'"):format(what, f.name) end
  if f.kind == "subtree" then what = ("%s '%s'"):format(what, f.name) end
  return "behavior tree node (" .. what .. ")"
end

-- where: a format naming what the write was to, given the key
local function refuse(owner, where)
  return function(_, k)
    error(("%s: cannot set %s: behavior tree definitions are immutable"):format(
      owner, where:format(describe(k))), 2)
  end
end

-- A read-only view of the plain table t (a list or a flat record).
local function frozen(t, owner, where)
  local view = setmetatable({}, {
    __index = t,
    __newindex = refuse(owner, where),
    __len = function() return #t end,
    __pairs = function() return next, t, nil end,
    __ipairs = function() return ipairs(t) end,   -- 5.2's ipairs reads it
    __metatable = "wayfinder.bt.frozen",
  })
  sources[view] = t
  return view
end

local function new_node(kind, fields)
  fields.kind = kind
  local owner = label(fields)
  if fields.children then fields.children = frozen(fields.children, owner, "children[%s]") end
  if fields.options then fields.options = frozen(fields.options, owner, "options key %s") end
  local node = setmetatable({}, {
    __name = NODE_NAME,
    __index = fields,
    __newindex = refuse(owner, "field %s"),
    __pairs = function() return next, fields, nil end,
    __tostring = function() return "wayfinder.bt node (" .. kind .. ")" end,
    __metatable = NODE_NAME,
  })
  nodes[node] = true
  sources[node] = fields
  return node
end

--- True when v is a node made by one of the constructors.
function M.is_node(v)
  return nodes[v] == true
end

--- A plain copy of a node's fields, or of the entries of a node's frozen
-- children list or options: # and pairs work on it on every Lua version
-- (5.1 and LuaJIT tables ignore the views' __len and __pairs). Writing to
-- the copy leaves the node as it was.
function M.fields(v)
  local t = sources[v]
  if not t then
    error(("wayfinder.bt.fields: value must be a behavior tree node, or its children "
      .. "or options, got %s"):format(describe(v)), 2)
  end
  local copy = {}
  for k, x in pairs(t) do copy[k] = x end
  return copy
end

local function check_children(fname, children)
  if type(children) ~= "table" or M.is_node(children) then
    error(("%s: children must be a sequence of nodes, got %s"):format(
      fname, describe(children)), 3)
  end
  local n = #children
  if n == 0 then
    error(fname .. ": children must hold at least one node", 3)
  end
  local copy = {}
  for k = 1, n do
    if children[k] == nil then
      error(("%s: children must be a sequence, children[%d] is nil"):format(fname, k), 3)
    end
  end
  for k, v in pairs(children) do
    if compat.type(k) ~= "integer" or k < 1 or k > n then
      error(("%s: children must be a sequence, found key %s"):format(
        fname, describe(k)), 3)
    end
    if not M.is_node(v) then
      error(("%s: children[%d] must be a node, got %s"):format(
        fname, k, describe(v)), 3)
    end
    copy[k] = v
  end
  return copy
end

local function check_child(fname, child)
  if not M.is_node(child) then
    error(("%s: child must be a node, got %s"):format(fname, describe(child)), 3)
  end
  return child
end

local function check_count(fname, arg, v, lo)
  if compat.type(v) ~= "integer" and not (type(v) == "number" and v == math.floor(v)
      and v == v and v > -math.huge and v < math.huge) then
    error(("%s: %s must be an integer >= %d, got %s"):format(
      fname, arg, lo, describe(v)), 3)
  end
  -- compared before the conversion: an integral float beyond the integer
  -- range (2^63, 1e308) has no integer form
  if v < lo or v > 1000000000 then
    error(("%s: %s must be an integer in [%d, 1000000000], got %s"):format(
      fname, arg, lo, compat.tointeger(v) or compat.g14(v)), 3)
  end
  return compat.tointeger(v)
end

local function check_fn(fname, arg, fn)
  if type(fn) ~= "function" then
    error(("%s: %s must be a function, got %s"):format(fname, arg, describe(fn)), 3)
  end
  return fn
end

-- ------------------------------------------------------------ composites --

--- Runs children in order; fails at the first failure, succeeds when all do.
function M.sequence(children)
  return new_node("sequence", { children = check_children("wayfinder.bt.sequence", children) })
end

--- Runs children in order; succeeds at the first success, fails when all do.
function M.selector(children)
  return new_node("selector", { children = check_children("wayfinder.bt.selector", children) })
end

--- Another name for selector.
function M.fallback(children)
  return new_node("selector", { children = check_children("wayfinder.bt.fallback", children) })
end

--- Success becomes failure and failure success.
function M.invert(child)
  return new_node("invert", { children = { check_child("wayfinder.bt.invert", child) } })
end

--- Succeeds whenever the child finishes, whatever its result.
function M.succeed(child)
  return new_node("succeed", { children = { check_child("wayfinder.bt.succeed", child) } })
end

--- Fails whenever the child finishes, whatever its result.
function M.fail(child)
  return new_node("fail", { children = { check_child("wayfinder.bt.fail", child) } })
end

--- Runs the child again after a failure, at most n runs in all.
function M.retry(n, child)
  local fname = "wayfinder.bt.retry"
  n = check_count(fname, "n", n, 1)
  return new_node("retry", { n = n, children = { check_child(fname, child) } })
end

--- Runs the child again and again (one start per tick); with times, succeeds
-- after that many completions. The child's result is ignored.
function M.loop(child, times)
  local fname = "wayfinder.bt.loop"
  check_child(fname, child)
  if times ~= nil then times = check_count(fname, "times", times, 1) end
  return new_node("loop", { times = times, children = { child } })
end

-- ------------------------------------------------------------------ leaves --

local ACTION_KEYS = { halt = true, name = true }

--- A Lua function fn(ctx) returning "success", "failure", "running", true
-- or false. options.halt(ctx) runs when a running action is abandoned.
function M.action(fn, options)
  local fname = "wayfinder.bt.action"
  check_fn(fname, "fn", fn)
  local halt, name
  if options ~= nil then
    if type(options) ~= "table" then
      error(fname .. ": options must be a table, got " .. describe(options), 2)
    end
    for k in pairs(options) do
      if not ACTION_KEYS[k] then
        error(("%s: unknown options key %s"):format(fname, describe(k)), 2)
      end
    end
    if options.halt ~= nil then halt = check_fn(fname, "options.halt", options.halt) end
    if options.name ~= nil then
      if type(options.name) ~= "string" then
        error(fname .. ": options.name must be a string, got " .. describe(options.name), 2)
      end
      name = options.name
    end
  end
  return new_node("action", { fn = fn, halt = halt, name = name })
end

--- A Lua predicate fn(ctx): success when it returns a true value. On
-- failure, reason (optional) becomes the person's failure reason.
function M.condition(fn, reason)
  local fname = "wayfinder.bt.condition"
  check_fn(fname, "fn", fn)
  if reason ~= nil and (type(reason) ~= "string" or reason == "") then
    error(fname .. ": reason must be a non-empty string, got " .. describe(reason), 2)
  end
  return new_node("condition", { fn = fn, reason = reason })
end

--- Running for `ticks` ticks, then success.
function M.wait(ticks)
  return new_node("wait", { ticks = check_count("wayfinder.bt.wait", "ticks", ticks, 0) })
end

--- Pushes the registered tree `name` as a frame with interrupt and returns
-- its result. object_fn(ctx) picks the new frame's stack object (default:
-- this frame's).
function M.subtree(name, object_fn)
  local fname = "wayfinder.bt.subtree"
  if type(name) ~= "string" or name == "" then
    error(fname .. ": name must be a non-empty string, got " .. describe(name), 2)
  end
  if object_fn ~= nil then check_fn(fname, "object_fn", object_fn) end
  return new_node("subtree", { name = name, object_fn = object_fn })
end

--- Goto Relative: routes to a side of the stack object (see docs).
function M.goto_relative(options)
  return new_node("primitive", {
    primitive = "goto_relative",
    options = primitives.check_goto("wayfinder.bt.goto_relative", options, 3),
  })
end

--- Delta Move: moves a distance along the person's facing.
function M.delta_move(options)
  return new_node("primitive", {
    primitive = "delta_move",
    options = primitives.check_delta("wayfinder.bt.delta_move", options, 3),
  })
end

--- Explore: walks to the nearest seen part of the house that still has
-- unseen neighbours, door by door over seen parts only, until none is left.
function M.explore(options)
  return new_node("primitive", {
    primitive = "explore",
    options = primitives.check_explore("wayfinder.bt.explore", options, 3),
  })
end

--- Goto Known: Goto Relative to the stack object, crossing only doors
-- between parts the person has seen.
function M.goto_known(options)
  return new_node("primitive", {
    primitive = "goto_known",
    options = primitives.check_goto("wayfinder.bt.goto_known", options, 3),
  })
end

--- Waits until the stack object (a door) is free, then reserves it for
-- this person until the frame that reserved it pops; fails with reason
-- "busy" after options.ticks ticks of waiting (default 60).
function M.reserve_portal(options)
  return new_node("primitive", {
    primitive = "reserve_portal",
    options = primitives.check_reserve("wayfinder.bt.reserve_portal", options, 3),
  })
end

--- Follow: keeps within options.distance behind the target (default the
-- stack object), planning again after every short leg, through doors.
function M.follow(target, options)
  return new_node("primitive", {
    primitive = "follow",
    options = primitives.check_follow("wayfinder.bt.follow", target, options, 3),
  })
end

--- Escort: keeps beside the target until it has arrived (no frames left,
-- not walking), then succeeds.
function M.escort(target, options)
  return new_node("primitive", {
    primitive = "escort",
    options = primitives.check_escort("wayfinder.bt.escort", target, options, 3),
  })
end

--- Flee From: walks away from the target (an object or a point) until
-- options.distance from it, over passable ground of the person's part.
function M.flee_from(target, options)
  return new_node("primitive", {
    primitive = "flee_from",
    options = primitives.check_flee("wayfinder.bt.flee_from", target, options, 3),
  })
end

--- Hold Formation: keeps this member's slot of a formation hung behind the
-- leader; options.members(ctx) lists the group.
function M.hold_formation(leader, options)
  return new_node("primitive", {
    primitive = "hold_formation",
    options = primitives.check_formation("wayfinder.bt.hold_formation", leader, options, 3),
  })
end

--- Sets the failed-portal protocol for the stack object (a door): trap count
-- = -(door id), failed_portal = door id; then fails.
function M.fail_portal()
  return new_node("primitive", { primitive = "fail_portal", options = {} })
end

return M
