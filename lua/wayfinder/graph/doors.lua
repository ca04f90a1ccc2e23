--- wayfinder.graph.doors: a navigation graph of a house world, read through
-- the world's public functions only (width, height, wall, room_at, doors,
-- objects). Open floor becomes boxes, each inside one room and clear of
-- furniture that blocks people; walk portals join boxes of one room where
-- no wall lies between them; each active, unlocked door becomes a link of
-- kind "door" between the centres of its two tiles, carrying the door id
-- in its data and the door's portal tree name as its action. The world's
-- doors keep working as before: the graph is a reading of the world, not
-- a part of it (docs/graph.md, "Graphs of house worlds").
local model = require("wayfinder.graph.model")
local links = require("wayfinder.graph.links")
local C = require("wayfinder.graph.check")
local describe, fail, set = C.describe, C.fail, C.set
local check_table, check_keys, check_name = C.check_table, C.check_keys, C.check_name

local M = {}
local Graph = model.Graph
local insert_portal, build_link = links.insert_portal, links.build_link

local KEYS = set { "kind", "door_cost", "classes", "abilities" }
local MAX_TILES = 1048576   -- tiles a world may have to be read into a graph

-- Tiles covered by furniture that stops people, as a set of y * w + x.
local function blocked_tiles(world, w, h)
  local covered = {}
  for _, o in ipairs(world:objects()) do
    if not o.person and not o.door and not o.walk_over and not o.contained then
      local ow, oh = o.w or 1, o.h or 1
      local cx, cy = o:position()
      local ox, oy = math.floor(cx - ow / 2 + 0.5), math.floor(cy - oh / 2 + 0.5)
      for y = math.max(0, oy), math.min(h - 1, oy + oh - 1) do
        for x = math.max(0, ox), math.min(w - 1, ox + ow - 1) do
          covered[y * w + x] = true
        end
      end
    end
  end
  return covered
end

-- Boxes of open tiles: runs along each line between vertical walls,
-- merged with the box right above when it has the same columns, the same
-- room and no wall along the shared edge. Returns the boxes (in order of
-- their top-left tile) and box index per tile.
local function boxes_of(world, w, h, covered)
  local boxes, at = {}, {}
  local open_above = {}     -- x0 of a run on the line above -> box index
  for y = 0, h - 1 do
    local open_here = {}
    local x = 0
    while x < w do
      if covered[y * w + x] then
        x = x + 1
      else
        local room = world:room_at(x + 0.5, y + 0.5)
        local e = x + 1
        while e < w and not covered[y * w + e] and not world:wall(true, e, y)
          and world:room_at(e + 0.5, y + 0.5) == room do
          e = e + 1
        end
        local k = open_above[x]
        local b = k and boxes[k]
        local merge = b and b.x1 == e and b.room == room
        if merge then
          for t = x, e - 1 do
            if world:wall(false, t, y) then merge = false; break end
          end
        end
        if not merge then
          k = #boxes + 1
          boxes[k] = { x0 = x, y0 = y, x1 = e, y1 = y + 1, room = room }
        else
          b.y1 = y + 1
        end
        open_here[x] = k
        for t = x, e - 1 do at[y * w + t] = k end
        x = e
      end
    end
    open_above = open_here
  end
  return boxes, at
end

-- Walk portals between boxes of one room: along each box's right and
-- bottom edges, one portal per run of tiles facing the same box with no
-- wall on the edge.
local function walk_portals(world, w, h, boxes, at)
  local out = {}
  for k, b in ipairs(boxes) do
    for _, side in ipairs({ "right", "bottom" }) do
      local vertical = side == "right"
      local fixed = vertical and b.x1 or b.y1
      local limit = vertical and w or h
      if fixed < limit then
        local t0, t1 = vertical and b.y0 or b.x0, vertical and b.y1 or b.x1
        local t = t0
        while t < t1 do
          local function across(u)
            local x, y = vertical and fixed or u, vertical and u or fixed
            if world:wall(vertical, x, y) then return nil end
            return at[y * w + x]
          end
          local nb = across(t)
          local e = t + 1
          while e < t1 and across(e) == nb do e = e + 1 end
          if nb then
            out[#out + 1] = { k, nb, vertical and { fixed, t, fixed, e } or { t, fixed, e, fixed } }
          end
          t = e
        end
      end
    end
  end
  return out
end

local function check_world(fname, world)
  if type(world) ~= "table" or type(world.doors) ~= "function"
    or type(world.room_at) ~= "function" or type(world.wall) ~= "function" then
    fail(fname, "world must be a wayfinder world, got %s", describe(world))
  end
  local w, h = world.width, world.height
  if type(w) ~= "number" or type(h) ~= "number" or w * h > MAX_TILES then
    fail(fname, "world must have at most %d tiles, got %s", MAX_TILES, describe(w and h and w * h))
  end
  return w, h
end

-- The world's floor as from_world reads it: the boxes, the walk portals
-- between them ({box, box, span}) and each door, in the world's door
-- order, as a link {door, from, to, ka, kb (boxes), cost, action} or as
-- skipped {door, reason}.
local function read_floor(world, w, h, door_cost)
  local covered = blocked_tiles(world, w, h)
  local boxes, at = boxes_of(world, w, h, covered)
  local walks = walk_portals(world, w, h, boxes, at)
  local list = {}
  for _, d in ipairs(world:doors()) do
    -- the door's position is the middle of the wall edge it spans
    local px, py = d:position()
    local x1, y1, x2, y2
    if d.w == 2 then
      x1, y1 = math.floor(px + 0.5) - 1, math.floor(py)
      x2, y2 = x1 + 1, y1
    else
      x1, y1 = math.floor(px), math.floor(py + 0.5) - 1
      x2, y2 = x1, y1 + 1
    end
    local sa, sb = at[y1 * w + x1], at[y2 * w + x2]
    local ra, rb = world:room_at(x1 + 0.5, y1 + 0.5), world:room_at(x2 + 0.5, y2 + 0.5)
    if d.locked then
      list[#list + 1] = { door = d.id, reason = "locked" }
    elseif not sa or not sb or ra == rb then
      list[#list + 1] = { door = d.id, reason = "inactive" }
    else
      list[#list + 1] = { door = d.id, from = { x1 + 0.5, y1 + 0.5 }, to = { x2 + 0.5, y2 + 0.5 },
        ka = sa, kb = sb, cost = door_cost == nil and 1 + (d.penalty or 0) or door_cost,
        action = d.portal_tree }
    end
  end
  return boxes, walks, list
end

local function door_link(kind, f, a, b)
  return { from = f.from, to = f.to, from_sector = a, to_sector = b, kind = kind,
    one_way = false, cost = f.cost, action = f.action, data = { door = f.door } }
end

--- graph.from_world(world [, options]) -> graph, info
function M.from_world(world, options)
  local fname = "wayfinder.graph.from_world"
  local w, h = check_world(fname, world)
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, KEYS)
  local kind = options.kind == nil and "door" or check_name(fname, "options.kind", options.kind)
  local door_cost = options.door_cost
  if door_cost ~= nil and (type(door_cost) ~= "number" or door_cost ~= door_cost
    or door_cost < 0 or door_cost > 1000000) then
    fail(fname, "options.door_cost must be a number in [0, 1000000], got %s", describe(door_cost))
  end
  local g = model.new { classes = options.classes, abilities = options.abilities }
  local boxes, walks, list = read_floor(world, w, h, door_cost)
  local rooms = {}
  for k, b in ipairs(boxes) do
    g.sectors[k] = { x0 = b.x0, y0 = b.y0, x1 = b.x1, y1 = b.y1, surface = g.surfaces[1],
      danger = 0, room = b.room, world = true }
    rooms[k] = b.room
  end
  for _, f in ipairs(walks) do
    local id = g:add_portal { a = f[1], b = f[2], span = f[3] }
    g.recs[id].world = "walk"
  end
  local doors, skipped = {}, {}
  for _, f in ipairs(list) do
    if f.reason then
      skipped[#skipped + 1] = { door = f.door, reason = f.reason }
    else
      local id = g:add_link(door_link(kind, f, f.ka, f.kb))
      g.recs[id].world, g.recs[id].door = "door", f.door
      doors[#doors + 1] = { door = f.door, link = id }
    end
  end
  g.world_build = { kind = kind, door_cost = door_cost, w = w, h = h }
  return g, { sectors = #boxes, doors = doors, skipped = skipped, rooms = rooms }
end

local function box_key(s)
  return ("%d %d %d %d %s"):format(s.x0, s.y0, s.x1, s.y1, tostring(s.room))
end

local function walk_key(a, b, sp)
  return ("%d %d %d %d %d %d"):format(a, b, sp[1], sp[2], sp[3], sp[4])
end

local function same_point(p, q)
  return p[1] == q[1] and p[2] == q[2]
end

--- graph:sync_world(world) -> {removed =, added =, walk_removed =, ...}
function Graph:sync_world(world)
  local fname = "graph:sync_world"
  local build = self.world_build
  if not build then fail(fname, "the graph was not built by wayfinder.graph.from_world") end
  local w, h = check_world(fname, world)
  if w ~= build.w or h ~= build.h then
    fail(fname, "world is %dx%d, the graph was built from a %dx%d world", w, h, build.w, build.h)
  end
  local boxes, walks, list = read_floor(world, w, h, build.door_cost)
  -- sectors: a box the graph already has (same tiles, same room) keeps its
  -- sector; the graph's other floor sectors go, the world's other boxes
  -- come after the kept sectors in the world's order
  local old = {}
  for i, s in ipairs(self.sectors) do
    if s.world then old[box_key(s)] = i end
  end
  local box_old, matched, fresh = {}, {}, {}
  for k, b in ipairs(boxes) do
    local i = old[box_key(b)]
    if i then
      box_old[k], matched[i] = i, true
    else
      fresh[#fresh + 1] = k
    end
  end
  -- a sector added by hand must not lie on floor that opened up
  for _, k in ipairs(fresh) do
    local b = boxes[k]
    for i, s in ipairs(self.sectors) do
      if not s.world and b.x0 < s.x1 and s.x0 < b.x1 and b.y0 < s.y1 and s.y0 < b.y1 then
        fail(fname, "sector %d, added by hand, overlaps the floor at (%d, %d)-(%d, %d)", i,
          b.x0, b.y0, b.x1, b.y1)
      end
    end
  end
  local change = { drop_sectors = {}, drop_portals = {}, moved = {}, add_sectors = {},
    add_portals = {} }
  local kept, remap, removed = {}, {}, 0
  for i, s in ipairs(self.sectors) do
    if s.world and not matched[i] then
      removed = removed + 1
      change.drop_sectors[#change.drop_sectors + 1] = i
    else
      kept[#kept + 1] = s
      remap[i] = #kept
    end
  end
  local first_new = #kept + 1
  local box_at = {}
  for k, i in pairs(box_old) do box_at[k] = remap[i] end
  for _, k in ipairs(fresh) do
    local b = boxes[k]
    kept[#kept + 1] = { x0 = b.x0, y0 = b.y0, x1 = b.x1, y1 = b.y1, surface = self.surfaces[1],
      danger = 0, room = b.room, world = true }
    box_at[k] = #kept
  end
  -- what the world now has, keyed by the sectors it joins
  local want_walk, walk_list = {}, {}
  for _, f in ipairs(walks) do
    local a, b = box_at[f[1]], box_at[f[2]]
    local key = walk_key(a, b, f[3])
    want_walk[key] = { a = a, b = b, span = f[3] }
    walk_list[#walk_list + 1] = key
  end
  local want_door = {}
  for _, f in ipairs(list) do
    if not f.reason then want_door[f.door] = f end
  end
  local function new_sector_at(pt)
    for i = first_new, #kept do
      local s = kept[i]
      if pt[1] >= s.x0 and pt[1] < s.x1 and pt[2] >= s.y0 and pt[2] < s.y1 then return i end
    end
    return nil
  end
  local counts = { removed = removed, added = #fresh, walk_removed = 0, walk_added = 0,
    doors_removed = 0, doors_added = 0, dropped = {} }
  local order, have_walk, have_door = {}, {}, {}
  for index, id in ipairs(self.order) do
    local p = self.recs[id]
    local a, b = remap[p.a], remap[p.b]
    local keep
    if p.world == "walk" then
      local key = a and b and walk_key(a, b, p.span)
      keep = key and want_walk[key] and not have_walk[key]
      if keep then have_walk[key] = true else counts.walk_removed = counts.walk_removed + 1 end
    elseif p.world == "door" then
      local f = want_door[p.door]
      keep = f and not have_door[p.door] and a == box_at[f.ka] and b == box_at[f.kb]
        and same_point(p.from, f.from) and same_point(p.to, f.to) and p.cost == f.cost
        and p.action == f.action and p.kind == build.kind
      if keep then have_door[p.door] = true else counts.doors_removed = counts.doors_removed + 1 end
    else
      local renumbered = a and b
      if not renumbered and not p.span then
        a = a or new_sector_at(p.from)
        b = b or new_sector_at(p.to)
      end
      keep = a and b
      if keep and not renumbered then change.moved[#change.moved + 1] = { index, a, b } end
      if not keep then counts.dropped[#counts.dropped + 1] = id end
    end
    if keep then
      p.a, p.b = a, b
      order[#order + 1] = id
    else
      self.recs[id] = nil
      change.drop_portals[#change.drop_portals + 1] = index
    end
  end
  local changed = removed > 0 or #fresh > 0 or #change.drop_portals > 0
  self.order = order
  self.sectors = kept
  if #change.drop_portals > 0 then model.forget_removed(self) end
  local before = self.compiled
  for _, key in ipairs(walk_list) do
    if not have_walk[key] then
      local f = want_walk[key]
      local p = { kind = "walk", a = f.a, b = f.b, span = { f.span[1], f.span[2], f.span[3],
        f.span[4] }, one_way = false, cost = 0, classes = C.ALL, needs = 0, world = "walk" }
      insert_portal(self, p)
      change.add_portals[#change.add_portals + 1] = p
      counts.walk_added = counts.walk_added + 1
      changed = true
    end
  end
  for _, f in ipairs(list) do
    if not f.reason and not have_door[f.door] then
      local p = build_link(self, fname, door_link(build.kind, f, box_at[f.ka], box_at[f.kb]))
      p.world, p.door = "door", f.door
      insert_portal(self, p)
      change.add_portals[#change.add_portals + 1] = p
      counts.doors_added = counts.doors_added + 1
      changed = true
    end
  end
  if not changed then
    self.compiled = before
    return counts
  end
  for k = first_new, #kept do change.add_sectors[#change.add_sectors + 1] = kept[k] end
  -- the core graph: patched when one was compiled
  self.compiled = before and model.patch(self, before, change) or nil
  return counts
end

--- The door ids a graph route passes, in order (links of kind `kind`).
function M.doors_of(result, kind)
  local fname = "wayfinder.graph.doors_of"
  if type(result) ~= "table" or type(result.corridor) ~= "table" then
    error(("%s: result must be a route from graph:find_path, got %s"):format(fname,
      describe(result)), 2)
  end
  if kind ~= nil and type(kind) ~= "string" then
    error(("%s: kind must be a string, got %s"):format(fname, describe(kind)), 2)
  end
  kind = kind or "door"
  local out = {}
  for _, c in ipairs(result.corridor) do
    if c.kind == kind and type(c.data) == "table" then out[#out + 1] = c.data.door end
  end
  return out
end

return M
