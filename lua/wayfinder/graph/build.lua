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

-- whether box s meets one of the rectangles (flat, 4 per rectangle)
local function meets(s, rects)
  for k = 1, #rects, 4 do
    if s.x0 < rects[k + 2] and rects[k] < s.x1 and s.y0 < rects[k + 3] and rects[k + 1] < s.y1 then
      return true
    end
  end
  return false
end

local function add_rect(rects, x0, y0, x1, y1)
  rects[#rects + 1], rects[#rects + 2], rects[#rects + 3], rects[#rects + 4] = x0, y0, x1, y1
end

-- The grid-built sectors to remove and the boxes to add for the changed
-- rectangle. Greedy boxes re-cover the removed boxes and the rectangle.
-- A quadtree's leaves depend only on their own navcells, so its new leaves
-- are found again from the root, visiting only squares that meet the
-- change: the leaves meeting it, then every leaf meeting those or the old
-- leaves they replace (a grown leaf can swallow old ones beside the
-- change); the result is the tree a rebuild makes.
local function recover(self, grid, b, x0, y0, x1, y1)
  local area = { x0, y0, x1, y1 }
  local quad = b.decomposition == "quadtree"
  if quad then
    local touching = core.graph_boxes_in(grid, b.class_index, b.bytes, b.max_box, area, true)
    for k = 1, #touching, 5 do
      add_rect(area, touching[k], touching[k + 1], touching[k + 2], touching[k + 3])
    end
  end
  local removed = {}
  for i, s in ipairs(self.sectors) do
    if s.grid and meets(s, area) then removed[i] = true end
  end
  local rects = {}
  for i, s in ipairs(self.sectors) do
    if removed[i] then add_rect(rects, s.x0, s.y0, s.x1, s.y1) end
  end
  for k = 1, #area do rects[#rects + 1] = area[k] end
  return removed, core.graph_boxes_in(grid, b.class_index, b.bytes, b.max_box, rects, quad)
end

--- graph:sync(grid) -> {removed =, added =, dropped = {ids}}
function Graph:sync(grid)
  local fname = "graph:sync"
  local b = self.grid_build
  if not b then fail(fname, "the graph was not built from a grid by this process") end
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
  local before = self.compiled
  local change = { drop_sectors = {}, drop_portals = {}, moved = {}, add_sectors = {},
    add_portals = {} }
  local gone, boxes = recover(self, grid, b, x0, y0, x1, y1)
  local kept, remap, removed = {}, {}, 0
  for i, s in ipairs(self.sectors) do
    if gone[i] then
      removed = removed + 1
      change.drop_sectors[#change.drop_sectors + 1] = i
    else
      kept[#kept + 1] = s
      remap[i] = #kept
    end
  end
  local first_new = #kept + 1
  for k = 0, idiv(#boxes, 5) - 1 do
    kept[#kept + 1] = { x0 = boxes[5 * k + 1], y0 = boxes[5 * k + 2], x1 = boxes[5 * k + 3],
      y1 = boxes[5 * k + 4], surface = b.names[boxes[5 * k + 5] + 1], danger = 0, grid = true }
  end
  -- kept boxes whose right (bottom) edge a new box lies against: their
  -- portals on that edge are made again, cut into spans from the edge's
  -- start as a full build cuts them
  local right, bottom = {}, {}
  if first_new <= #kept then
    -- kept grid boxes by the line of their right and of their bottom edge,
    -- for the lines a new box starts on
    local xs, ys, by_x1, by_y1 = {}, {}, {}, {}
    for k = first_new, #kept do xs[kept[k].x0], ys[kept[k].y0] = true, true end
    for i = 1, first_new - 1 do
      local s = kept[i]
      if s.grid and xs[s.x1] then
        by_x1[s.x1] = by_x1[s.x1] or {}
        by_x1[s.x1][#by_x1[s.x1] + 1] = i
      end
      if s.grid and ys[s.y1] then
        by_y1[s.y1] = by_y1[s.y1] or {}
        by_y1[s.y1][#by_y1[s.y1] + 1] = i
      end
    end
    for k = first_new, #kept do
      local n = kept[k]
      for _, i in ipairs(by_x1[n.x0] or {}) do
        local s = kept[i]
        if s.y0 < n.y1 and n.y0 < s.y1 then right[i] = true end
      end
      for _, i in ipairs(by_y1[n.y0] or {}) do
        local s = kept[i]
        if s.x0 < n.x1 and n.x0 < s.x1 then bottom[i] = true end
      end
    end
  end
  local function new_sector_at(pt)
    for i = first_new, #kept do
      local s = kept[i]
      if pt[1] >= s.x0 and pt[1] < s.x1 and pt[2] >= s.y0 and pt[2] < s.y1 then return i end
    end
    return nil
  end
  -- whether auto portal p lies on the right or bottom edge of a kept box
  -- whose edge is made again
  local function remade(p, a, bb)
    local sp = p.span
    for _, i in ipairs({ a, bb }) do
      local s = kept[i]
      if sp[1] == sp[3] and right[i] and sp[1] == s.x1 then return true end
      if sp[2] == sp[4] and bottom[i] and sp[2] == s.y1 then return true end
    end
    return false
  end
  -- portals and links: remap, relocate or drop
  local dropped, order = {}, {}
  for index, id in ipairs(self.order) do
    local p = self.recs[id]
    local a, bb = remap[p.a], remap[p.b]
    local renumbered = a and bb
    if not (a and bb) and not p.auto and not p.span then
      a = a or new_sector_at(p.from)
      bb = bb or new_sector_at(p.to)
    end
    if a and bb and not (p.auto and p.span and remade(p, a, bb)) then
      p.a, p.b = a, bb
      order[#order + 1] = id
      if not renumbered then change.moved[#change.moved + 1] = { index, a, bb } end
    else
      self.recs[id] = nil
      if not p.auto then dropped[#dropped + 1] = id end
      change.drop_portals[#change.drop_portals + 1] = index
    end
  end
  self.order = order
  model.forget_removed(self)
  self.sectors = kept
  -- the right and bottom edges of the new boxes and of the kept boxes
  -- beside them, in sector order; the lookup holds only the sectors that
  -- can touch one of those edges
  local edges = {}
  for k = 1, #kept do
    if k >= first_new or right[k] or bottom[k] then edges[#edges + 1] = k end
  end
  local nx0, ny0, nx1, ny1 = math.huge, math.huge, -math.huge, -math.huge
  for _, k in ipairs(edges) do
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
  local found = {}
  if #flat > 0 then
    local lookup = { ud = assert(core.graph_compile(flat, {})), index = index }
    local function any() return true end
    -- sectors added by hand are joined from the new box's side, as before
    local function by_hand(nb) return not kept[nb].grid end
    for _, k in ipairs(edges) do
      local s = kept[k]
      if s.x1 < b.w and (k >= first_new or right[k]) then
        edge_links(found, lookup, k, s.x1, s.y0, s.y1, true, s.x1, any, b.span)
      end
      if s.y1 < b.h and (k >= first_new or bottom[k]) then
        edge_links(found, lookup, k, s.y1, s.x0, s.x1, false, s.y1, any, b.span)
      end
      if k >= first_new and s.x0 > 0 then
        edge_links(found, lookup, k, s.x0, s.y0, s.y1, true, s.x0 - 1, by_hand, b.span)
      end
      if k >= first_new and s.y0 > 0 then
        edge_links(found, lookup, k, s.y0, s.x0, s.x1, false, s.y0 - 1, by_hand, b.span)
      end
    end
  end
  for _, f in ipairs(found) do
    local p = { kind = "walk", a = f[1], b = f[2], span = f[3], one_way = false,
      cost = 0, classes = ALL, needs = 0, auto = true }
    insert_portal(self, p)
    change.add_portals[#change.add_portals + 1] = p
  end
  for k = first_new, #kept do change.add_sectors[#change.add_sectors + 1] = kept[k] end
  local navcells = 0
  for _, s in ipairs(kept) do
    if s.grid then navcells = navcells + (s.x1 - s.x0) * (s.y1 - s.y0) end
  end
  if self.grid_stats then
    self.grid_stats.navcells = navcells
    self.grid_stats.regions = nil
  end
  -- the core graph: patched when one was compiled (the next query would
  -- otherwise compile it whole from the Lua description)
  self.compiled = before and model.patch(self, before, change) or nil
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
