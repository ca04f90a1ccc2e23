--- wayfinder.graph.build: graphs built from a grid (flood fill, then
-- boxes or a quadtree, and the portals between them), their incremental
-- update after grid edits, and the build statistics.
local core = require("wayfinder.core")
local model = require("wayfinder.graph.model")
local exact = require("wayfinder.graph.exact")
local graph_links = require("wayfinder.graph.links")
local C = require("wayfinder.graph.check")
local describe, fail, set = C.describe, C.fail, C.set
local check_table, check_keys, check_name = C.check_table, C.check_keys, C.check_name
local LIMIT, MAX_SURFACES, ALL = C.LIMIT, C.MAX_SURFACES, C.ALL
local insert_portal = graph_links.insert_portal
local is_integer, idiv = exact.is_integer, exact.idiv

local M = {}
local Graph = model.Graph

local GRID_KEYS = set { "class", "surfaces", "legend", "max_span", "classes",
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
  if not is_integer(span) or span < 1 or span > 16384 then
    fail(fname, "options.max_span must be an integer in [1, 16384], got %s", describe(span))
  end
  local max_box = options.max_box or 32
  if not is_integer(max_box) or max_box < 1 or max_box > 16384 then
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
      out[y] = string.char(exact.unpack(codes))
    end
    bytes = table.concat(out)
  end
  local g = model.new { surfaces = surface_names, classes = options.classes,
    abilities = options.abilities, temporary_links = options.temporary_links,
    waypath_bias = options.waypath_bias }
  local boxes, regions, portals, nregions = core.graph_boxes(grid, ci, bytes, span,
    decomposition == "quadtree", max_box)
  for k = 0, idiv(#boxes, 5) - 1 do
    g.sectors[k + 1] = { x0 = boxes[5 * k + 1], y0 = boxes[5 * k + 2], x1 = boxes[5 * k + 3],
      y1 = boxes[5 * k + 4], surface = surface_names[boxes[5 * k + 5] + 1], danger = 0,
      region = regions[k + 1], grid = true }
  end
  for k = 0, idiv(#portals, 6) - 1 do
    local span_ = { portals[6 * k + 3], portals[6 * k + 4], portals[6 * k + 5], portals[6 * k + 6] }
    insert_portal(g, { kind = "walk", a = portals[6 * k + 1] + 1, b = portals[6 * k + 2] + 1,
      span = span_, one_way = false,
      cost = 0, classes = ALL, needs = 0, auto = true })
  end
  local navcells = 0
  for k = 0, idiv(#boxes, 5) - 1 do
    navcells = navcells
      + (boxes[5 * k + 3] - boxes[5 * k + 1]) * (boxes[5 * k + 4] - boxes[5 * k + 2])
  end
  g.grid_stats = { navcells = navcells, regions = nregions, sectors = #g.sectors,
    portals = #g.order, class = classes[ci].name, decomposition = decomposition }
  g.source_grid = grid
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
  self.source_grid = grid
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
  local removed = idiv(#rects, 4)
  -- the changed rectangle itself: navcells that became passable
  rects[#rects + 1], rects[#rects + 2], rects[#rects + 3], rects[#rects + 4] = x0, y0, x1, y1
  local boxes = core.graph_boxes_in(grid, b.class_index, b.bytes, b.max_box, rects)
  local first_new = #kept + 1
  for k = 0, idiv(#boxes, 5) - 1 do
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
return M
