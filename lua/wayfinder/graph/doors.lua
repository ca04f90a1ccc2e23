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
local C = require("wayfinder.graph.check")
local describe, fail, set = C.describe, C.fail, C.set
local check_table, check_keys, check_name = C.check_table, C.check_keys, C.check_name

local M = {}

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

--- graph.from_world(world [, options]) -> graph, info
function M.from_world(world, options)
  local fname = "wayfinder.graph.from_world"
  if type(world) ~= "table" or type(world.doors) ~= "function"
    or type(world.room_at) ~= "function" or type(world.wall) ~= "function" then
    fail(fname, "world must be a wayfinder world, got %s", describe(world))
  end
  options = options == nil and {} or options
  check_table(fname, "options", options)
  check_keys(fname, "options", options, KEYS)
  local kind = options.kind == nil and "door" or check_name(fname, "options.kind", options.kind)
  local door_cost = options.door_cost
  if door_cost ~= nil and (type(door_cost) ~= "number" or door_cost ~= door_cost
    or door_cost < 0 or door_cost > 1000000) then
    fail(fname, "options.door_cost must be a number in [0, 1000000], got %s", describe(door_cost))
  end
  local w, h = world.width, world.height
  if type(w) ~= "number" or type(h) ~= "number" or w * h > MAX_TILES then
    fail(fname, "world must have at most %d tiles, got %s", MAX_TILES, describe(w and h and w * h))
  end
  local g = model.new { classes = options.classes, abilities = options.abilities }
  local covered = blocked_tiles(world, w, h)
  local boxes, at = boxes_of(world, w, h, covered)
  local rooms = {}
  for k, b in ipairs(boxes) do
    g.sectors[k] = { x0 = b.x0, y0 = b.y0, x1 = b.x1, y1 = b.y1, surface = g.surfaces[1],
      danger = 0, room = b.room }
    rooms[k] = b.room
  end
  for _, f in ipairs(walk_portals(world, w, h, boxes, at)) do
    g:add_portal { a = f[1], b = f[2], span = f[3] }
  end
  local doors, skipped = {}, {}
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
      skipped[#skipped + 1] = { door = d.id, reason = "locked" }
    elseif not sa or not sb or ra == rb then
      skipped[#skipped + 1] = { door = d.id, reason = "inactive" }
    else
      local id = g:add_link { from = { x1 + 0.5, y1 + 0.5 }, to = { x2 + 0.5, y2 + 0.5 },
        from_sector = sa, to_sector = sb, kind = kind, one_way = false,
        cost = door_cost == nil and 1 + (d.penalty or 0) or door_cost,
        action = d.portal_tree, data = { door = d.id } }
      doors[#doors + 1] = { door = d.id, link = id }
    end
  end
  return g, { sectors = #boxes, doors = doors, skipped = skipped, rooms = rooms }
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
