--- wayfinder.graph.model: the graph object, its creation options
-- (surfaces, classes, abilities), its sectors, and the compiled copy the C
-- core searches (made again on the first query after a change).
local core = require("wayfinder.core")
local exact = require("wayfinder.graph.exact")
local C = require("wayfinder.graph.check")
local describe, fail, set = C.describe, C.fail, C.set
local check_coord, check_cost, check_table = C.check_coord, C.check_cost, C.check_table
local check_keys, check_name = C.check_keys, C.check_name
local MAX_MULT, MAX_SURFACES = C.MAX_MULT, C.MAX_SURFACES
local FLAG_ONE_WAY, FLAG_WALK = C.FLAG_ONE_WAY, C.FLAG_WALK
local is_integer = exact.is_integer

local M = {}

local Graph = {}
Graph.__index = Graph
Graph.__name = "wayfinder.Graph"
M.Graph = Graph

local NEW_KEYS = set { "surfaces", "classes", "abilities", "temporary_links",
  "waypath_bias" }

local function read_bias(fname, what, b)
  check_table(fname, what, b)
  local n, d = b[1], b[2]
  if not is_integer(n) or not is_integer(d) or n < 1 or d < 1 or n > 1000
    or d > 1000 or n > d then
    fail(fname, "%s must be {num, den} with integers 1 <= num <= den <= 1000, got {%s, %s}",
      what, describe(n), describe(d))
  end
  return { n, d }
end

-- A list: keys 1 to n and no other (so # and ipairs agree; a hole made
-- ipairs stop early and left a graph with fewer classes than its data).
local function check_list(fname, what, t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  for i = 1, n do
    if t[i] == nil then fail(fname, "%s must be a list with no holes, got none at [%d]", what, i) end
  end
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
  check_list(fname, "options.surfaces", surfaces)
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
  check_list(fname, "options.classes", classes)
  g.abilities, g.ability_index = {}, {}
  local abilities = options.abilities or {}
  check_table(fname, "options.abilities", abilities)
  check_list(fname, "options.abilities", abilities)
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
        if not is_integer(m) or m < 0 or m > MAX_MULT then
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
  if not is_integer(tl) or tl < 1 or tl > 1024 then
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

-- ---------------------------------------------------------- compile --

local FAULT_TEXT = {
  box = "sector %d has an empty box or one outside the limit",
  surface = "sector %d has a bad surface",
  danger = "sector %d has a bad danger",
  overlap = "sectors %d and %d overlap",
  nowhere = "portal %d leads to a sector that does not exist",
  cost = "portal %d has a bad cost",
  span = "portal %d has a span outside sector %d",
  walk = "walk portal %d has differing spans or joins a sector to itself",
}

-- the core's numbers for sector s at t[k + 1 ..]
local function put_sector(self, t, k, s)
  t[k + 1], t[k + 2], t[k + 3], t[k + 4] = s.x0, s.y0, s.x1, s.y1
  t[k + 5], t[k + 6] = self.surface_index[s.surface] - 1, s.danger
end

-- the core's numbers for portal record p at t[k + 1 ..]
local function put_portal(t, k, p)
  local flags = (p.one_way and FLAG_ONE_WAY or 0)
    + (p.kind == "walk" and p.span and FLAG_WALK or 0)
  local sa = p.span or { p.from[1], p.from[2], p.from[1], p.from[2] }
  local sb = p.span or { p.to[1], p.to[2], p.to[1], p.to[2] }
  t[k + 1], t[k + 2] = p.a - 1, p.b - 1
  t[k + 3], t[k + 4], t[k + 5], t[k + 6] = sa[1], sa[2], sa[3], sa[4]
  t[k + 7], t[k + 8], t[k + 9], t[k + 10] = sb[1], sb[2], sb[3], sb[4]
  t[k + 11], t[k + 12], t[k + 13], t[k + 14] = p.cost, p.classes, p.needs, flags
  t[k + 15] = p.schedule and p.schedule.period or 0
  t[k + 16] = p.schedule and p.schedule.offset or 0
end

local function compile(self)
  if self.compiled then return self.compiled end
  local secs, pors, ids = {}, {}, {}
  for i, s in ipairs(self.sectors) do put_sector(self, secs, 6 * (i - 1), s) end
  for i, id in ipairs(self.order) do
    put_portal(pors, 16 * (i - 1), self.recs[id])
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

--- The compiled graph after an incremental update, patched from the one
-- compiled before it (`old`, which matched the graph then) instead of
-- compiled whole: `change` lists the old sector indices removed
-- (drop_sectors), the old compiled portal indices removed (drop_portals),
-- the kept portals whose sectors are not simply renumbered (moved: {old
-- index, a, b}), and the sectors and portals added, which follow the
-- kept ones in self.sectors and self.order. The core makes the same
-- graph a full compile would. Returns nil when the core refuses the
-- result (the next query then compiles whole and reports why).
function M.patch(self, old, change)
  local secs, pors, moved = {}, {}, {}
  for i, s in ipairs(change.add_sectors) do put_sector(self, secs, 6 * (i - 1), s) end
  for i, p in ipairs(change.add_portals) do put_portal(pors, 16 * (i - 1), p) end
  for _, m in ipairs(change.moved) do
    moved[#moved + 1], moved[#moved + 2], moved[#moved + 3] = m[1], m[2] - 1, m[3] - 1
  end
  local ud = core.graph_patch(old.ud, change.drop_sectors, secs, change.drop_portals, moved, pors)
  if not ud then return nil end
  local ids = {}
  for i, id in ipairs(self.order) do ids[i] = id end
  return { ud = ud, ids = ids, search = nil }
end

M.compile = compile

--- After portals and links were removed from self.recs: clears the exits
-- that led to a removed record and drops removed ids from the temporary
-- links' list and from every waypath's links.
function M.forget_removed(self)
  for _, id in ipairs(self.order) do
    local p = self.recs[id]
    if p and p.exit and not self.recs[p.exit] then p.exit = nil end
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
end

-- ----------------------------------------------------------- sectors --

local SECTOR_KEYS = set { "x0", "y0", "x1", "y1", "surface", "danger", "name" }

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
  if not is_integer(id) or id < 1 or id > #self.sectors then
    fail(fname, "%s must be a sector id in [1, %d], got %s", what, #self.sectors, describe(id))
  end
  return id
end

M.check_sector = check_sector

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
  local c = compile(self)
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
--- graph:memory() -> bytes of the compiled core graph
function Graph:memory()
  return core.graph_memory(compile(self).ud)
end

return M
