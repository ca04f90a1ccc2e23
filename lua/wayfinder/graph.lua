--- wayfinder.graph: navigation graphs of sectors (boxes) and portals, built
-- from a grid or by hand, with portal mechanisms (walk, teleport, elevator,
-- ladder, jump, drop or a named kind), actions, classes and abilities,
-- surfaces and danger, innate waypaths, temporary jump links, and a
-- time-sliced solver. The graph's description lives here as plain data;
-- the C core (core.graph_*) gets a compiled copy on the first query after
-- a change. See docs/graph.md.
local core = require("wayfinder.core")
local util = require("wayfinder.util")
local bezier = require("wayfinder.bezier")
local graph_queue = require("wayfinder.graph_queue")

local M = {}

local Graph = {}
Graph.__index = Graph
Graph.__name = "wayfinder.Graph"

local LIMIT <const> = 8192            -- |coordinate| accepted
local MAX_COST <const> = 2 ^ 30        -- largest cost or danger
local MAX_MULT <const> = 1000
local MAX_SURFACES <const> = 64
local FIX <const> = 65536
local FLAG_ONE_WAY <const> = 1
local FLAG_WALK <const> = 2
local ALL <const> = 0xffffffff

-- kinds the graph knows by name; any other name is a user kind
local KINDS <const> = { walk = true, teleport = true, elevator = true, ladder = true,
  jump = true, drop = true, waypath = true }

local describe = util.describe

local function fail(fname, fmt, ...)
  error(fname .. ": " .. fmt:format(...), 3)
end

local function finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

local function check_coord(fname, what, v)
  if not finite(v) or v < -LIMIT or v > LIMIT then
    fail(fname, "%s must be a number in [%d, %d], got %s", what, -LIMIT, LIMIT, describe(v))
  end
  return v
end

local function check_cost(fname, what, v)
  if not finite(v) or v < 0 or v > MAX_COST then
    fail(fname, "%s must be a number in [0, 2^30], got %s", what, describe(v))
  end
  return v
end

local function check_table(fname, what, v)
  if type(v) ~= "table" then fail(fname, "%s must be a table, got %s", what, describe(v)) end
  return v
end

local function check_keys(fname, what, t, allowed)
  for k in pairs(t) do
    if type(k) ~= "string" then fail(fname, "%s has a non-string key %s", what, describe(k)) end
    if not allowed[k] then fail(fname, "unknown %s key '%s'", what, k) end
  end
end

local function set(list)
  local s = {}
  for _, k in ipairs(list) do s[k] = true end
  return s
end

local function check_point(fname, what, p)
  check_table(fname, what, p)
  return { check_coord(fname, what .. "[1]", p[1] or p.x),
    check_coord(fname, what .. "[2]", p[2] or p.y) }
end

local function check_name(fname, what, v)
  if type(v) ~= "string" or v == "" or #v > 64 then
    fail(fname, "%s must be a non-empty string of at most 64 bytes, got %s", what, describe(v))
  end
  return v
end

-- ---------------------------------------------------- exact distances --

local function to_fix(v) return math.floor(v * FIX + 0.5) end

local function isqrt(n)
  local r = math.floor(math.sqrt(n))
  while r > 0 and r * r > n do r = r - 1 end
  while (r + 1) * (r + 1) <= n do r = r + 1 end
  return r
end

--- ceil of the distance between two world points, in 1/65536 navcell (the
-- cost model of docs/graph.md).
local function dist_ceil(ax, ay, bx, by)
  local dx, dy = to_fix(bx) - to_fix(ax), to_fix(by) - to_fix(ay)
  local n = dx * dx + dy * dy
  local r = isqrt(n)
  return r * r == n and r or r + 1
end

-- ---------------------------------------------------------- creation --

local NEW_KEYS <const> = set { "surfaces", "classes", "abilities", "temporary_links",
  "waypath_bias" }

local function read_bias(fname, what, b)
  check_table(fname, what, b)
  local n, d = b[1], b[2]
  if math.type(n) ~= "integer" or math.type(d) ~= "integer" or n < 1 or d < 1 or n > 1000
    or d > 1000 or n > d then
    fail(fname, "%s must be {num, den} with integers 1 <= num <= den <= 1000, got {%s, %s}",
      what, describe(n), describe(d))
  end
  return { n, d }
end

--- graph.new([options]) -> graph
function M.new(options)
  local fname = "wayfinder.graph.new"
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, NEW_KEYS)
  local g = setmetatable({}, Graph)
  g.surfaces = {}
  g.surface_index = {}
  local surfaces = options.surfaces or { "ground" }
  check_table(fname, "options.surfaces", surfaces)
  if #surfaces < 1 or #surfaces > MAX_SURFACES then
    fail(fname, "options.surfaces must list 1 to %d names, got %d", MAX_SURFACES, #surfaces)
  end
  for i, s in ipairs(surfaces) do
    check_name(fname, ("options.surfaces[%d]"):format(i), s)
    if g.surface_index[s] then fail(fname, "options.surfaces names '%s' twice", s) end
    g.surfaces[i] = s
    g.surface_index[s] = i
  end
  g.classes, g.class_index = {}, {}
  local classes = options.classes or { { name = "default" } }
  check_table(fname, "options.classes", classes)
  g.abilities, g.ability_index = {}, {}
  local abilities = options.abilities or {}
  check_table(fname, "options.abilities", abilities)
  if #classes < 1 or #classes > 32 then
    fail(fname, "options.classes must list 1 to 32 classes, got %d", #classes)
  end
  if #abilities > 32 then fail(fname, "options.abilities lists more than 32 names") end
  for i, c in ipairs(classes) do
    local what = ("options.classes[%d]"):format(i)
    check_table(fname, what, c)
    check_keys(fname, what, c, set { "name", "surfaces" })
    local name = check_name(fname, what .. ".name", c.name)
    if g.class_index[name] then fail(fname, "options.classes names '%s' twice", name) end
    local mult = {}
    if c.surfaces == nil then
      for k = 1, #g.surfaces do mult[k] = 1 end
    else
      check_table(fname, what .. ".surfaces", c.surfaces)
      for s, m in pairs(c.surfaces) do
        if not g.surface_index[s] then
          fail(fname, "%s.surfaces names an unknown surface %s", what, describe(s))
        end
        if math.type(m) ~= "integer" or m < 0 or m > MAX_MULT then
          fail(fname, "%s.surfaces.%s must be an integer in [0, %d], got %s", what, s,
            MAX_MULT, describe(m))
        end
        mult[g.surface_index[s]] = m
      end
    end
    g.classes[i] = { name = name, mult = mult }
    g.class_index[name] = i
  end
  for i, a in ipairs(abilities) do
    check_name(fname, ("options.abilities[%d]"):format(i), a)
    if g.ability_index[a] then fail(fname, "options.abilities names '%s' twice", a) end
    g.abilities[i] = a
    g.ability_index[a] = i
  end
  local tl = options.temporary_links or 8
  if math.type(tl) ~= "integer" or tl < 1 or tl > 1024 then
    fail(fname, "options.temporary_links must be an integer in [1, 1024], got %s", describe(tl))
  end
  g.temporary_cap = tl
  g.bias = read_bias(fname, "options.waypath_bias", options.waypath_bias or { 3, 4 })
  g.sectors = {}
  g.recs = {}             -- id -> portal record
  g.order = {}            -- live portal ids, ascending
  g.next_id = 1
  g.temporary = {}        -- FIFO of temporary link ids
  g.waypaths = {}
  g.compiled = nil
  return g
end

-- ----------------------------------------------------------- sectors --

local SECTOR_KEYS <const> = set { "x0", "y0", "x1", "y1", "surface", "danger", "name" }

local function boxes_overlap(a, b)
  return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1
end

--- graph:add_sector{x0=, y0=, x1=, y1= [, surface=] [, danger=] [, name=]} -> id
function Graph:add_sector(spec)
  local fname = "graph:add_sector"
  check_table(fname, "sector", spec)
  check_keys(fname, "sector", spec, SECTOR_KEYS)
  local s = {
    x0 = check_coord(fname, "sector.x0", spec.x0), y0 = check_coord(fname, "sector.y0", spec.y0),
    x1 = check_coord(fname, "sector.x1", spec.x1), y1 = check_coord(fname, "sector.y1", spec.y1),
  }
  if s.x0 >= s.x1 or s.y0 >= s.y1 then
    fail(fname, "sector box is empty: x0 %s, x1 %s, y0 %s, y1 %s", describe(s.x0),
      describe(s.x1), describe(s.y0), describe(s.y1))
  end
  local surface = spec.surface or self.surfaces[1]
  if not self.surface_index[surface] then
    fail(fname, "sector.surface must name a surface of this graph, got %s", describe(surface))
  end
  s.surface = surface
  s.danger = check_cost(fname, "sector.danger", spec.danger or 0)
  if spec.name ~= nil then s.name = check_name(fname, "sector.name", spec.name) end
  for i, o in ipairs(self.sectors) do
    if boxes_overlap(s, o) then fail(fname, "sector overlaps sector %d", i) end
  end
  self.sectors[#self.sectors + 1] = s
  self.compiled = nil
  return #self.sectors
end

local function check_sector(self, fname, what, id)
  if math.type(id) ~= "integer" or id < 1 or id > #self.sectors then
    fail(fname, "%s must be a sector id in [1, %d], got %s", what, #self.sectors, describe(id))
  end
  return id
end

--- graph:set_danger(sector, danger)
function Graph:set_danger(id, danger)
  local fname = "graph:set_danger"
  check_sector(self, fname, "sector", id)
  check_cost(fname, "danger", danger)
  self.sectors[id].danger = danger
  if self.compiled then core.graph_set_danger(self.compiled.ud, id, danger) end
end

--- graph:sector_at(x, y) -> id | nil
function Graph:sector_at(x, y)
  local fname = "graph:sector_at"
  check_coord(fname, "x", x)
  check_coord(fname, "y", y)
  local c = self:_compile()
  local id = core.graph_locate(c.ud, x, y)
  return id > 0 and id or nil
end

function Graph:sector(id)
  check_sector(self, "graph:sector", "id", id)
  local s = self.sectors[id]
  return { x0 = s.x0, y0 = s.y0, x1 = s.x1, y1 = s.y1, surface = s.surface, danger = s.danger,
    name = s.name, region = s.region }
end

function Graph:sector_count() return #self.sectors end
function Graph:portal_count() return #self.order end

-- ----------------------------------------------------------- portals --

local function mask_of(self, fname, what, list, index, default)
  if list == nil then return default end
  check_table(fname, what, list)
  local m = 0
  for i, name in ipairs(list) do
    local k = index[name]
    if not k then
      fail(fname, "%s[%d] must name a %s of this graph, got %s", what, i,
        index == self.class_index and "class" or "ability", describe(name))
    end
    m = m | (1 << (k - 1))
  end
  return m
end

-- The shared boundary of two boxes as a segment, or nil.
local function shared_span(a, b)
  local x0, x1 = math.max(a.x0, b.x0), math.min(a.x1, b.x1)
  local y0, y1 = math.max(a.y0, b.y0), math.min(a.y1, b.y1)
  if x0 == x1 and y0 < y1 then return { x0, y0, x1, y1 } end
  if y0 == y1 and x0 < x1 then return { x0, y0, x1, y1 } end
  return nil
end

local function on_box(s, x, y)
  return x >= s.x0 and x <= s.x1 and y >= s.y0 and y <= s.y1
end

local function common_fields(self, fname, spec, p)
  p.classes = mask_of(self, fname, "classes", spec.classes, self.class_index, ALL)
  local needs_default = 0
  if self.ability_index[p.kind] then needs_default = 1 << (self.ability_index[p.kind] - 1) end
  p.needs = mask_of(self, fname, "needs", spec.needs, self.ability_index, needs_default)
  if spec.action ~= nil then p.action = check_name(fname, "action", spec.action) end
  if spec.data ~= nil then p.data = spec.data end
end

local function insert_portal(self, p)
  local id = self.next_id
  self.next_id = id + 1
  p.id = id
  self.recs[id] = p
  self.order[#self.order + 1] = id
  self.compiled = nil
  return id
end

local PORTAL_KEYS <const> = set { "a", "b", "span", "one_way", "cost", "classes", "needs",
  "action", "data" }

--- graph:add_portal{a=, b= [, span=] [, one_way=] [, cost=] ...} -> id
function Graph:add_portal(spec)
  local fname = "graph:add_portal"
  check_table(fname, "portal", spec)
  check_keys(fname, "portal", spec, PORTAL_KEYS)
  local a = check_sector(self, fname, "portal.a", spec.a)
  local b = check_sector(self, fname, "portal.b", spec.b)
  if a == b then fail(fname, "portal.a and portal.b are the same sector %d", a) end
  local sa, sb = self.sectors[a], self.sectors[b]
  local span
  if spec.span == nil then
    span = shared_span(sa, sb)
    if not span then fail(fname, "sectors %d and %d do not share an edge", a, b) end
  else
    check_table(fname, "portal.span", spec.span)
    span = {}
    for k = 1, 4 do span[k] = check_coord(fname, ("portal.span[%d]"):format(k), spec.span[k]) end
    if not (on_box(sa, span[1], span[2]) and on_box(sa, span[3], span[4])
      and on_box(sb, span[1], span[2]) and on_box(sb, span[3], span[4])) then
      fail(fname, "portal.span does not lie on the shared edge of sectors %d and %d", a, b)
    end
  end
  if spec.one_way ~= nil and type(spec.one_way) ~= "boolean" then
    fail(fname, "portal.one_way must be a boolean, got %s", describe(spec.one_way))
  end
  local p = { kind = "walk", a = a, b = b, span = span, one_way = spec.one_way or false,
    cost = check_cost(fname, "portal.cost", spec.cost or 0) }
  common_fields(self, fname, spec, p)
  return insert_portal(self, p)
end

local LINK_KEYS <const> = set { "from", "to", "exit", "kind", "cost", "wait", "one_way",
  "classes", "needs", "action", "data", "from_sector", "to_sector" }

local function locate_point(self, fname, what, pt, given)
  if given ~= nil then
    local id = check_sector(self, fname, what .. "_sector", given)
    if not on_box(self.sectors[id], pt[1], pt[2]) then
      fail(fname, "%s point is not in sector %d", what, id)
    end
    return id
  end
  for i, s in ipairs(self.sectors) do
    if pt[1] >= s.x0 and pt[1] < s.x1 and pt[2] >= s.y0 and pt[2] < s.y1 then return i end
  end
  fail(fname, "%s point (%s, %s) is in no sector", what, describe(pt[1]), describe(pt[2]))
end

-- The teleport chain from link p: the final portal, or an error on a cycle.
local function resolve_exit(self, fname, p)
  local seen, chain, q = {}, {}, p
  while q.exit do
    if seen[q.id or 0] then
      fail(fname, "teleport cycle: %s", table.concat(chain, " -> "))
    end
    seen[q.id or 0] = true
    chain[#chain + 1] = tostring(q.id or "new")
    local nxt = self.recs[q.exit]
    if not nxt then fail(fname, "link exit %s is not a portal of this graph", describe(q.exit)) end
    if seen[nxt.id] then
      chain[#chain + 1] = tostring(nxt.id)
      fail(fname, "teleport cycle: %s", table.concat(chain, " -> "))
    end
    q = nxt
  end
  return q
end

local function build_link(self, fname, spec)
  check_table(fname, "link", spec)
  check_keys(fname, "link", spec, LINK_KEYS)
  local kind = spec.kind or "walk"
  check_name(fname, "link.kind", kind)
  local from = check_point(fname, "link.from", spec.from)
  local p = { kind = kind, from = from }
  p.a = locate_point(self, fname, "link.from", from, spec.from_sector)
  if spec.exit ~= nil then
    if kind ~= "teleport" then fail(fname, "link.exit is only for kind 'teleport'") end
    if spec.to ~= nil then fail(fname, "give link.to or link.exit, not both") end
    if math.type(spec.exit) ~= "integer" or not self.recs[spec.exit] then
      fail(fname, "link.exit must be a portal id of this graph, got %s", describe(spec.exit))
    end
    p.exit = spec.exit
    local last = resolve_exit(self, fname, p)
    local lt = last.to or { last.span[3], last.span[4] }
    p.to = { lt[1], lt[2] }
    p.b = last.b
  else
    p.to = check_point(fname, "link.to", spec.to)
    p.b = locate_point(self, fname, "link.to", p.to, spec.to_sector)
  end
  if spec.one_way ~= nil and type(spec.one_way) ~= "boolean" then
    fail(fname, "link.one_way must be a boolean, got %s", describe(spec.one_way))
  end
  local one_way = spec.one_way
  if one_way == nil then one_way = kind == "jump" or kind == "drop" or kind == "teleport" end
  if kind == "drop" and not one_way then fail(fname, "a 'drop' link is always one-way") end
  p.one_way = one_way
  local wait = 0
  if spec.wait ~= nil then
    if kind ~= "elevator" then fail(fname, "link.wait is only for kind 'elevator'") end
    wait = check_cost(fname, "link.wait", spec.wait)
    p.wait = wait
  end
  if spec.cost ~= nil then
    p.cost = check_cost(fname, "link.cost", spec.cost) + wait
  elseif kind == "teleport" then
    p.cost = wait
  else
    p.cost = dist_ceil(from[1], from[2], p.to[1], p.to[2]) / FIX + wait
  end
  if p.cost > MAX_COST then fail(fname, "link.cost plus link.wait exceeds 2^30") end
  common_fields(self, fname, spec, p)
  return p
end

--- graph:add_link{from=, to= | exit=, kind= ...} -> id
function Graph:add_link(spec)
  return insert_portal(self, build_link(self, "graph:add_link", spec))
end

--- graph:add_temporary_link{from=, to=, kind="jump", data=} -> id, dropped id
function Graph:add_temporary_link(spec)
  local fname = "graph:add_temporary_link"
  local p = build_link(self, fname, spec)
  p.temporary = true
  local dropped
  if #self.temporary >= self.temporary_cap then
    dropped = table.remove(self.temporary, 1)
    self:_remove(dropped)
  end
  local id = insert_portal(self, p)
  self.temporary[#self.temporary + 1] = id
  return id, dropped
end

function Graph:_remove(id)
  self.recs[id] = nil
  for k, v in ipairs(self.order) do
    if v == id then table.remove(self.order, k); break end
  end
  self.compiled = nil
end

--- graph:temporary_links() -> ids, oldest first
function Graph:temporary_links()
  return table.move(self.temporary, 1, #self.temporary, 1, {})
end

function Graph:portal(id)
  if math.type(id) ~= "integer" or not self.recs[id] then
    fail("graph:portal", "id must be a portal id of this graph, got %s", describe(id))
  end
  local p = self.recs[id]
  local from = p.from or { p.span[1], p.span[2] }
  local to = p.to or { p.span[3], p.span[4] }
  return { id = id, kind = p.kind, a = p.a, b = p.b, from = { from[1], from[2] },
    to = { to[1], to[2] }, one_way = p.one_way, cost = p.cost, action = p.action,
    data = p.data, exit = p.exit, wait = p.wait, temporary = p.temporary or false,
    waypath = p.waypath, class_mask = p.classes, needs_mask = p.needs,
    span = p.span and { p.span[1], p.span[2], p.span[3], p.span[4] } }
end

--- graph:portals() -> ids in ascending order
function Graph:portals()
  return table.move(self.order, 1, #self.order, 1, {})
end

-- --------------------------------------------------------- waypaths --

local WAYPATH_KEYS <const> = set { "points", "one_way", "classes", "needs", "action", "data" }

--- graph:add_waypath{points= {{x, y}, ...} [, one_way=] [, classes=]} -> waypath id, link ids
function Graph:add_waypath(spec)
  local fname = "graph:add_waypath"
  check_table(fname, "waypath", spec)
  check_keys(fname, "waypath", spec, WAYPATH_KEYS)
  check_table(fname, "waypath.points", spec.points)
  local n = #spec.points
  if n < 2 then fail(fname, "waypath.points must hold at least 2 points, got %d", n) end
  local pts, secs = {}, {}
  for i = 1, n do
    pts[i] = check_point(fname, ("waypath.points[%d]"):format(i), spec.points[i])
    secs[i] = locate_point(self, fname, ("waypath.points[%d]"):format(i), pts[i])
  end
  if spec.one_way ~= nil and type(spec.one_way) ~= "boolean" then
    fail(fname, "waypath.one_way must be a boolean, got %s", describe(spec.one_way))
  end
  local links = {}
  local wid = #self.waypaths + 1
  for i = 1, n - 1 do
    local units = dist_ceil(pts[i][1], pts[i][2], pts[i + 1][1], pts[i + 1][2])
    local biased = (units * self.bias[1] + self.bias[2] - 1) // self.bias[2]
    local p = { kind = "waypath", a = secs[i], b = secs[i + 1], from = pts[i], to = pts[i + 1],
      one_way = spec.one_way or false, cost = biased / FIX, waypath = wid }
    common_fields(self, fname, spec, p)
    links[i] = p
  end
  local ids = {}
  for i, p in ipairs(links) do ids[i] = insert_portal(self, p) end
  self.waypaths[wid] = { points = pts, links = ids, one_way = spec.one_way or false }
  return wid, ids
end

-- ---------------------------------------------------------- compile --

local FAULT_TEXT <const> = {
  box = "sector %d has an empty box or one outside the limit",
  surface = "sector %d has a bad surface",
  danger = "sector %d has a bad danger",
  overlap = "sectors %d and %d overlap",
  nowhere = "portal %d leads to a sector that does not exist",
  cost = "portal %d has a bad cost",
  span = "portal %d has a span outside sector %d",
  walk = "walk portal %d has differing spans or joins a sector to itself",
}

function Graph:_compile()
  if self.compiled then return self.compiled end
  local secs, pors, ids = {}, {}, {}
  local k = 0
  for _, s in ipairs(self.sectors) do
    secs[k + 1], secs[k + 2], secs[k + 3], secs[k + 4] = s.x0, s.y0, s.x1, s.y1
    secs[k + 5], secs[k + 6] = self.surface_index[s.surface] - 1, s.danger
    k = k + 6
  end
  k = 0
  for i, id in ipairs(self.order) do
    local p = self.recs[id]
    local flags = (p.one_way and FLAG_ONE_WAY or 0)
      | (p.kind == "walk" and p.span and FLAG_WALK or 0)
    local sa = p.span or { p.from[1], p.from[2], p.from[1], p.from[2] }
    local sb = p.span or { p.to[1], p.to[2], p.to[1], p.to[2] }
    pors[k + 1], pors[k + 2] = p.a - 1, p.b - 1
    pors[k + 3], pors[k + 4], pors[k + 5], pors[k + 6] = sa[1], sa[2], sa[3], sa[4]
    pors[k + 7], pors[k + 8], pors[k + 9], pors[k + 10] = sb[1], sb[2], sb[3], sb[4]
    pors[k + 11], pors[k + 12], pors[k + 13], pors[k + 14] = p.cost, p.classes, p.needs, flags
    k = k + 14
    ids[i] = id
  end
  local ud, fault, i, j = core.graph_compile(secs, pors)
  if not ud then
    if fault == "nowhere" or fault == "cost" or fault == "span" or fault == "walk" then
      i = ids[i]
    end
    error("graph: " .. FAULT_TEXT[fault]:format(i, j), 3)
  end
  self.compiled = { ud = ud, ids = ids, search = nil }
  return self.compiled
end

--- graph:memory() -> bytes of the compiled core graph
function Graph:memory()
  return core.graph_memory(self:_compile().ud)
end

-- ----------------------------------------------------------- solving --

local FIND_KEYS <const> = set { "class", "abilities", "weight" }

local function read_query(self, fname, sx, sy, gx, gy, options)
  check_coord(fname, "sx", sx)
  check_coord(fname, "sy", sy)
  check_coord(fname, "gx", gx)
  check_coord(fname, "gy", gy)
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, FIND_KEYS)
  local ci = 1
  if options.class ~= nil then
    ci = self.class_index[options.class]
    if not ci then
      fail(fname, "options.class must name a class of this graph, got %s", describe(options.class))
    end
  end
  local abil = ALL
  if options.abilities ~= nil then
    abil = mask_of(self, fname, "options.abilities", options.abilities, self.ability_index, 0)
  end
  local wnum, wden = 1, 1
  if options.weight ~= nil then
    local w = options.weight
    if not finite(w) or w < 1 or w > 10 then
      fail(fname, "options.weight must be a number in [1, 10], got %s", describe(w))
    end
    wnum, wden = math.floor(w * 100 + 0.5), 100
  end
  local rnum, rden = 1, 1
  if #self.waypaths > 0 then rnum, rden = self.bias[1], self.bias[2] end
  return { sx, sy, gx, gy, 1 << (ci - 1), abil, self.classes[ci].mult, wnum, wden, rnum, rden }
end

local function result_of(self, c, r)
  local corridor = {}
  for i, cidx in ipairs(r.portals) do
    local id = c.ids[cidx]
    local p = self.recs[id]
    corridor[i] = { portal = id, kind = p.kind, action = p.action, data = p.data,
      from_sector = r.sectors[i], to_sector = r.sectors[i + 1],
      reverse = r.dirs[i] == 1 }
  end
  local length = 0
  for i = 2, #r.points do
    local a, b = r.points[i - 1], r.points[i]
    length = length + math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
  end
  local via = {}
  for i, v in ipairs(r.via) do via[i] = v > 0 and c.ids[v] or false end
  return { points = r.points, via = via, corridor = corridor, sectors = r.sectors, cost = r.cost,
    cost_units = r.cost_units, expanded = r.expanded, length = length }
end

--- graph:curve(result [, options]) -> points, info
function Graph:curve(result, options)
  local fname = "graph:curve"
  check_table(fname, "result", result)
  if type(result.points) ~= "table" or type(result.sectors) ~= "table"
    or type(result.via) ~= "table" or #result.via ~= #result.points then
    fail(fname, "result must be a table returned by graph:find_path")
  end
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, set { "samples" })
  local samples = options.samples or 8
  if math.type(samples) ~= "integer" or samples < 1 or samples > 64 then
    fail(fname, "options.samples must be an integer in [1, 64], got %s", describe(samples))
  end
  local boxes = {}
  for i, id in ipairs(result.sectors) do
    local s = self.sectors[id]
    if math.type(id) ~= "integer" or not s then
      fail(fname, "result.sectors[%d] is not a sector of this graph", i)
    end
    boxes[i] = { s.x0, s.y0, s.x1, s.y1 }
  end
  for i, p in ipairs(result.points) do
    check_point(fname, ("result.points[%d]"):format(i), p)
  end
  return bezier.curve(result.points, boxes, result.via, samples)
end

local Solver = {}
Solver.__index = Solver
Solver.__name = "wayfinder.GraphSolver"

--- graph:begin_path(sx, sy, gx, gy [, options]) -> solver | nil, reason
function Graph:begin_path(sx, sy, gx, gy, options)
  local q = read_query(self, "graph:begin_path", sx, sy, gx, gy, options)
  local c = self:_compile()
  local search = core.graph_search()
  local ok, reason = core.graph_begin(search, c.ud, table.unpack(q, 1, 11))
  if not ok then return nil, reason end
  return setmetatable({ graph = self, compiled = c, search = search, done = false,
    finished = false }, Solver)
end

--- solver:step(budget) -> done, used
function Solver:step(budget)
  if math.type(budget) ~= "integer" or budget < 0 or budget > 2 ^ 53 then
    fail("solver:step", "budget must be an integer in [0, 2^53], got %s", describe(budget))
  end
  if self.finished then fail("solver:step", "the solver has finished") end
  if self.graph.compiled ~= self.compiled then self.changed = true; return true, 0 end
  local done, used = core.graph_step(self.search, budget)
  if done == nil then self.changed = true; return true, 0 end
  self.done = done
  return done, used
end

--- solver:finish() -> result | nil, reason, info
function Solver:finish()
  if self.finished then fail("solver:finish", "the solver has finished") end
  if not self.done and not self.changed then
    fail("solver:finish", "the search has not ended; step it")
  end
  self.finished = true
  if self.changed or self.graph.compiled ~= self.compiled then
    return nil, "graph_changed", { expanded = 0 }
  end
  local r, reason, info = core.graph_finish(self.search)
  if not r then return nil, reason, info end
  return result_of(self.graph, self.compiled, r)
end

--- graph:find_path(sx, sy, gx, gy [, options]) -> result | nil, reason, info
function Graph:find_path(sx, sy, gx, gy, options)
  local q = read_query(self, "graph:find_path", sx, sy, gx, gy, options)
  local c = self:_compile()
  c.search = c.search or core.graph_search()
  local ok, reason = core.graph_begin(c.search, c.ud, table.unpack(q, 1, 11))
  if not ok then return nil, reason, { expanded = 0 } end
  core.graph_step(c.search, 2 ^ 53)
  local r, why, info = core.graph_finish(c.search)
  if not r then return nil, why, info end
  return result_of(self, c, r)
end

-- -------------------------------------------------------- from grids --

local GRID_KEYS <const> = set { "class", "surfaces", "legend", "max_span", "classes",
  "abilities", "temporary_links", "waypath_bias", "decomposition", "max_box" }

--- graph.from_grid(grid [, options]) -> graph
function M.from_grid(grid, options)
  local fname = "wayfinder.graph.from_grid"
  if type(grid) ~= "userdata" then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, GRID_KEYS)
  local class = options.class
  local classes = grid:classes()
  local ci = 1
  if class ~= nil then
    ci = nil
    for i, c in ipairs(classes) do if c.name == class then ci = i end end
    if not ci then
      fail(fname, "options.class must name a class of the grid, got %s", describe(class))
    end
  end
  local span = options.max_span or 4
  if math.type(span) ~= "integer" or span < 1 or span > 16384 then
    fail(fname, "options.max_span must be an integer in [1, 16384], got %s", describe(span))
  end
  local max_box = options.max_box or 32
  if math.type(max_box) ~= "integer" or max_box < 1 or max_box > 16384 then
    fail(fname, "options.max_box must be an integer in [1, 16384], got %s", describe(max_box))
  end
  local decomposition = options.decomposition or "boxes"
  if decomposition ~= "boxes" and decomposition ~= "quadtree" then
    fail(fname, "options.decomposition must be 'boxes' or 'quadtree', got %s",
      describe(decomposition))
  end
  local w, h = grid:width(), grid:height()
  if w > LIMIT or h > LIMIT then fail(fname, "grid must be at most %d navcells a side", LIMIT) end
  local surface_names = { "ground" }
  local bytes
  if options.surfaces ~= nil then
    check_table(fname, "options.surfaces", options.surfaces)
    check_table(fname, "options.legend", options.legend)
    if #options.surfaces ~= h then
      fail(fname, "options.surfaces must have %d rows, got %d", h, #options.surfaces)
    end
    surface_names = {}
    local code_of, chars = {}, {}
    local keys = {}
    for ch in pairs(options.legend) do keys[#keys + 1] = ch end
    table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
    for _, ch in ipairs(keys) do
      local name = options.legend[ch]
      if type(ch) ~= "string" or #ch ~= 1 then
        fail(fname, "options.legend keys must be single characters")
      end
      check_name(fname, "options.legend['" .. ch .. "']", name)
      if not code_of[name] then
        surface_names[#surface_names + 1] = name
        code_of[name] = #surface_names - 1
      end
      chars[ch] = code_of[name]
    end
    if #surface_names > MAX_SURFACES then fail(fname, "options.legend names too many surfaces") end
    local out = {}
    for y = 1, h do
      local row = options.surfaces[y]
      if type(row) ~= "string" or #row ~= w then
        fail(fname, "options.surfaces[%d] must be a string of %d characters, got %s",
          y, w, describe(row))
      end
      local codes = {}
      for x = 1, w do
        local c = chars[row:sub(x, x)]
        if not c then
          fail(fname, "options.surfaces[%d] has '%s' at %d, not in options.legend", y,
            row:sub(x, x), x)
        end
        codes[x] = c
      end
      out[y] = string.char(table.unpack(codes))
    end
    bytes = table.concat(out)
  end
  local g = M.new { surfaces = surface_names, classes = options.classes,
    abilities = options.abilities, temporary_links = options.temporary_links,
    waypath_bias = options.waypath_bias }
  local boxes, regions, portals, nregions = core.graph_boxes(grid, ci, bytes, span,
    decomposition == "quadtree", max_box)
  for k = 0, #boxes // 5 - 1 do
    g.sectors[k + 1] = { x0 = boxes[5 * k + 1], y0 = boxes[5 * k + 2], x1 = boxes[5 * k + 3],
      y1 = boxes[5 * k + 4], surface = surface_names[boxes[5 * k + 5] + 1], danger = 0,
      region = regions[k + 1], grid = true }
  end
  for k = 0, #portals // 6 - 1 do
    local span_ = { portals[6 * k + 3], portals[6 * k + 4], portals[6 * k + 5], portals[6 * k + 6] }
    insert_portal(g, { kind = "walk", a = portals[6 * k + 1] + 1, b = portals[6 * k + 2] + 1,
      span = span_, one_way = false,
      cost = 0, classes = ALL, needs = 0, auto = true })
  end
  local navcells = 0
  for k = 0, #boxes // 5 - 1 do
    navcells = navcells
      + (boxes[5 * k + 3] - boxes[5 * k + 1]) * (boxes[5 * k + 4] - boxes[5 * k + 2])
  end
  g.grid_stats = { navcells = navcells, regions = nregions, sectors = #g.sectors,
    portals = #g.order, class = classes[ci].name, decomposition = decomposition }
  g.grid_build = { w = w, h = h, class_index = ci, bytes = bytes, span = span,
    max_box = max_box, version = grid:version(), decomposition = decomposition,
    names = surface_names }
  return g
end

-- Portals of new box k (sector index) along one edge line: neighbour
-- sectors found by lookup in `lookup`; emits spans of at most `span`.
local function edge_links(out, lookup, k, fixed, t0, t1, vertical, outside, keep, span)
  local t = t0
  while t < t1 do
    local function at(u)
      local x, y
      if vertical then x, y = outside + 0.5, u + 0.5 else x, y = u + 0.5, outside + 0.5 end
      local id = core.graph_locate(lookup.ud, x, y)
      return id > 0 and lookup.index[id] or nil
    end
    local nb = at(t)
    local e = t + 1
    while e < t1 and e - t < span and at(e) == nb do e = e + 1 end
    if nb and keep(nb) then
      if vertical then
        out[#out + 1] = { k, nb, { fixed, t, fixed, e } }
      else
        out[#out + 1] = { k, nb, { t, fixed, e, fixed } }
      end
    end
    t = e
  end
end

--- graph:sync(grid) -> {removed =, added =, dropped = {ids}}
function Graph:sync(grid)
  local fname = "graph:sync"
  local b = self.grid_build
  if not b then fail(fname, "the graph was not built from a grid by this process") end
  if b.decomposition ~= "boxes" then
    fail(fname, "only graphs of boxes can be updated; rebuild a quadtree")
  end
  if type(grid) ~= "userdata" then
    fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if grid:width() ~= b.w or grid:height() ~= b.h then
    fail(fname, "grid is %dx%d, the graph was built from a %dx%d grid", grid:width(),
      grid:height(), b.w, b.h)
  end
  local x0, y0, x1, y1 = core.graph_grid_changed(grid, b.version)
  b.version = grid:version()
  if x0 == false then return { removed = 0, added = 0, dropped = {} } end
  if x0 == "all" then x0, y0, x1, y1 = 0, 0, b.w - 1, b.h - 1 end
  -- clearance and the diagonal rule reach one navcell past the change
  x0, y0 = math.max(0, x0 - 1), math.max(0, y0 - 1)
  x1, y1 = math.min(b.w, x1 + 2), math.min(b.h, y1 + 2)
  local kept, remap, rects = {}, {}, {}
  for i, s in ipairs(self.sectors) do
    if s.grid and s.x0 < x1 and x0 < s.x1 and s.y0 < y1 and y0 < s.y1 then
      rects[#rects + 1], rects[#rects + 2], rects[#rects + 3], rects[#rects + 4] =
        s.x0, s.y0, s.x1, s.y1
    else
      kept[#kept + 1] = s
      remap[i] = #kept
    end
  end
  local removed = #rects // 4
  -- the changed rectangle itself: navcells that became passable
  rects[#rects + 1], rects[#rects + 2], rects[#rects + 3], rects[#rects + 4] = x0, y0, x1, y1
  local boxes = core.graph_boxes_in(grid, b.class_index, b.bytes, b.max_box, rects)
  local first_new = #kept + 1
  for k = 0, #boxes // 5 - 1 do
    kept[#kept + 1] = { x0 = boxes[5 * k + 1], y0 = boxes[5 * k + 2], x1 = boxes[5 * k + 3],
      y1 = boxes[5 * k + 4], surface = b.names[boxes[5 * k + 5] + 1], danger = 0, grid = true }
  end
  local function new_sector_at(pt)
    for i = first_new, #kept do
      local s = kept[i]
      if pt[1] >= s.x0 and pt[1] < s.x1 and pt[2] >= s.y0 and pt[2] < s.y1 then return i end
    end
    return nil
  end
  -- portals and links: remap, relocate or drop
  local dropped, order = {}, {}
  for _, id in ipairs(self.order) do
    local p = self.recs[id]
    local a, bb = remap[p.a], remap[p.b]
    if not (a and bb) and not p.auto and not p.span then
      a = a or new_sector_at(p.from)
      bb = bb or new_sector_at(p.to)
    end
    if a and bb then
      p.a, p.b = a, bb
      order[#order + 1] = id
    else
      self.recs[id] = nil
      if not p.auto then dropped[#dropped + 1] = id end
    end
  end
  self.order = order
  for _, p in pairs(self.recs) do
    if p.exit and not self.recs[p.exit] then p.exit = nil end
  end
  local live = {}
  for _, id in ipairs(self.temporary) do
    if self.recs[id] then live[#live + 1] = id end
  end
  self.temporary = live
  for _, w in ipairs(self.waypaths) do
    local ids = {}
    for _, id in ipairs(w.links) do
      if self.recs[id] then ids[#ids + 1] = id end
    end
    w.links = ids
  end
  self.sectors = kept
  -- portals of the new boxes: with old neighbours on every edge, with new
  -- ones on the right and bottom edges only (each pair once)
  -- the lookup holds only the sectors that can touch a new box
  local nx0, ny0, nx1, ny1 = math.huge, math.huge, -math.huge, -math.huge
  for k = first_new, #kept do
    local s = kept[k]
    nx0, ny0 = math.min(nx0, s.x0 - 1), math.min(ny0, s.y0 - 1)
    nx1, ny1 = math.max(nx1, s.x1 + 1), math.max(ny1, s.y1 + 1)
  end
  local flat, index = {}, {}
  for i, s in ipairs(kept) do
    if s.x0 < nx1 and nx0 < s.x1 and s.y0 < ny1 and ny0 < s.y1 then
      flat[#flat + 1], flat[#flat + 2], flat[#flat + 3], flat[#flat + 4] = s.x0, s.y0, s.x1, s.y1
      flat[#flat + 1], flat[#flat + 2] = 0, 0
      index[#index + 1] = i
    end
  end
  local lookup = { ud = assert(core.graph_compile(flat, {})), index = index }
  local function old(nb) return nb < first_new end
  local function any() return true end
  local found = {}
  for k = first_new, #kept do
    local s = kept[k]
    if s.x1 < b.w then edge_links(found, lookup, k, s.x1, s.y0, s.y1, true, s.x1, any, b.span) end
    if s.y1 < b.h then edge_links(found, lookup, k, s.y1, s.x0, s.x1, false, s.y1, any, b.span) end
    if s.x0 > 0 then
      edge_links(found, lookup, k, s.x0, s.y0, s.y1, true, s.x0 - 1, old, b.span)
    end
    if s.y0 > 0 then
      edge_links(found, lookup, k, s.y0, s.x0, s.x1, false, s.y0 - 1, old, b.span)
    end
  end
  for _, f in ipairs(found) do
    insert_portal(self, { kind = "walk", a = f[1], b = f[2], span = f[3], one_way = false,
      cost = 0, classes = ALL, needs = 0, auto = true })
  end
  local navcells = 0
  for _, s in ipairs(kept) do
    if s.grid then navcells = navcells + (s.x1 - s.x0) * (s.y1 - s.y0) end
  end
  if self.grid_stats then
    self.grid_stats.navcells = navcells
    self.grid_stats.regions = nil
  end
  self.compiled = nil
  return { removed = removed, added = #kept - first_new + 1, dropped = dropped }
end

--- graph:stats() -> {sectors, portals, links, navcells?, regions?}
function Graph:stats()
  local links = 0
  for _, id in ipairs(self.order) do
    if self.recs[id].kind ~= "walk" or not self.recs[id].span then links = links + 1 end
  end
  local gs = self.grid_stats or {}
  return { sectors = #self.sectors, portals = #self.order - links, links = links,
    navcells = gs.navcells, regions = gs.regions, class = gs.class,
    decomposition = gs.decomposition }
end

-- ------------------------------------------------------- save / load --

--- graph:save() -> plain table
function Graph:save()
  local fname = "graph:save"
  local t = { format = "wayfinder.graph", version = 1, surfaces = {}, classes = {},
    abilities = {}, temporary_links = self.temporary_cap,
    waypath_bias = { self.bias[1], self.bias[2] },
    sectors = {}, portals = {}, temporary = {}, next_id = self.next_id }
  for i, s in ipairs(self.surfaces) do t.surfaces[i] = s end
  for i, a in ipairs(self.abilities) do t.abilities[i] = a end
  for i, c in ipairs(self.classes) do
    local m = {}
    for k, s in ipairs(self.surfaces) do if c.mult[k] then m[s] = c.mult[k] end end
    t.classes[i] = { name = c.name, surfaces = m }
  end
  for i, s in ipairs(self.sectors) do
    t.sectors[i] = { s.x0, s.y0, s.x1, s.y1, s.surface, s.danger, name = s.name, region = s.region }
  end
  for i, id in ipairs(self.order) do
    local p = self.recs[id]
    t.portals[i] = { id = id, kind = p.kind, a = p.a, b = p.b,
      from = p.from and { p.from[1], p.from[2] }, to = p.to and { p.to[1], p.to[2] },
      span = p.span and { p.span[1], p.span[2], p.span[3], p.span[4] },
      one_way = p.one_way, cost = p.cost, classes = p.classes, needs = p.needs, action = p.action,
      data = util.plain_copy(p.data, ("portal %d data"):format(id), fname),
      exit = p.exit, wait = p.wait, waypath = p.waypath }
  end
  for i, id in ipairs(self.temporary) do t.temporary[i] = id end
  t.waypaths = {}
  for i, w in ipairs(self.waypaths) do
    local pts = {}
    for k, pt in ipairs(w.points) do pts[k] = { pt[1], pt[2] } end
    t.waypaths[i] = { points = pts, links = table.move(w.links, 1, #w.links, 1, {}),
      one_way = w.one_way }
  end
  if self.grid_stats then
    t.grid_stats = util.plain_copy(self.grid_stats, "grid_stats", fname)
  end
  return t
end

local function load_error(fmt, ...)
  error("wayfinder.graph.load: " .. fmt:format(...), 3)
end

--- graph.load(t) -> graph
function M.load(t)
  local fname = "wayfinder.graph.load"
  if type(t) ~= "table" then load_error("data must be a table, got %s", describe(t)) end
  if t.format ~= "wayfinder.graph" or t.version ~= 1 then
    load_error("data is not a saved wayfinder graph of version 1")
  end
  for _, k in ipairs({ "sectors", "portals", "temporary", "waypaths", "classes", "surfaces" }) do
    if type(t[k]) ~= "table" then
      load_error("data.%s must be a table, got %s", k, describe(t[k]))
    end
  end
  local ok, g = pcall(M.new, { surfaces = t.surfaces, classes = t.classes, abilities = t.abilities,
    temporary_links = t.temporary_links, waypath_bias = t.waypath_bias })
  if not ok then load_error("%s", (tostring(g):gsub("^.-graph%.new: ", "", 1))) end
  for i, s in ipairs(t.sectors) do
    if type(s) ~= "table" then load_error("sector %d must be a table", i) end
    for k = 1, 4 do
      if not finite(s[k]) or s[k] < -LIMIT or s[k] > LIMIT then
        load_error("sector %d coordinate %d is %s", i, k, describe(s[k]))
      end
    end
    if s[1] >= s[3] or s[2] >= s[4] then load_error("sector %d has an empty box", i) end
    if not g.surface_index[s[5]] then
      load_error("sector %d has an unknown surface %s", i, describe(s[5]))
    end
    if not finite(s[6]) or s[6] < 0 or s[6] > MAX_COST then
      load_error("sector %d has a bad danger %s", i, describe(s[6]))
    end
    g.sectors[i] = { x0 = s[1], y0 = s[2], x1 = s[3], y1 = s[4], surface = s[5], danger = s[6],
      name = s.name, region = s.region }
  end
  local last = 0
  for i, p in ipairs(t.portals) do
    if type(p) ~= "table" then load_error("portal %d must be a table", i) end
    if math.type(p.id) ~= "integer" or p.id <= last then
      load_error("portal %d has a bad or unordered id %s", i, describe(p.id))
    end
    last = p.id
    if type(p.kind) ~= "string" then load_error("portal %d has a bad kind", p.id) end
    for _, k in ipairs({ "a", "b" }) do
      if math.type(p[k]) ~= "integer" or p[k] < 1 or p[k] > #g.sectors then
        load_error("portal %d leads to sector %s, which does not exist", p.id, describe(p[k]))
      end
    end
    for _, k in ipairs({ "from", "to" }) do
      if (p.span == nil or p[k] ~= nil)
        and (type(p[k]) ~= "table" or not finite(p[k][1]) or not finite(p[k][2])) then
        load_error("portal %d has a bad %s point", p.id, k)
      end
    end
    if not finite(p.cost) or p.cost < 0 or p.cost > MAX_COST then
      load_error("portal %d has a negative or bad cost %s", p.id, describe(p.cost))
    end
    if math.type(p.classes) ~= "integer" or math.type(p.needs) ~= "integer"
      or p.classes < 0 or p.classes > ALL or p.needs < 0 or p.needs > ALL then
      load_error("portal %d has bad classes or needs masks", p.id)
    end
    if type(p.one_way) ~= "boolean" then load_error("portal %d has a bad one_way", p.id) end
    if p.span ~= nil and (type(p.span) ~= "table" or #p.span ~= 4) then
      load_error("portal %d has a bad span", p.id)
    end
    g.recs[p.id] = { id = p.id, kind = p.kind, a = p.a, b = p.b,
      from = p.from and { p.from[1], p.from[2] }, to = p.to and { p.to[1], p.to[2] },
      span = p.span and { p.span[1], p.span[2], p.span[3], p.span[4] }, one_way = p.one_way,
      cost = p.cost, classes = p.classes, needs = p.needs, action = p.action,
      data = util.plain_copy(p.data, ("portal %d data"):format(p.id), fname), exit = p.exit,
      wait = p.wait, waypath = p.waypath }
    g.order[i] = p.id
  end
  for _, id in ipairs(g.order) do
    local p = g.recs[id]
    if p.exit ~= nil then
      if p.kind ~= "teleport" then load_error("portal %d has an exit but is not a teleport", id) end
      local ok2, err = pcall(resolve_exit, g, fname, p)
      if not ok2 then load_error("%s", (tostring(err):gsub("^.-load: ", "", 1))) end
    end
  end
  if math.type(t.next_id) ~= "integer" or t.next_id <= last then
    load_error("data.next_id is bad")
  end
  g.next_id = t.next_id
  for i, id in ipairs(t.temporary) do
    if not g.recs[id] then load_error("temporary link %d is not a portal", i) end
    g.recs[id].temporary = true
    g.temporary[i] = id
  end
  for i, w in ipairs(t.waypaths) do
    if type(w) ~= "table" or type(w.points) ~= "table" or type(w.links) ~= "table" then
      load_error("waypath %d is malformed", i)
    end
    g.waypaths[i] = { points = w.points, links = w.links, one_way = w.one_way }
  end
  g.grid_stats = t.grid_stats
  local okc, cerr = pcall(g._compile, g)
  if not okc then load_error("%s", (tostring(cerr):gsub("^.-graph: ", "", 1))) end
  return g
end

--- graph.new_queue() -> a queue of graph path requests (graph_queue.lua)
function M.new_queue()
  return graph_queue.new()
end

M.LIMIT = LIMIT
M.KINDS = KINDS

return M
