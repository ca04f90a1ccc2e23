--- wayfinder.graph.links: portals between sectors, annotated links
-- (mechanisms, actions, classes, abilities), teleport exits, temporary
-- jump links in a first-in-first-out bucket, and innate waypaths.
local exact = require("wayfinder.graph.exact")
local model = require("wayfinder.graph.model")
local C = require("wayfinder.graph.check")
local describe, fail, set = C.describe, C.fail, C.set
local check_coord, check_cost, check_table = C.check_coord, C.check_cost, C.check_table
local check_keys, check_point, check_name = C.check_keys, C.check_point, C.check_name
local MAX_COST, FIX, ALL = C.MAX_COST, C.FIX, C.ALL
local dist_ceil = exact.dist_ceil
local is_integer, idiv, bit, set_bit = exact.is_integer, exact.idiv, exact.bit, exact.set_bit
local copy_list = exact.copy_list
local check_sector = model.check_sector

local M = {}
local Graph = model.Graph

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
    m = set_bit(m, k)
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
  if self.ability_index[p.kind] then needs_default = bit(self.ability_index[p.kind]) end
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
M.mask_of, M.shared_span, M.on_box, M.insert_portal = mask_of, shared_span, on_box, insert_portal

local PORTAL_KEYS = set { "a", "b", "span", "one_way", "cost", "classes", "needs",
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

local LINK_KEYS = set { "from", "to", "exit", "kind", "cost", "wait", "schedule", "one_way",
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
M.locate_point, M.resolve_exit = locate_point, resolve_exit

local SCHEDULE_KEYS = set { "period", "offset" }

--- A checked copy of an elevator schedule {period =, offset =}: period in
-- (0, 2^30], offset in [0, period) (default 0), both in navcells of cost.
function M.check_schedule(fname, what, t)
  check_table(fname, what, t)
  check_keys(fname, what, t, SCHEDULE_KEYS)
  local period = check_cost(fname, what .. ".period", t.period)
  local offset = check_cost(fname, what .. ".offset", t.offset or 0)
  if exact.to_fix(period) < 1 then
    fail(fname, "%s.period must be above 0, got %s", what, describe(period))
  end
  if exact.to_fix(offset) >= exact.to_fix(period) then
    fail(fname, "%s.offset must be below the period %s, got %s", what, describe(period),
      describe(offset))
  end
  return { period = period, offset = offset }
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
    if not is_integer(spec.exit) or not self.recs[spec.exit] then
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
  if spec.schedule ~= nil then
    if kind ~= "elevator" then fail(fname, "link.schedule is only for kind 'elevator'") end
    p.schedule = M.check_schedule(fname, "link.schedule", spec.schedule)
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
M.build_link = build_link

local function remove_portal(self, id)
  self.recs[id] = nil
  for k, v in ipairs(self.order) do
    if v == id then table.remove(self.order, k); break end
  end
  self.compiled = nil
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
    remove_portal(self, dropped)
  end
  local id = insert_portal(self, p)
  self.temporary[#self.temporary + 1] = id
  return id, dropped
end
--- graph:temporary_links() -> ids, oldest first
function Graph:temporary_links()
  return copy_list(self.temporary)
end

function Graph:portal(id)
  if not is_integer(id) or not self.recs[id] then
    fail("graph:portal", "id must be a portal id of this graph, got %s", describe(id))
  end
  local p = self.recs[id]
  local from = p.from or { p.span[1], p.span[2] }
  local to = p.to or { p.span[3], p.span[4] }
  return { id = id, kind = p.kind, a = p.a, b = p.b, from = { from[1], from[2] },
    to = { to[1], to[2] }, one_way = p.one_way, cost = p.cost, action = p.action,
    data = p.data, exit = p.exit, wait = p.wait, temporary = p.temporary or false,
    schedule = p.schedule and { period = p.schedule.period, offset = p.schedule.offset },
    waypath = p.waypath, class_mask = p.classes, needs_mask = p.needs,
    span = p.span and { p.span[1], p.span[2], p.span[3], p.span[4] } }
end

--- graph:portals() -> ids in ascending order
function Graph:portals()
  return copy_list(self.order)
end

-- --------------------------------------------------------- waypaths --

local WAYPATH_KEYS = set { "points", "one_way", "classes", "needs", "action", "data" }

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
    local biased = idiv(units * self.bias[1] + self.bias[2] - 1, self.bias[2])
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
return M
