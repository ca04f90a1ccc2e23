--- wayfinder.explore: an agent that learns a level by looking at it.
-- The agent starts knowing only the node it stands on. Standing on a node
-- it sees the nodes of that node's sight list (a sight table given by the
-- caller, or built from a grid's line of sight) and the far end of each of
-- its links. An edge is known once both its ends are; the agent's route
-- table is a next-hop table (wayfinder.pathtable) over the known edges, the
-- others closed, and grows as nodes are seen: the rows the new edges can
-- touch are searched again, the others cannot change. So once everything
-- is seen the table is the full graph's, entry for entry. Exploring, the
-- agent walks to the nearest known node that still has an unseen neighbour,
-- always on routes of its own table, so it never plans through a node it
-- has not seen. See docs/explore.md.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local pathtable = require("wayfinder.pathtable")
local graph_spec = require("wayfinder.pathtable_spec")

local M = {}

local MAX_RANGE = 64
local ORTHO = 33554432      -- 2^25: grid:find_path's cost units for a step
local DIAG = 47453132       -- a diagonal step in the same units

local util = require("wayfinder.util")

local is_integer = util.is_integer
local fail = util.fail

-- strings in messages are cut after 40 characters
local function describe(v) return util.describe_arg(v, 40) end

local Explorer = {}
Explorer.__index = Explorer
Explorer.__name = "wayfinder.Explorer"

function Explorer:__tostring()
  return string.format("wayfinder.Explorer (%d of %d nodes known, at %d)", self.count, self.n,
    self.pos)
end

local check_node = graph_spec.check_node

-- The sight list of node v, checked, sorted and without repeats.
local function sight_of(self, v)
  local cached = self.sight_cache[v]
  if cached then return cached end
  local fname = "wayfinder.explore"
  local list
  if self.sight_fn then
    list = self.sight_fn(v)
    if type(list) ~= "table" then
      error(string.format("%s: sight(%d) must return a table, got %s", fname, v, describe(list)), 0)
    end
  else
    list = self.sight_table[v] or {}
  end
  local seen, out = {}, {}
  for i = 1, #list do
    local u = list[i]
    if not is_integer(u) or u < 1 or u > self.n then
      error(string.format("%s: sight(%d)[%d] must be a node in [1, %d], got %s", fname, v, i,
        self.n, describe(u)), 0)
    end
    if not seen[u] then
      seen[u] = true
      out[#out + 1] = u
    end
  end
  table.sort(out)
  self.sight_cache[v] = out
  return out
end

-- Marks the nodes of `list` known; returns the newly known ones in
-- increasing order and opens, in one batch, every edge whose ends are
-- both known now.
local function learn(self, list)
  local fresh = {}
  for _, v in ipairs(list) do
    if not self.seen[v] then
      self.seen[v] = true
      self.count = self.count + 1
      fresh[#fresh + 1] = v
    end
  end
  if #fresh == 0 then return fresh end
  table.sort(fresh)
  local ids, mark = {}, {}
  for _, v in ipairs(fresh) do
    for _, e in ipairs(self.inc[v]) do
      if not mark[e] and self.seen[self.ea[e]] and self.seen[self.eb[e]] then
        mark[e] = true
        ids[#ids + 1] = e
      end
    end
  end
  table.sort(ids)
  local changes = {}
  for _, e in ipairs(ids) do
    self.known_edges = self.known_edges + 1
    if self.cost[e] then changes[#changes + 1] = { e, self.cost[e] } end
  end
  if #changes > 0 then
    self.rows = self.rows + self.routes:set_costs(changes)
  end
  return fresh
end

-- What the agent sees standing on v: v, its sight list and the far end of
-- each of its links.
local function look_from(self, v)
  local list = { v }
  for _, u in ipairs(sight_of(self, v)) do list[#list + 1] = u end
  for _, e in ipairs(self.inc[v]) do
    list[#list + 1] = self.ea[e] == v and self.eb[e] or self.ea[e]
  end
  self.looks = self.looks + 1
  return learn(self, list)
end

-- Builds the agent over checked edges.
local function make(n, ea, eb, cost, oneway, sight_table, sight_fn, start)
  local inc = {}
  for v = 1, n do inc[v] = {} end
  for i = 1, #ea do
    local la = inc[ea[i]]
    la[#la + 1] = i
    if eb[i] ~= ea[i] then
      local lb = inc[eb[i]]
      lb[#lb + 1] = i
    end
  end
  local closed_edges = {}
  for i = 1, #ea do
    closed_edges[i] = { ea[i], eb[i], false, one_way = oneway[i] or nil }
  end
  local self = setmetatable({
    n = n, ea = ea, eb = eb, cost = cost, oneway = oneway, inc = inc,
    sight_table = sight_table, sight_fn = sight_fn, sight_cache = {},
    seen = {}, count = 0, known_edges = 0, rows = 0, looks = 0, moves = 0,
    routes = pathtable.new({ nodes = n, edges = closed_edges }), pos = start,
  }, Explorer)
  return self
end

local SPEC_EXTRA = { sight = true, start = true, known = true }

--- explore.new{nodes =, edges =, sight =, start = [, known =]} -> explorer
function M.new(spec)
  local fname = "wayfinder.explore.new"
  local n, ea, eb, cost, oneway = graph_spec.parse(fname, spec, SPEC_EXTRA)
  local sight = spec.sight
  local sight_table, sight_fn
  if type(sight) == "function" then
    sight_fn = sight
  elseif type(sight) == "table" then
    for k, list in pairs(sight) do
      if not is_integer(k) or k < 1 or k > n then
        fail(fname, "spec.sight has a key that is not a node in [1, %d]: %s", n, describe(k))
      end
      if type(list) ~= "table" then
        fail(fname, "spec.sight[%d] must be a table, got %s", k, describe(list))
      end
      for i = 1, #list do
        local u = list[i]
        if not is_integer(u) or u < 1 or u > n then
          fail(fname, "spec.sight[%d][%d] must be a node in [1, %d], got %s", k, i, n, describe(u))
        end
      end
    end
    sight_table = sight
  elseif sight == nil then
    sight_table = {}
  else
    fail(fname, "spec.sight must be a table or a function, got %s", describe(sight))
  end
  local start = spec.start
  if not is_integer(start) or start < 1 or start > n then
    fail(fname, "spec.start must be a node in [1, %d], got %s", n, describe(start))
  end
  local known = spec.known
  if known ~= nil then
    if type(known) ~= "table" then
      fail(fname, "spec.known must be a table, got %s", describe(known))
    end
    for i = 1, #known do
      local u = known[i]
      if not is_integer(u) or u < 1 or u > n then
        fail(fname, "spec.known[%d] must be a node in [1, %d], got %s", i, n, describe(u))
      end
    end
  end
  local self = make(n, ea, eb, cost, oneway, sight_table, sight_fn, start)
  if known then
    local list = {}
    for i = 1, #known do list[i] = known[i] end
    learn(self, list)
  end
  look_from(self, start)
  return self
end

-- ----------------------------------------------------------- queries --

--- explorer:position() -> node
function Explorer:position() return self.pos end

--- explorer:node_count() -> n
function Explorer:node_count() return self.n end

--- explorer:known(node) -> boolean
function Explorer:known(v)
  check_node("explorer:known", "node", self.n, v)
  return self.seen[v] == true
end

--- explorer:known_count() -> number of nodes seen
function Explorer:known_count() return self.count end

--- explorer:known_nodes() -> the seen nodes, increasing
function Explorer:known_nodes()
  local out = {}
  for v = 1, self.n do
    if self.seen[v] then out[#out + 1] = v end
  end
  return out
end

--- explorer:sight(node) -> the nodes of node's sight list, increasing
function Explorer:sight(v)
  check_node("explorer:sight", "node", self.n, v)
  local out = {}
  for i, u in ipairs(sight_of(self, v)) do out[i] = u end
  return out
end

--- explorer:table() -> the route table over the known edges (read only)
function Explorer:table() return self.routes end

--- explorer:graph() -> {nodes =, edges =}: the whole graph, as pathtable.new takes it
function Explorer:graph()
  local edges = {}
  for i = 1, #self.ea do
    edges[i] = { self.ea[i], self.eb[i], self.cost[i], one_way = self.oneway[i] or nil }
  end
  return { nodes = self.n, edges = edges }
end

-- True when known node v has a neighbour not seen yet.
local function is_frontier(self, v)
  for _, e in ipairs(self.inc[v]) do
    if not self.seen[self.ea[e]] or not self.seen[self.eb[e]] then return true end
  end
  return false
end

--- explorer:frontier() -> node, cost | nil, "explored" | nil, "unreachable"
-- The nearest known node with an unseen neighbour, by the known table's
-- cost from the agent (ties: the lower node).
function Explorer:frontier()
  local best, best_cost
  local any = false
  for v = 1, self.n do
    if self.seen[v] and is_frontier(self, v) then
      any = true
      local d = self.routes:distance(self.pos, v)
      if d and (best_cost == nil or d < best_cost) then best, best_cost = v, d end
    end
  end
  if best then return best, best_cost end
  if any then return nil, "unreachable" end
  return nil, "explored"
end

--- explorer:explored() -> true when no known node has an unseen neighbour
function Explorer:explored()
  for v = 1, self.n do
    if self.seen[v] and is_frontier(self, v) then return false end
  end
  return true
end

local function check_target(self, fname, to)
  check_node(fname, "to", self.n, to)
  if not self.seen[to] then return false end
  return true
end

--- explorer:next_hop(to) -> node | nil, "arrived" | "unknown" | "unreachable"
function Explorer:next_hop(to)
  if not check_target(self, "explorer:next_hop", to) then return nil, "unknown" end
  return self.routes:next_hop(self.pos, to)
end

--- explorer:route(to) -> nodes, cost | nil, "unknown" | "unreachable"
function Explorer:route(to)
  if not check_target(self, "explorer:route", to) then return nil, "unknown" end
  return self.routes:route(self.pos, to)
end

--- explorer:distance(to) -> cost | nil, "unknown" | "unreachable"
function Explorer:distance(to)
  if not check_target(self, "explorer:distance", to) then return nil, "unknown" end
  return self.routes:distance(self.pos, to)
end

-- ----------------------------------------------------------- moving --

--- explorer:arrive(node) -> newly seen nodes
-- The agent now stands on node (seen at once, whether known before or
-- not) and looks round.
function Explorer:arrive(v)
  check_node("explorer:arrive", "node", self.n, v)
  self.pos = v
  self.moves = self.moves + 1
  return look_from(self, v)
end

--- explorer:look() -> newly seen nodes (looks again where it stands)
function Explorer:look()
  return look_from(self, self.pos)
end

--- explorer:step() -> node, newly seen | nil, "explored" | "unreachable"
-- One move along the known table toward the nearest frontier node, then a
-- look round.
function Explorer:step()
  local target, why = self:frontier()
  if not target then return nil, why end
  local nxt = self.routes:next_hop(self.pos, target)
  return nxt, self:arrive(nxt)
end

--- explorer:step_to(to) -> node, newly seen | nil, "arrived" | "unknown" | "unreachable"
-- One move along the known table toward a known node.
function Explorer:step_to(to)
  local nxt, why = self:next_hop(to)
  if not nxt then return nil, why end
  return nxt, self:arrive(nxt)
end

--- explorer:stats() -> {known, known_edges, rows_searched, looks, moves}
function Explorer:stats()
  return { known = self.count, known_edges = self.known_edges, rows_searched = self.rows,
    looks = self.looks, moves = self.moves }
end

-- -------------------------------------------------------------- grids --

local GRID_KEYS = { class = true, range = true }

--- explore.from_grid(grid, x, y [, options]) -> explorer
-- Nodes are the class's passable navcells (row-major, at most
-- pathtable.MAX_NODES); edges the grid's steps (eight directions, a
-- diagonal only past two passable sides; grid:find_path's cost units);
-- the sight table holds the navcells within options.range (default 8)
-- in line of sight, worked out when first needed.
function M.from_grid(grid, x, y, options)
  local fname = "wayfinder.explore.from_grid"
  if not util.is_grid(grid) then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if options == nil then options = {} end
  if type(options) ~= "table" then fail(fname, "options must be a table, got %s", describe(options)) end
  for k in pairs(options) do
    if not GRID_KEYS[k] then fail(fname, "unknown options key %s", describe(k)) end
  end
  local class = options.class
  if class == nil then
    class = grid:classes()[1].name
  else
    local found = false
    for _, c in ipairs(grid:classes()) do
      if c.name == class then found = true end
    end
    if not found then fail(fname, "options.class must name a class of the grid, got %s", describe(class)) end
  end
  local range = options.range
  if range == nil then range = 8 end
  if not is_integer(range) or range < 1 or range > MAX_RANGE then
    fail(fname, "options.range must be an integer in [1, %d], got %s", MAX_RANGE, describe(range))
  end
  local W, H = grid:width(), grid:height()
  if not is_integer(x) or x < 0 or x >= W then
    fail(fname, "x must be an integer in [0, %d), got %s", W, describe(x))
  end
  if not is_integer(y) or y < 0 or y >= H then
    fail(fname, "y must be an integer in [0, %d), got %s", H, describe(y))
  end
  if not grid:is_passable(x, y, class) then fail(fname, "the start (%d, %d) is blocked", x, y) end
  local index, xs, ys = {}, {}, {}
  local n = 0
  for cy = 0, H - 1 do
    for cx = 0, W - 1 do
      if grid:is_passable(cx, cy, class) then
        n = n + 1
        if n > pathtable.MAX_NODES then
          fail(fname, "grid must have at most %d passable navcells, got more", pathtable.MAX_NODES)
        end
        index[cy * W + cx] = n
        xs[n], ys[n] = cx, cy
      end
    end
  end
  local function at(cx, cy)
    if cx < 0 or cy < 0 or cx >= W or cy >= H then return nil end
    return index[cy * W + cx]
  end
  local ea, eb, cost, oneway = {}, {}, {}, {}
  local function add(a, b, c)
    local i = #ea + 1
    ea[i], eb[i], cost[i], oneway[i] = a, b, c, false
  end
  for v = 1, n do
    local cx, cy = xs[v], ys[v]
    local e, s = at(cx + 1, cy), at(cx, cy + 1)
    if e then add(v, e, ORTHO) end
    if s then add(v, s, ORTHO) end
    if e and s then
      local se = at(cx + 1, cy + 1)
      if se then add(v, se, DIAG) end
    end
    local w = at(cx - 1, cy)
    if w and s then
      local sw = at(cx - 1, cy + 1)
      if sw then add(v, sw, DIAG) end
    end
  end
  local r2 = range * range
  local function sight(v)
    local cx, cy = xs[v], ys[v]
    local out = {}
    for oy = math.max(0, cy - range), math.min(H - 1, cy + range) do
      for ox = math.max(0, cx - range), math.min(W - 1, cx + range) do
        local u = index[oy * W + ox]
        if u and u ~= v and (ox - cx) * (ox - cx) + (oy - cy) * (oy - cy) <= r2
          and grid:line_of_sight(cx, cy, ox, oy, class) then
          out[#out + 1] = u
        end
      end
    end
    return out
  end
  local self = make(n, ea, eb, cost, oneway, nil, sight, index[y * W + x])
  self.grid_w, self.grid_h, self.index, self.xs, self.ys = W, H, index, xs, ys
  look_from(self, self.pos)
  return self
end

--- explorer:node_at(x, y) -> the node of navcell (x, y), or nil when blocked
function Explorer:node_at(x, y)
  local fname = "explorer:node_at"
  if not self.index then fail(fname, "the explorer was not made from a grid") end
  if not is_integer(x) or x < 0 or x >= self.grid_w then
    fail(fname, "x must be an integer in [0, %d), got %s", self.grid_w, describe(x))
  end
  if not is_integer(y) or y < 0 or y >= self.grid_h then
    fail(fname, "y must be an integer in [0, %d), got %s", self.grid_h, describe(y))
  end
  return self.index[y * self.grid_w + x]
end

--- explorer:navcell(node) -> x, y of a grid explorer's node
function Explorer:navcell(v)
  local fname = "explorer:navcell"
  if not self.index then fail(fname, "the explorer was not made from a grid") end
  check_node(fname, "node", self.n, v)
  return self.xs[v], self.ys[v]
end

M.ORTHO = ORTHO
M.DIAG = DIAG

return M
