--- wayfinder.graph.save: a graph as plain data and back, checking what it
-- reads: portals to nowhere, bad costs, teleport cycles, overlaps.
local util = require("wayfinder.util")
local exact = require("wayfinder.graph.exact")
local model = require("wayfinder.graph.model")
local links = require("wayfinder.graph.links")
local C = require("wayfinder.graph.check")
local describe, finite = C.describe, C.finite
local LIMIT, MAX_COST, ALL = C.LIMIT, C.MAX_COST, C.ALL
local compile, resolve_exit = model.compile, links.resolve_exit
local is_integer = exact.is_integer

local M = {}
local MAX_TILES = 1048576   -- as wayfinder.graph.from_world
local Graph = model.Graph

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
    t.sectors[i] = { s.x0, s.y0, s.x1, s.y1, s.surface, s.danger, name = s.name, region = s.region,
      room = s.room, world = s.world }
  end
  for i, id in ipairs(self.order) do
    local p = self.recs[id]
    t.portals[i] = { id = id, kind = p.kind, a = p.a, b = p.b,
      from = p.from and { p.from[1], p.from[2] }, to = p.to and { p.to[1], p.to[2] },
      span = p.span and { p.span[1], p.span[2], p.span[3], p.span[4] },
      one_way = p.one_way, cost = p.cost, classes = p.classes, needs = p.needs, action = p.action,
      data = util.plain_copy(p.data, ("portal %d data"):format(id), fname),
      exit = p.exit, wait = p.wait, waypath = p.waypath,
      schedule = p.schedule and { period = p.schedule.period, offset = p.schedule.offset },
      world = p.world, door = p.door }
  end
  for i, id in ipairs(self.temporary) do t.temporary[i] = id end
  t.waypaths = {}
  for i, w in ipairs(self.waypaths) do
    local pts = {}
    for k, pt in ipairs(w.points) do pts[k] = { pt[1], pt[2] } end
    t.waypaths[i] = { points = pts, links = exact.copy_list(w.links),
      one_way = w.one_way }
  end
  local b = self.world_build
  if b then
    t.world = { kind = b.kind, door_cost = b.door_cost, width = b.w, height = b.h }
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
  local ok, g = pcall(model.new, { surfaces = t.surfaces, classes = t.classes,
    abilities = t.abilities, temporary_links = t.temporary_links, waypath_bias = t.waypath_bias })
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
    if s.world ~= nil and s.world ~= true then load_error("sector %d has a bad world mark", i) end
    if s.room ~= nil and (not is_integer(s.room) or s.room < 0 or s.room > MAX_TILES) then
      load_error("sector %d has a bad room %s", i, describe(s.room))
    end
    g.sectors[i] = { x0 = s[1], y0 = s[2], x1 = s[3], y1 = s[4], surface = s[5], danger = s[6],
      name = s.name, region = s.region, room = s.room, world = s.world }
  end
  local last = 0
  for i, p in ipairs(t.portals) do
    if type(p) ~= "table" then load_error("portal %d must be a table", i) end
    if not is_integer(p.id) or p.id <= last then
      load_error("portal %d has a bad or unordered id %s", i, describe(p.id))
    end
    last = p.id
    if type(p.kind) ~= "string" then load_error("portal %d has a bad kind", p.id) end
    for _, k in ipairs({ "a", "b" }) do
      if not is_integer(p[k]) or p[k] < 1 or p[k] > #g.sectors then
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
    if not is_integer(p.classes) or not is_integer(p.needs)
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
    if p.world ~= nil then
      if (p.world ~= "walk" or p.kind ~= "walk" or p.span == nil)
        and (p.world ~= "door" or not is_integer(p.door) or p.door < 1 or p.door > 0x7fffffff) then
        load_error("portal %d has a bad world mark", p.id)
      end
      g.recs[p.id].world, g.recs[p.id].door = p.world, p.door
    end
    if p.schedule ~= nil then
      local ok3, sched = pcall(links.check_schedule, fname, "schedule", p.schedule)
      if not ok3 then
        load_error("portal %d has a bad schedule: %s", p.id,
          (tostring(sched):gsub("^.-load: ", "", 1)))
      end
      g.recs[p.id].schedule = sched
    end
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
  if not is_integer(t.next_id) or t.next_id <= last then
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
  if t.world ~= nil then
    local b = t.world
    if type(b) ~= "table" or type(b.kind) ~= "string" or b.kind == "" or #b.kind > 64
      or (b.door_cost ~= nil and (not finite(b.door_cost) or b.door_cost < 0
        or b.door_cost > 1000000))
      or not is_integer(b.width) or not is_integer(b.height) or b.width < 1 or b.height < 1
      or b.width * b.height > MAX_TILES then
      load_error("data.world is malformed")
    end
    g.world_build = { kind = b.kind, door_cost = b.door_cost, w = b.width, h = b.height }
  end
  if t.grid_stats ~= nil then
    local gs = t.grid_stats
    if type(gs) ~= "table" then
      load_error("data.grid_stats must be a table, got %s", describe(gs))
    end
    local copy = {}
    for _, k in ipairs({ "navcells", "regions", "sectors", "portals" }) do
      local v = gs[k]
      if v ~= nil and (not is_integer(v) or v < 0 or v > 2 ^ 53) then
        load_error("data.grid_stats.%s must be a non-negative integer, got %s", k, describe(v))
      end
      copy[k] = v
    end
    for _, k in ipairs({ "class", "decomposition" }) do
      if gs[k] ~= nil and type(gs[k]) ~= "string" then
        load_error("data.grid_stats.%s must be a string, got %s", k, describe(gs[k]))
      end
      copy[k] = gs[k]
    end
    g.grid_stats = copy
  end
  local okc, cerr = pcall(compile, g)
  if not okc then load_error("%s", (tostring(cerr):gsub("^.-graph: ", "", 1))) end
  return g
end

return M
