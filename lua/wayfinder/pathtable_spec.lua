--- wayfinder.pathtable_spec: the checks of a next-hop table's graph spec
-- ({nodes = n, edges = {{a, b, cost [, one_way = true]}, ...}}), shared by
-- wayfinder.pathtable.new and wayfinder.explore.new, each under its own
-- name. Not part of the public face (require("wayfinder") does not list
-- it); see docs/pathtable.md for the limits and messages.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local util = require("wayfinder.util")

local M = {}

local MAX_NODES = 2048          -- n*n entries per array: 4 194 304 at most
local MAX_EDGES = 1048576
local MAX_COST = 2147483647     -- so a route of n edges sums below 2^53
M.MAX_NODES, M.MAX_EDGES, M.MAX_COST = MAX_NODES, MAX_EDGES, MAX_COST

local is_integer = util.is_integer
local fail = util.fail

-- strings in messages are cut after 40 characters
local function describe(v) return util.describe_arg(v, 40) end

local function check_table(fname, what, v)
  if type(v) ~= "table" then fail(fname, "%s must be a table, got %s", what, describe(v)) end
end

function M.check_cost(fname, what, v)
  if not is_integer(v) or v < 1 or v > MAX_COST then
    fail(fname, "%s must be an integer in [1, %d] or false, got %s", what, MAX_COST, describe(v))
  end
  return v
end

--- Checks that v is a node in [1, n] for fname (`what` names it); returns v.
function M.check_node(fname, what, n, v)
  if not is_integer(v) or v < 1 or v > n then
    fail(fname, "%s must be a node in [1, %d], got %s", what, n, describe(v))
  end
  return v
end

local SPEC_KEYS = { nodes = true, edges = true }
local EDGE_KEYS = { [1] = true, [2] = true, [3] = true, one_way = true }

-- Checks a {nodes, edges} spec for fname; returns n, ea, eb, cost, oneway.
-- Other keys of spec are left to the caller when `extra` lists them.
local function parse(fname, spec, extra)
  check_table(fname, "spec", spec)
  for k in pairs(spec) do
    if not SPEC_KEYS[k] and not (extra and extra[k]) then
      fail(fname, "unknown spec key %s", describe(k))
    end
  end
  local n = spec.nodes
  if not is_integer(n) or n < 1 or n > MAX_NODES then
    fail(fname, "spec.nodes must be an integer in [1, %d], got %s", MAX_NODES, describe(n))
  end
  local edges = spec.edges
  check_table(fname, "spec.edges", edges)
  local count = #edges
  if count > MAX_EDGES then
    fail(fname, "spec.edges must hold at most %d edges, got %d", MAX_EDGES, count)
  end
  for k in pairs(edges) do
    if not is_integer(k) or k < 1 or k > count then
      fail(fname, "spec.edges must be a sequence, has key %s", describe(k))
    end
  end
  local ea, eb, cost, oneway = {}, {}, {}, {}
  for i = 1, count do
    local e = edges[i]
    local what = string.format("spec.edges[%d]", i)
    check_table(fname, what, e)
    for k in pairs(e) do
      if not EDGE_KEYS[k] then fail(fname, "unknown %s key %s", what, describe(k)) end
    end
    for j = 1, 2 do
      local v = e[j]
      if not is_integer(v) or v < 1 or v > n then
        fail(fname, "%s[%d] must be a node in [1, %d], got %s", what, j, n, describe(v))
      end
    end
    local c = e[3]
    if c ~= false then c = M.check_cost(fname, what .. "[3]", c) end
    if e.one_way ~= nil and type(e.one_way) ~= "boolean" then
      fail(fname, "%s.one_way must be a boolean, got %s", what, describe(e.one_way))
    end
    ea[i], eb[i], cost[i], oneway[i] = e[1], e[2], c, e.one_way == true
  end
  return n, ea, eb, cost, oneway
end

--- pathtable_spec.parse(fname, spec [, extra]) -> n, ea, eb, cost, oneway
-- The checks under fname, the keys of the set `extra` also allowed in
-- spec; an error blames the line that called fname's function.
function M.parse(fname, spec, extra)
  local ok, n, ea, eb, cost, oneway = pcall(parse, fname, spec, extra)
  if not ok then error((tostring(n):gsub("^[^\n]-:%d+: ", "", 1)), 3) end
  return n, ea, eb, cost, oneway
end

return M
