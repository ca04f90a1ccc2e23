--- wayfinder.pathtable: next-hop tables over a weighted graph.
-- A table answers "I am at node a and go to node b: which node next?" by
-- one array read, and a whole route by repeated reads. It is built in one
-- call by a Dijkstra search from every node (so n searches, n*n entries),
-- and after an edge changes only the rows the change can touch are searched
-- again. Nodes are integers 1..n; costs are positive integers, so every
-- sum is exact. Helpers turn a house world's doors, a navigation graph or a
-- grid's regions into nodes and edges. See docs/pathtable.md.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local M = {}

local util = require("wayfinder.util")
local graph_spec = require("wayfinder.pathtable_spec")

local MAX_NODES = graph_spec.MAX_NODES
local MAX_COST = graph_spec.MAX_COST

local is_integer = util.is_integer
local fail = util.fail

-- strings in messages are cut after 40 characters
local function describe(v) return util.describe_arg(v, 40) end

local function check_table(fname, what, v)
  if type(v) ~= "table" then fail(fname, "%s must be a table, got %s", what, describe(v)) end
end

local function check_keys(fname, what, t, allowed)
  for k in pairs(t) do
    if type(k) ~= "string" then
      fail(fname, "%s has a non-string key %s", what, describe(k))
    elseif not allowed[k] then
      fail(fname, "unknown %s key '%s'", what, k)
    end
  end
end

-- ----------------------------------------------------------- dijkstra --

-- A binary heap of (dist, node), the lower node first on equal dist, so the
-- settle order (and with it every tie) depends only on the input.
local function heap_push(hd, hn, size, d, v)
  size = size + 1
  local i = size
  while i > 1 do
    local p = math.floor(i / 2)
    local pd, pv = hd[p], hn[p]
    if pd < d or (pd == d and pv < v) then break end
    hd[i], hn[i] = pd, pv
    i = p
  end
  hd[i], hn[i] = d, v
  return size
end

local function heap_pop(hd, hn, size)
  local d, v = hd[1], hn[1]
  local ld, lv = hd[size], hn[size]
  hd[size], hn[size] = nil, nil
  size = size - 1
  local i = 1
  while true do
    local c = 2 * i
    if c > size then break end
    if c < size then
      local ad, bd = hd[c], hd[c + 1]
      if bd < ad or (bd == ad and hn[c + 1] < hn[c]) then c = c + 1 end
    end
    local cd, cv = hd[c], hn[c]
    if ld < cd or (ld == cd and lv < cv) then break end
    hd[i], hn[i] = cd, cv
    i = c
  end
  if size > 0 then hd[i], hn[i] = ld, lv end
  return d, v, size
end

-- One Dijkstra from s, writing row s of dist and hop (offset (s-1)*n):
-- dist 0 = unreachable (except the source itself), hop = first node after s
-- on the route (0 for s and for unreachable nodes). Returns settled count.
local function search_row(self, s)
  local n, adj = self.n, self.adj
  local dist, hop = self.dist, self.hop
  local base = (s - 1) * n
  local d, first, done = {}, {}, {}
  local hd, hn, size = {}, {}, 0
  d[s] = 0
  size = heap_push(hd, hn, size, 0, s)
  local settled = 0
  while size > 0 do
    local du, u
    du, u, size = heap_pop(hd, hn, size)
    if not done[u] then
      done[u] = true
      settled = settled + 1
      local fu = first[u]
      local list = adj[u]
      for k = 1, #list, 2 do
        local e = list[k]
        local w = self.cost[e]
        if w then
          local v = list[k + 1]
          local nd = du + w
          local old = d[v]
          if not done[v] and (old == nil or nd < old) then
            d[v] = nd
            first[v] = fu or v
            size = heap_push(hd, hn, size, nd, v)
          end
        end
      end
    end
  end
  for v = 1, n do
    if v ~= s and done[v] then
      dist[base + v], hop[base + v] = d[v], first[v]
    else
      dist[base + v], hop[base + v] = 0, 0
    end
  end
  return settled
end

-- ------------------------------------------------------------- tables --

local Table = {}
Table.__index = Table
Table.__name = "wayfinder.PathTable"

function Table:__tostring()
  return string.format("wayfinder.PathTable (%d nodes, %d edges)", self.n, #self.ea)
end

local check_cost = graph_spec.check_cost

-- A table over checked edges (the arrays become the table's own).
local function make(n, ea, eb, cost, oneway)
  local count = #ea
  local adj = {}
  for v = 1, n do adj[v] = {} end
  for i = 1, count do
    local la = adj[ea[i]]
    la[#la + 1], la[#la + 2] = i, eb[i]
    if not oneway[i] then
      local lb = adj[eb[i]]
      lb[#lb + 1], lb[#lb + 2] = i, ea[i]
    end
  end
  local self = setmetatable({ n = n, ea = ea, eb = eb, cost = cost, oneway = oneway,
    adj = adj, dist = {}, hop = {} }, Table)
  for s = 1, n do search_row(self, s) end
  return self
end

--- pathtable.new{nodes = n, edges = {{a, b, cost [, one_way = true]}, ...}}
function M.new(spec)
  return make(graph_spec.parse("wayfinder.pathtable.new", spec))
end

local check_node = graph_spec.check_node

--- table:next_hop(from, to) -> node | nil, "arrived" | nil, "unreachable"
function Table:next_hop(from, to)
  check_node("pathtable:next_hop", "from", self.n, from)
  check_node("pathtable:next_hop", "to", self.n, to)
  if from == to then return nil, "arrived" end
  local h = self.hop[(from - 1) * self.n + to]
  if h == 0 then return nil, "unreachable" end
  return h
end

--- table:distance(from, to) -> cost | nil, "unreachable"
function Table:distance(from, to)
  check_node("pathtable:distance", "from", self.n, from)
  check_node("pathtable:distance", "to", self.n, to)
  if from == to then return 0 end
  local i = (from - 1) * self.n + to
  if self.hop[i] == 0 then return nil, "unreachable" end
  return self.dist[i]
end

--- table:route(from, to) -> {from, ..., to}, cost | nil, "unreachable"
function Table:route(from, to)
  check_node("pathtable:route", "from", self.n, from)
  check_node("pathtable:route", "to", self.n, to)
  local n, hop = self.n, self.hop
  local nodes = { from }
  if from ~= to and hop[(from - 1) * n + to] == 0 then return nil, "unreachable" end
  local cur = from
  while cur ~= to do
    cur = hop[(cur - 1) * n + to]
    nodes[#nodes + 1] = cur
  end
  if from == to then return nodes, 0 end
  return nodes, self.dist[(from - 1) * n + to]
end

--- table:node_count(), table:edge_count()
function Table:node_count() return self.n end
function Table:edge_count() return #self.ea end

--- table:edge(id) -> a, b, cost | false, one_way
function Table:edge(id)
  if not is_integer(id) or id < 1 or id > #self.ea then
    fail("pathtable:edge", "id must be an edge in [1, %d], got %s", #self.ea, describe(id))
  end
  return self.ea[id], self.eb[id], self.cost[id], self.oneway[id]
end

--- table:memory() -> bytes held by the two n*n arrays and the edges,
-- counted as 16 bytes per array slot (one Lua value).
function Table:memory()
  local n, e = self.n, #self.ea
  return 2 * n * n * 16 + e * 4 * 16 + (n + 2 * e) * 16
end

-- The row must be searched again when the edge can lie on one of its
-- routes now (old cost, edge tight) or after (new cost, edge would improve
-- or tie a route). Either direction of an undirected edge counts.
local function row_touched(self, s, a, b, old, new)
  local n, dist, hop = self.n, self.dist, self.hop
  local base = (s - 1) * n
  local function reach(v)
    if v == s then return 0 end
    if hop[base + v] == 0 then return nil end
    return dist[base + v]
  end
  local da, db = reach(a), reach(b)
  local function one(du, v)
    if du == nil then return false end
    local dv = reach(v)
    if old and dv ~= nil and du + old == dv then return true end
    if new and (dv == nil or du + new <= dv) then return true end
    return false
  end
  if one(da, b) then return true end
  if not self.oneway[self.current_edge] and one(db, a) then return true end
  return false
end

--- table:set_cost(id, cost | false) -> rows searched again
-- Changes one edge's cost (false takes it out), then searches again only
-- the rows whose routes the change can touch.
function Table:set_cost(id, cost)
  local fname = "pathtable:set_cost"
  if not is_integer(id) or id < 1 or id > #self.ea then
    fail(fname, "id must be an edge in [1, %d], got %s", #self.ea, describe(id))
  end
  if cost ~= false then check_cost(fname, "cost", cost) end
  local old = self.cost[id]
  if old == cost then return 0 end
  local a, b = self.ea[id], self.eb[id]
  self.current_edge = id
  local rows = {}
  for s = 1, self.n do
    if row_touched(self, s, a, b, old, cost) then rows[#rows + 1] = s end
  end
  self.current_edge = nil
  self.cost[id] = cost
  for _, s in ipairs(rows) do search_row(self, s) end
  return #rows
end

--- table:set_costs(changes) -> rows searched again
-- Changes several edges at once: changes is a sequence of {id, cost |
-- false}. A row is searched again when any change can touch it (as
-- set_cost), once; the others cannot change.
function Table:set_costs(changes)
  local fname = "pathtable:set_costs"
  check_table(fname, "changes", changes)
  local count = #changes
  local ids, costs = {}, {}
  for i = 1, count do
    local c = changes[i]
    local what = string.format("changes[%d]", i)
    check_table(fname, what, c)
    local id, cost = c[1], c[2]
    if not is_integer(id) or id < 1 or id > #self.ea then
      fail(fname, "%s[1] must be an edge in [1, %d], got %s", what, #self.ea, describe(id))
    end
    if cost ~= false then check_cost(fname, what .. "[2]", cost) end
    ids[i], costs[i] = id, cost
  end
  local old, seen = {}, {}
  for i = 1, count do
    local id = ids[i]
    if seen[id] == nil then seen[id] = self.cost[id] end
  end
  -- the final cost of each edge (a later change of the same edge wins)
  local final = {}
  for i = 1, count do final[ids[i]] = costs[i] end
  local changed = {}
  for i = 1, count do
    local id = ids[i]
    if not old[id] and seen[id] ~= final[id] then
      old[id] = true
      changed[#changed + 1] = id
    end
  end
  if #changed == 0 then return 0 end
  local rows = {}
  for s = 1, self.n do
    for _, id in ipairs(changed) do
      self.current_edge = id
      if row_touched(self, s, self.ea[id], self.eb[id], seen[id], final[id]) then
        rows[#rows + 1] = s
        break
      end
    end
  end
  self.current_edge = nil
  for _, id in ipairs(changed) do self.cost[id] = final[id] end
  for _, s in ipairs(rows) do search_row(self, s) end
  return #rows
end

--- table:rebuild() -> searches every row again (what set_cost avoids)
function Table:rebuild()
  for s = 1, self.n do search_row(self, s) end
  return self.n
end

-- ----------------------------------------------------------- helpers --

local function integer_options(fname, options, allowed)
  if options == nil then return {} end
  check_table(fname, "options", options)
  check_keys(fname, "options", options, allowed)
  return options
end

--- pathtable.from_doors(world [, options]) -> table, info
-- Nodes are the world's rooms; each active door is an edge between the
-- rooms on its two sides, costing options.cost(door) (default 1); a locked
-- door's edge starts with cost false. info.door_edge maps door ids to edge
-- ids, info.edge_door the reverse.
function M.from_doors(world, options)
  local fname = "wayfinder.pathtable.from_doors"
  if type(world) ~= "table" or type(world.doors) ~= "function"
    or type(world.room_at) ~= "function" or type(world.room_count) ~= "function" then
    fail(fname, "world must be a house world, got %s", describe(world))
  end
  options = integer_options(fname, options, { cost = true })
  if options.cost ~= nil and type(options.cost) ~= "function" then
    fail(fname, "options.cost must be a function, got %s", describe(options.cost))
  end
  local rooms = world:room_count()
  local edges, door_edge, edge_door = {}, {}, {}
  for _, d in ipairs(world:doors()) do
    local t = d.tiles
    local ra = world:room_at(t[1] + 0.5, t[2] + 0.5)
    local rb = world:room_at(t[3] + 0.5, t[4] + 0.5)
    if ra and rb and ra ~= rb then
      local c = 1
      if options.cost then
        c = options.cost(d)
        if c ~= false then check_cost(fname, "options.cost(door)", c) end
      end
      if d.locked then c = false end
      edges[#edges + 1] = { ra, rb, c }
      door_edge[d.id], edge_door[#edges] = #edges, d.id
    end
  end
  return M.new { nodes = rooms, edges = edges }, { door_edge = door_edge, edge_door = edge_door }
end

local function centre(s)
  return (s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2
end

--- pathtable.from_graph(graph [, options]) -> table, info
-- Nodes are the graph's sectors; each portal or link is an edge costing
-- the distance between the centres of its two sectors, in 1/options.scale
-- units (default 16) rounded, plus the portal's own cost, at least 1.
-- info.portal_edge maps portal ids to edge ids, info.edge_portal back.
function M.from_graph(graph, options)
  local fname = "wayfinder.pathtable.from_graph"
  if type(graph) ~= "table" or type(graph.sector_count) ~= "function"
    or type(graph.portals) ~= "function" then
    fail(fname, "graph must be a navigation graph, got %s", describe(graph))
  end
  options = integer_options(fname, options, { scale = true })
  local scale = options.scale or 16
  if not is_integer(scale) or scale < 1 or scale > 65536 then
    fail(fname, "options.scale must be an integer in [1, 65536], got %s", describe(scale))
  end
  local n = graph:sector_count()
  if n < 1 then fail(fname, "graph has no sectors") end
  local cx, cy = {}, {}
  for s = 1, n do cx[s], cy[s] = centre(graph:sector(s)) end
  local edges, portal_edge, edge_portal = {}, {}, {}
  for _, id in ipairs(graph:portals()) do
    local p = graph:portal(id)
    local dx, dy = cx[p.a] - cx[p.b], cy[p.a] - cy[p.b]
    local c = math.floor(math.sqrt(dx * dx + dy * dy) * scale + 0.5)
    if type(p.cost) == "number" then c = c + math.floor(p.cost * scale + 0.5) end
    if c < 1 then c = 1 end
    if c > MAX_COST then c = MAX_COST end
    edges[#edges + 1] = { p.a, p.b, c, one_way = p.one_way and true or nil }
    portal_edge[id], edge_portal[#edges] = #edges, id
  end
  local info = { portal_edge = portal_edge, edge_portal = edge_portal }
  return M.new { nodes = n, edges = edges }, info
end

--- pathtable.from_regions(grid [, options]) -> table, info, graph
-- The grid's regions as a navigation graph (wayfinder.graph.from_grid with
-- options.graph), then from_graph with options.scale.
function M.from_regions(grid, options)
  local fname = "wayfinder.pathtable.from_regions"
  options = integer_options(fname, options, { graph = true, scale = true })
  local graph = require("wayfinder.graph").from_grid(grid, options.graph)
  local t, info = M.from_graph(graph, { scale = options.scale })
  return t, info, graph
end

local grid_tables = require("wayfinder.pathtable_grid")
M.build_grid = grid_tables.build
M.load_grid = grid_tables.load
M.pursuer = require("wayfinder.pursuit").new
M.cache = require("wayfinder.pathcache").new

M.MAX_NODES = MAX_NODES
M.MAX_COST = MAX_COST

-- errors at the caller's line, named for the function or method called,
-- and a wrong self refused by name (tools/fuzz/api.lua looks for both)
for _, name in ipairs({ "new", "from_doors", "from_graph", "from_regions" }) do
  -- from_regions hands its grid to wayfinder.graph.from_grid, whose errors
  -- keep their name (docs/pathtable.md)
  M[name] = util.public_function("wayfinder.pathtable." .. name, M[name], name == "from_regions")
end
util.public_methods(Table, "pathtable", "a table from wayfinder.pathtable.new")

return M
