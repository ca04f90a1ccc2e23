--- wayfinder.world.objects: furniture, doors and people in a house world:
-- checking an object's spec, adding and removing objects, looking them up,
-- and the door settings (lock, penalty, portal tree). Ids are whole numbers
-- from 1 in creation order, never reused; the object list is in id order.
local idiv = require("wayfinder.compat").idiv
local fixed = require("wayfinder.fixed")
local util = require("wayfinder.util")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")
local reservations = require("wayfinder.world.reservations")

local M = {}
local World = classes.World

local ONE = fixed.ONE
local HALF = fixed.HALF
local from_number = fixed.from_number
local describe = check.describe
local fail = check.fail
local plain_copy = util.plain_copy
local tile_index = topology.tile_index

M.MAX_OBJECT_SIDE = 64
M.MAX_PENALTY = 1000000

local OBJECT_KEYS = { type = true, x = true, y = true, w = true, h = true, facing = true,
  walk_over = true, contained = true, label = true, data = true, locked = true,
  penalty = true, portal_tree = true, width = true, speed = true, person = true,
  door = true, accel = true, turn_rate = true, arrive_radius = true, lookahead = true,
  corner_radius = true }

--- A person's motion options (docs/world.md, "Motion options"): spec key,
-- range, open at the low end, and the scale to the walker's integers
-- (2^40 per radian for turn_rate, Q16.16 for the others).
M.MOTION = {
  { "accel", 0, 1, true, 65536 },
  { "turn_rate", 0, math.pi, true, 2 ^ 40 },
  { "arrive_radius", 0, 4096, false, 65536 },
  { "lookahead" },
  { "corner_radius", 0, 16, false, 65536 },
}
M.MOTION_KEYS = { "accel", "turn_rate", "arrive_radius", "lookahead", "corner_radius" }

--- A person's counters (see person:state()), all zero.
function M.new_stats()
  return { routes = 0, failures = {}, portals = 0, portal_failures = 0, waits = 0, errors = 0 }
end

--- Checks an object spec against world w; returns the object's fields (not
-- yet in the world). Raises at `level` above the caller.
function M.check(w, fname, spec, level)
  level = level + 1
  if type(spec) ~= "table" then
    fail(fname, "spec must be a table {type =, x =, y =, ...}, got " .. describe(spec), level)
  end
  check.keys(fname, "spec", spec, OBJECT_KEYS, level)
  local o = {}
  o.type = check.name(fname, "spec.type", spec.type, level)
  if spec.person ~= nil then check.bool(fname, "spec.person", spec.person, level) end
  if spec.door ~= nil then check.bool(fname, "spec.door", spec.door, level) end
  o.person = spec.person == true or (spec.person == nil and o.type == "person")
  o.door = spec.door == true or (spec.door == nil and o.type == "door")
  if o.person and o.door then fail(fname, "an object cannot be a person and a door", level) end
  if spec.label ~= nil then
    if type(spec.label) ~= "string" or #spec.label ~= 1 then
      fail(fname, "spec.label must be a one-character string, got " .. describe(spec.label),
        level)
    end
    o.label = spec.label
  end
  if spec.data ~= nil then
    if type(spec.data) ~= "table" then
      fail(fname, "spec.data must be a table, got " .. describe(spec.data), level)
    end
    o.data = plain_copy(spec.data, "spec.data", fname)
  else
    o.data = {}
  end
  local W, H = w.width, w.height
  local function forbid(keys, what)
    for _, k in ipairs(keys) do
      if spec[k] ~= nil then
        fail(fname, ("spec.%s does not apply to %s"):format(k, what), level + 1)
      end
    end
  end
  if o.person then
    forbid({ "w", "h", "walk_over", "contained", "locked", "penalty", "portal_tree" }, "people")
    local x = check.num(fname, "spec.x", spec.x, 0, W, level)
    local y = check.num(fname, "spec.y", spec.y, 0, H, level)
    o.x, o.y = from_number(x), from_number(y)
    if not topology.inside(w, o.x, o.y) then
      fail(fname, ("spec.x, spec.y (%s, %s) lie outside the world"):format(describe(x),
        describe(y)), level)
    end
    local width = spec.width == nil and 0.5 or check.num(fname, "spec.width", spec.width, 0, 1,
      level, true)
    local speed = spec.speed == nil and 0.25 or check.num(fname, "spec.speed", spec.speed, 0, 1,
      level, true)
    o.width = math.max(2, from_number(width))
    o.half = idiv(o.width, 2)
    o.speed = math.max(1, from_number(speed))
    o.facing = spec.facing == nil and 0 or check.facing(fname, "spec.facing", spec.facing, level)
    for _, e in ipairs(M.MOTION) do
      local k, v = e[1], spec[e[1]]
      if v ~= nil then
        if not e[2] then
          o[k] = check.bool(fname, "spec." .. k, v, level)
        else
          v = check.num(fname, "spec." .. k, v, e[2], e[3], level, e[4])
          o[k] = math.floor(v * e[5] + 0.5)
          if e[4] and o[k] < 1 then o[k] = 1 end
        end
      end
    end
    return o
  end
  forbid({ "width", "speed", "accel", "turn_rate", "arrive_radius", "lookahead",
    "corner_radius" }, "objects that are not people")
  local tx = check.int(fname, "spec.x", spec.x, 0, W - 1, level)
  local ty = check.int(fname, "spec.y", spec.y, 0, H - 1, level)
  if o.door then
    forbid({ "walk_over", "contained", "facing" }, "doors")
    local dw = check.int(fname, "spec.w", spec.w == nil and 1 or spec.w, 1, 2, level)
    local dh = check.int(fname, "spec.h", spec.h == nil and 2 or spec.h, 1, 2, level)
    if dw * dh ~= 2 then
      fail(fname, ("a door spans two tiles: w = 2, h = 1 (across a vertical wall) or "
        .. "w = 1, h = 2 (across a horizontal wall), got w = %d, h = %d"):format(dw, dh), level)
    end
    if tx + dw > W or ty + dh > H then
      fail(fname, ("the door at (%d, %d) does not fit in the world"):format(tx, ty), level)
    end
    o.w, o.h = dw, dh
    if dw == 2 then
      o.tiles = { tx, ty, tx + 1, ty }
      o.edge = { true, tx + 1, ty }
      o.cx, o.cy = (tx + 1) * ONE, ty * ONE + HALF
      o.facing = 0
    else
      o.tiles = { tx, ty, tx, ty + 1 }
      o.edge = { false, tx, ty + 1 }
      o.cx, o.cy = tx * ONE + HALF, (ty + 1) * ONE
      o.facing = 2
    end
    o.locked = spec.locked ~= nil and check.bool(fname, "spec.locked", spec.locked, level)
    o.penalty = spec.penalty == nil and 0 or check.int(fname, "spec.penalty", spec.penalty, 0,
      M.MAX_PENALTY, level)
    o.portal_tree = spec.portal_tree == nil and classes.DOOR_TREE
      or check.name(fname, "spec.portal_tree", spec.portal_tree, level)
    if not w.trees[o.portal_tree] then
      fail(fname, ("spec.portal_tree names no registered tree: '%s'"):format(o.portal_tree),
        level)
    end
    o.walk_over = true
    o.contained = false
    return o
  end
  forbid({ "locked", "penalty", "portal_tree" }, "objects that are not doors")
  local ow = spec.w == nil and 1 or check.int(fname, "spec.w", spec.w, 1, M.MAX_OBJECT_SIDE,
    level)
  local oh = spec.h == nil and 1 or check.int(fname, "spec.h", spec.h, 1, M.MAX_OBJECT_SIDE,
    level)
  if tx + ow > W or ty + oh > H then
    fail(fname, ("the object at (%d, %d) of size %dx%d does not fit in the world")
      :format(tx, ty, ow, oh), level)
  end
  o.w, o.h = ow, oh
  o.tiles = { tx, ty }
  o.cx, o.cy = tx * ONE + ow * HALF, ty * ONE + oh * HALF
  o.facing = spec.facing == nil and 0 or check.facing(fname, "spec.facing", spec.facing, level)
  o.walk_over = spec.walk_over ~= nil and check.bool(fname, "spec.walk_over", spec.walk_over,
    level)
  o.contained = spec.contained ~= nil and check.bool(fname, "spec.contained", spec.contained,
    level)
  return o
end

local function blocks_tiles(o)
  return not o.person and not o.door and not o.walk_over and not o.contained
end

--- True when person o has a motion option set.
function M.has_motion(o)
  for _, k in ipairs(M.MOTION_KEYS) do
    if o[k] ~= nil then return true end
  end
  return false
end

--- Inserts a checked object with id `id`; nothing after the first change
-- below can fail.
function M.insert(w, o, id)
  o.id = id
  o.world = w
  setmetatable(o, classes.object_mt)
  if o.person then
    w.walker:add_person(id, o.x, o.y, o.half, o.speed, o.facing)
    if M.has_motion(o) then
      w.walker:set_motion(id, o.accel or 0, o.turn_rate or 0, o.arrive_radius or 0,
        o.lookahead or false, o.corner_radius or 0)
    end
    o.x, o.y = nil, nil
    o.frames = {}
    o.route_counter = 0
    o.trap_count = 0
    o.stats = M.new_stats()
    w.person_list[#w.person_list + 1] = o
  elseif o.door then
    local e = o.edge
    w.walker:set_door(e[1], e[2], e[3], id, not o.locked)
    w.graph:add(o)
    w.parts_dirty = true
  elseif blocks_tiles(o) then
    local x1, y1 = o.tiles[1] + o.w, o.tiles[2] + o.h
    w.walker:set_box(id, o.tiles[1] * ONE, o.tiles[2] * ONE, x1 * ONE, y1 * ONE)
    topology.cover(w, o, 1)
  end
  w.object_list[#w.object_list + 1] = o
  w.by_id[id] = o
  if id >= w.next_id then w.next_id = id + 1 end
  topology.changed(w)
  return o
end

--- Adds an object; returns it (see docs/world.md for the spec).
function World:add_object(spec)
  local fname = "world:add_object"
  local o = M.check(self, fname, spec, 2)
  if o.door then
    topology.refresh_rooms(self)
    local e = o.edge
    if not topology.has_wall(self, e[1], e[2], e[3]) then
      fail(fname, ("a door needs a wall on the edge it spans; (%d, %d)-(%d, %d) has none")
        :format(e[2], e[3], e[1] and e[2] or e[2] + 1, e[1] and e[3] + 1 or e[3]), 2)
    end
    local t = o.tiles
    if self.rooms[tile_index(self, t[1], t[2])] == self.rooms[tile_index(self, t[3], t[4])] then
      fail(fname, ("the door's tiles (%d, %d) and (%d, %d) lie in the same room")
        :format(t[1], t[2], t[3], t[4]), 2)
    end
    for _, d in ipairs(self.graph:doors()) do
      if d.edge[1] == e[1] and d.edge[2] == e[2] and d.edge[3] == e[3] then
        fail(fname, ("door %d already spans that edge"):format(d.id), 2)
      end
    end
  end
  return M.insert(self, o, self.next_id)
end

--- Adds a person: add_object with person = true.
function World:add_person(spec)
  if type(spec) ~= "table" then
    fail("world:add_person", "spec must be a table {x =, y =, ...}, got " .. describe(spec))
  end
  local copy = {}
  for k, v in pairs(spec) do copy[k] = v end
  copy.type = copy.type or "person"
  if copy.person == nil then copy.person = true end
  local o = M.check(self, "world:add_person", copy, 2)
  return M.insert(self, o, self.next_id)
end

--- The object with id `id`; raises when there is none.
function M.by_id(w, fname, id, level)
  local i = check.int(fname, "id", id, 1, 0x7fffffff, (level or 2) + 1)
  local o = w.by_id[i]
  if not o then
    fail(fname, ("id %d names no object"):format(i), (level or 2) + 1)
  end
  return o
end

--- The door with id `id`; raises when there is none.
function M.door(w, fname, id, level)
  local o = M.by_id(w, fname, id, (level or 2) + 1)
  if not o.door then
    fail(fname, ("object %d is a '%s', not a door"):format(o.id, o.type), (level or 2) + 1)
  end
  return o
end

--- Removes object id (an error when there is none).
function World:remove_object(id)
  local o = M.by_id(self, "world:remove_object", id)
  if o.person then
    self.graph:release_all(o.id)
    self.walker:remove_person(o.id)
    for _, d in ipairs(self.graph:doors()) do reservations.release(self, d, o) end
    for k, p in ipairs(self.person_list) do
      if p == o then table.remove(self.person_list, k); break end
    end
    o.frames = {}
  elseif o.door then
    local e = o.edge
    self.walker:set_door(e[1], e[2], e[3], 0, false)
    self.graph:remove(o)
    self.parts_dirty = true
  elseif blocks_tiles(o) then
    self.walker:remove_box(o.id)
    topology.cover(self, o, -1)
  end
  for k, x in ipairs(self.object_list) do
    if x == o then table.remove(self.object_list, k); break end
  end
  self.by_id[o.id] = nil
  o.removed = true
  topology.changed(self)
  for _, p in ipairs(self.person_list) do p.wake = true end
end

--- The object with that id, or nil.
function World:object(id)
  local i = check.int("world:object", "id", id, 1, 0x7fffffff)
  return self.by_id[i]
end

local function copy_list(list)
  local out = {}
  for k, v in ipairs(list) do out[k] = v end
  return out
end
M.copy_list = copy_list

--- Every object in object-list order.
function World:objects() return copy_list(self.object_list) end
--- Every door in object-list order.
function World:doors() return copy_list(self.graph:doors()) end
--- Every person in object-list order.
function World:people() return copy_list(self.person_list) end

--- Locks or unlocks a door.
function World:set_locked(id, locked)
  local fname = "world:set_locked"
  local d = M.door(self, fname, id)
  check.bool(fname, "locked", locked)
  d.locked = locked
  local e = d.edge
  self.walker:set_door(e[1], e[2], e[3], d.id, not locked)
  self.topology_version = self.topology_version + 1
end

--- Sets a door's score penalty (subtracted when a route passes it).
function World:set_penalty(id, penalty)
  local fname = "world:set_penalty"
  local d = M.door(self, fname, id)
  d.penalty = check.int(fname, "penalty", penalty, 0, M.MAX_PENALTY)
  self.topology_version = self.topology_version + 1
end

--- Gives a door another portal tree (a registered tree name).
function World:set_portal_tree(id, name)
  local fname = "world:set_portal_tree"
  local d = M.door(self, fname, id)
  check.name(fname, "name", name)
  if not self.trees[name] then
    fail(fname, ("unknown tree name '%s'"):format(name))
  end
  d.portal_tree = name
  -- graphs the world holds read door trees (world/graphs.lua)
  self.portal_tree_version = (self.portal_tree_version or 0) + 1
end

--- Door id's score for route id rid (0 when none was computed).
function World:door_score(id, rid)
  local fname = "world:door_score"
  local d = M.door(self, fname, id)
  rid = check.int(fname, "rid", rid, 0, self.route_ids)
  return d.scores[rid] or 0
end

--- The route ids held now: {[route id] = person id}.
function World:route_owners()
  local out = {}
  for rid = 1, self.route_ids do out[rid] = self.graph:owner(rid) end
  return out
end

--- Door id's reservation: {holders = {person ids}, side = part, waiting =
-- part or nil}, or nil when nobody holds or waits for it.
function World:reservation(id)
  return reservations.view(M.door(self, "world:reservation", id))
end

-- --------------------------------------------------------- geometry --

--- The centre of object o (fixed point).
function M.center(w, o)
  if o.person then
    local x, y = w.walker:person(o.id)
    return x, y
  end
  return o.cx, o.cy
end

--- Half the width and height of object o (fixed point).
function M.extents(o)
  if o.person then return o.half, o.half end
  return o.w * HALF, o.h * HALF
end

return M
