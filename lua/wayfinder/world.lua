--- wayfinder.world: house worlds of rooms, doors, objects and people.
-- A world is a grid of tiles (1 tile = 1 world unit) with thin walls on tile
-- edges. Rooms are the flood fill of tiles not separated by walls; parts are
-- the flood fill of a room's tiles not covered by furniture, and door
-- scoring works on parts. Objects (furniture, doors, people) have stable
-- increasing ids; the object list in id order breaks every tie. People run
-- behavior trees in frames; world:tick() moves all walking people in one
-- call into the C core, then resumes behaviors in object-list order.
-- Positions are Q16.16 fixed point inside; floats only at this API.
-- See docs/world.md and docs/behaviors.md.
local core = require("wayfinder.core")
local fixed = require("wayfinder.fixed")
local bt = require("wayfinder.bt")
local btrun = require("wayfinder.btrun")
local util = require("wayfinder.util")
local doors = require("wayfinder.doors")
local rectplan = require("wayfinder.rectplan")
local primitives = require("wayfinder.primitives")

local M = {}

local World = {}
World.__index = World
local Object = {}
Object.__index = Object

local ONE <const> = fixed.ONE
local HALF <const> = fixed.HALF
local from_number, to_number = fixed.from_number, fixed.to_number
local FACINGS, FACING_INDEX = fixed.FACINGS, fixed.FACING_INDEX

local FAILURE <const> = bt.FAILURE
local RUNNING <const> = bt.RUNNING

M.DOOR_TREE = "wayfinder.door"
M.ROUTE_TREE = "wayfinder.route_to"
M.MAX_SIDE = 4096
M.MAX_TILES = 1 << 22
M.MAX_ROUTE_IDS = 4096
M.DEFAULT_ROUTE_IDS = 8
M.DEFAULT_MAX_SCORE = 1000000000
M.MAX_OBJECT_SIDE = 64
M.MAX_PENALTY = 1000000
M.SAVE_FORMAT = "wayfinder.world"
M.SAVE_VERSION = 1

-- ------------------------------------------------------------- checking --

local describe = util.describe

local function fail_arg(fname, msg, level)
  error(fname .. ": " .. msg, (level or 2) + 1)
end

local function check_int(fname, arg, v, lo, hi, level)
  local i = math.tointeger(v)
  if type(v) ~= "number" or not i or i < lo or i > hi then
    fail_arg(fname, ("%s must be an integer in [%d, %d], got %s"):format(arg, lo, hi,
      describe(v)), (level or 2) + 1)
  end
  return i
end

local function bound(v)
  if v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then return ("%d"):format(v) end
  return ("%g"):format(v)
end

local function check_num(fname, arg, v, lo, hi, level, open_lo)
  if type(v) ~= "number" or v ~= v or v < lo or v > hi or (open_lo and v == lo) then
    fail_arg(fname, ("%s must be a number in %s%s, %s], got %s"):format(arg,
      open_lo and "(" or "[", bound(lo), bound(hi), describe(v)), (level or 2) + 1)
  end
  return v
end

local function check_bool(fname, arg, v, level)
  if type(v) ~= "boolean" then
    fail_arg(fname, ("%s must be a boolean, got %s"):format(arg, describe(v)), (level or 2) + 1)
  end
  return v
end

local function check_name(fname, arg, v, level)
  if type(v) ~= "string" or v == "" then
    fail_arg(fname, ("%s must be a non-empty string, got %s"):format(arg, describe(v)),
      (level or 2) + 1)
  end
  return v
end

local function check_keys(fname, arg, t, allowed, level)
  for k in pairs(t) do
    if type(k) ~= "string" or not allowed[k] then
      fail_arg(fname, ("unknown %s key %s"):format(arg, describe(k)), (level or 2) + 1)
    end
  end
end

local function check_facing(fname, arg, v, level)
  local f = FACING_INDEX[v]
  if not f then
    fail_arg(fname, ("%s must be a direction ('east', 'southeast', 'south', 'southwest', "
      .. "'west', 'northwest', 'north', 'northeast'), got %s"):format(arg, describe(v)),
      (level or 2) + 1)
  end
  return f
end

local plain_copy = util.plain_copy

-- --------------------------------------------------------- construction --

local WORLD_KEYS = { width = true, height = true, route_ids = true, max_score = true,
  propagation = true, planner = true, tuning = true, trees = true, max_steps = true,
  on_error = true, ignore_radius = true, route_files = true }
local PROPAGATIONS = { best_first = true, recursive = true }

local Ctx = {}
Ctx.__index = Ctx

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

local function new_world(fname, options, level)
  level = level + 1
  if type(options) ~= "table" then
    fail_arg(fname, "options must be a table {width =, height =, ...}, got "
      .. describe(options), level)
  end
  check_keys(fname, "options", options, WORLD_KEYS, level)
  local W = check_int(fname, "options.width", options.width, 1, M.MAX_SIDE, level)
  local H = check_int(fname, "options.height", options.height, 1, M.MAX_SIDE, level)
  if W * H > M.MAX_TILES then
    fail_arg(fname, ("width*height must be at most %d tiles, got %d"):format(M.MAX_TILES, W * H),
      level)
  end
  local route_ids = M.DEFAULT_ROUTE_IDS
  if options.route_ids ~= nil then
    route_ids = check_int(fname, "options.route_ids", options.route_ids, 1, M.MAX_ROUTE_IDS,
      level)
  end
  local max_score = M.DEFAULT_MAX_SCORE
  if options.max_score ~= nil then
    max_score = check_int(fname, "options.max_score", options.max_score, 1, 1 << 50, level)
  end
  local propagation = options.propagation or "best_first"
  if not PROPAGATIONS[propagation] then
    fail_arg(fname, "options.propagation must be 'best_first' or 'recursive', got "
      .. describe(propagation), level)
  end
  local planner = options.planner or rectplan.plan
  if type(planner) ~= "function" then
    fail_arg(fname, "options.planner must be a function(room, query), got " .. describe(planner),
      level)
  end
  local tuning = options.tuning or {}
  if type(tuning) ~= "table" then
    fail_arg(fname, "options.tuning must be a table, got " .. describe(tuning), level)
  end
  local max_steps = 16
  if options.max_steps ~= nil then
    max_steps = check_int(fname, "options.max_steps", options.max_steps, 1, 1000, level)
  end
  local on_error = options.on_error
  if on_error ~= nil and type(on_error) ~= "function" then
    fail_arg(fname, "options.on_error must be a function(person, message), got "
      .. describe(on_error), level)
  end
  local ignore_radius = 1.5
  if options.ignore_radius ~= nil then
    ignore_radius = check_num(fname, "options.ignore_radius", options.ignore_radius, 0, 1024,
      level)
  end
  if options.trees ~= nil and type(options.trees) ~= "table" then
    fail_arg(fname, "options.trees must be a table {name = tree}, got "
      .. describe(options.trees), level)
  end
  local route_files = options.route_files
  if route_files ~= nil and (type(route_files) ~= "string" or route_files == "") then
    fail_arg(fname, "options.route_files must be a directory name, got "
      .. describe(route_files), level)
  end
  local w = setmetatable({
    route_files = route_files, route_file_count = 0,
    width = W, height = H,
    route_ids = route_ids, max_score = max_score, propagation = propagation,
    planner = planner, tuning = plain_copy(tuning, "options.tuning", fname),
    max_steps = max_steps, on_error = on_error,
    ignore_radius = from_number(ignore_radius),
    house = core.walker_new(W, H),
    vwall = {}, hwall = {},
    rooms = {}, nrooms = 0, parts = {}, nparts = 0, part_room = {},
    blocked = {},
    object_list = {}, by_id = {}, next_id = 1,
    person_list = {}, door_list = {}, part_doors = {},
    door_distance_cache = {},
    route_owner = {},
    trees = {},
    tick_count = 0,
    topology_version = 0, static_version = 0, moves_version = 0,
    rooms_dirty = true, parts_dirty = true,
  }, World)
  w.ctx = setmetatable({ world = w }, Ctx)
  w:_builtin_trees()
  if options.trees then
    for _, name in ipairs(sorted_keys(options.trees)) do
      if type(name) ~= "string" then
        fail_arg(fname, "options.trees keys must be tree names, got " .. describe(name), level)
      end
      w:_add_tree(fname, name, options.trees[name], level)
    end
  end
  return w
end

--- Creates an empty world (see docs/world.md for the options).
function M.new(options)
  return new_world("wayfinder.world.new", options, 1)
end

-- -------------------------------------------------------------- trees --

function World:_add_tree(fname, name, root, level)
  check_name(fname, "name", name, level + 1)
  if self.trees[name] then
    fail_arg(fname, ("a tree named '%s' is already registered"):format(name), level + 1)
  end
  if not bt.is_node(root) then
    fail_arg(fname, ("tree '%s' must be a node from wayfinder.bt, got %s"):format(name,
      describe(root)), level + 1)
  end
  self.trees[name] = btrun.compile(root, name)
end

--- Registers tree `root` under `name` for frames and portals.
function World:add_tree(name, root)
  self:_add_tree("world:add_tree", name, root, 2)
end

--- True when a tree of that name is registered.
function World:has_tree(name)
  return self.trees[name] ~= nil
end

local function door_unlocked(ctx)
  local d = ctx.world.by_id[ctx.frame.object]
  return d ~= nil and not d.locked
end

--- The standard door portal tree: walk to within 1.5 tiles of the door's
-- tile in the person's room, reserve the door (one person crosses a door at
-- a time, so two never meet head-on in it), step onto the door's tile,
-- check the lock, step one tile through; on any failure, set the
-- failed-portal protocol and fail. The reservation ends when the frame
-- pops.
function M.standard_door_tree()
  return bt.selector {
    bt.sequence {
      bt.goto_relative { side = "portal", distance = 1.5, max_tries = 8 },
      bt.reserve_portal { ticks = 60 },
      bt.goto_relative { side = "portal", max_tries = 8 },
      bt.condition(door_unlocked, "locked"),
      bt.delta_move { distance = 1 },
    },
    bt.fail_portal(),
  }
end

function World:_builtin_trees()
  self.trees[M.DOOR_TREE] = btrun.compile(M.standard_door_tree(), M.DOOR_TREE)
  self.trees[M.ROUTE_TREE] = btrun.compile(bt.goto_relative { side = "near" }, M.ROUTE_TREE)
end

-- -------------------------------------------------------------- walls --

local function vkey(self, x, y) return y * (self.width + 1) + x + 1 end
local function hkey(self, x, y) return y * self.width + x + 1 end

function World:_set_edge(vertical, x, y, on)
  if vertical then
    self.vwall[vkey(self, x, y)] = on or nil
  else
    self.hwall[hkey(self, x, y)] = on or nil
  end
  self.house:set_wall(vertical, x, y, on)
end

function World:_changed_topology()
  self.topology_version = self.topology_version + 1
  self.static_version = self.static_version + 1
end

function World:_walls(fname, x0, y0, x1, y1, on)
  local W, H = self.width, self.height
  x0 = check_int(fname, "x0", x0, 0, W, 3)
  y0 = check_int(fname, "y0", y0, 0, H, 3)
  x1 = check_int(fname, "x1", x1, 0, W, 3)
  y1 = check_int(fname, "y1", y1, 0, H, 3)
  if x0 == x1 and y0 ~= y1 then
    if y0 > y1 then y0, y1 = y1, y0 end
    for y = y0, y1 - 1 do self:_set_edge(true, x0, y, on) end
  elseif y0 == y1 and x0 ~= x1 then
    if x0 > x1 then x0, x1 = x1, x0 end
    for x = x0, x1 - 1 do self:_set_edge(false, x, y0, on) end
  else
    fail_arg(fname, ("a wall runs along one tile edge line: x0 == x1 or y0 == y1, and has "
      .. "length >= 1; got (%d, %d)-(%d, %d)"):format(x0, y0, x1, y1), 3)
  end
  self.rooms_dirty = true
  self:_changed_topology()
end

--- Adds a straight wall on tile edges from (x0, y0) to (x1, y1).
function World:add_wall(x0, y0, x1, y1)
  self:_walls("world:add_wall", x0, y0, x1, y1, true)
end

--- Removes the walls on the tile edges from (x0, y0) to (x1, y1).
function World:remove_wall(x0, y0, x1, y1)
  self:_walls("world:remove_wall", x0, y0, x1, y1, false)
end

--- 1 when the edge has a wall; vertical edge (x, y) runs from (x, y) to
-- (x, y + 1), horizontal edge (x, y) from (x, y) to (x + 1, y).
function World:_has_wall(vertical, x, y)
  if vertical then return self.vwall[vkey(self, x, y)] == true end
  return self.hwall[hkey(self, x, y)] == true
end

--- The walls as maximal straight runs {x0, y0, x1, y1}: horizontal runs
-- row by row, then vertical runs column by column.
function World:walls()
  local W, H = self.width, self.height
  local out = {}
  for y = 0, H do
    local x = 0
    while x < W do
      if self.hwall[hkey(self, x, y)] then
        local x0 = x
        while x < W and self.hwall[hkey(self, x, y)] do x = x + 1 end
        out[#out + 1] = { x0, y, x, y }
      else
        x = x + 1
      end
    end
  end
  for x = 0, W do
    local y = 0
    while y < H do
      if self.vwall[vkey(self, x, y)] then
        local y0 = y
        while y < H and self.vwall[vkey(self, x, y)] do y = y + 1 end
        out[#out + 1] = { x, y0, x, y }
      else
        y = y + 1
      end
    end
  end
  return out
end

-- ------------------------------------------------------- rooms and parts --

-- Flood fill of tiles 4-connected without a wall between them; with
-- `blocked`, tiles counted there are left out (label 0). Labels follow the
-- row-major order of each region's first tile.
function World:_label(blocked)
  local W, H = self.width, self.height
  local vwall, hwall = self.vwall, self.hwall
  local label, n = {}, 0
  local stack = {}
  for start = 1, W * H do
    if not label[start] then
      if blocked and (blocked[start] or 0) > 0 then
        label[start] = 0
      else
        n = n + 1
        label[start] = n
        local top = 1
        stack[1] = start
        while top > 0 do
          local idx = stack[top]
          top = top - 1
          local i = idx - 1
          local x, y = i % W, i // W
          -- east, south, west, north
          if x + 1 < W and not vwall[y * (W + 1) + x + 2] then
            local j = idx + 1
            if not label[j] and not (blocked and (blocked[j] or 0) > 0) then
              label[j] = n; top = top + 1; stack[top] = j
            end
          end
          if y + 1 < H and not hwall[(y + 1) * W + x + 1] then
            local j = idx + W
            if not label[j] and not (blocked and (blocked[j] or 0) > 0) then
              label[j] = n; top = top + 1; stack[top] = j
            end
          end
          if x > 0 and not vwall[y * (W + 1) + x + 1] then
            local j = idx - 1
            if not label[j] and not (blocked and (blocked[j] or 0) > 0) then
              label[j] = n; top = top + 1; stack[top] = j
            end
          end
          if y > 0 and not hwall[y * W + x + 1] then
            local j = idx - W
            if not label[j] and not (blocked and (blocked[j] or 0) > 0) then
              label[j] = n; top = top + 1; stack[top] = j
            end
          end
        end
      end
    end
  end
  return label, n
end

function World:_refresh_rooms()
  if self.rooms_dirty then
    self.rooms, self.nrooms = self:_label(nil)
    self.rooms_dirty = false
    self.parts_dirty = true
  end
end

function World:_refresh()
  self:_refresh_rooms()
  if not self.parts_dirty then return end
  self.parts, self.nparts = self:_label(self.blocked)
  local W = self.width
  local part_room = {}
  for idx = 1, #self.parts do
    local p = self.parts[idx]
    if p > 0 and not part_room[p] then part_room[p] = self.rooms[idx] end
  end
  self.part_room = part_room
  local part_doors = {}
  for _, d in ipairs(self.door_list) do
    local t = d.tiles
    local ia, ib = t[2] * W + t[1] + 1, t[4] * W + t[3] + 1
    local pa, pb = self.parts[ia], self.parts[ib]
    d.part_a = pa ~= 0 and pa or nil
    d.part_b = pb ~= 0 and pb or nil
    d.room = self.rooms[ia]
    d.active = d.part_a ~= nil and d.part_b ~= nil and self.rooms[ia] ~= self.rooms[ib]
    if d.active then
      for _, p in ipairs({ d.part_a, d.part_b }) do
        local list = part_doors[p]
        if not list then list = {}; part_doors[p] = list end
        list[#list + 1] = d
      end
    end
  end
  self.part_doors = part_doors
  for _, o in ipairs(self.object_list) do
    if not o.person then o.room = self.rooms[o.tiles[2] * W + o.tiles[1] + 1] end
  end
  self.parts_dirty = false
end

local function tile_index(self, tx, ty) return ty * self.width + tx + 1 end

function World:_inside(x, y)
  return x >= 0 and y >= 0 and x < self.width * ONE and y < self.height * ONE
end

--- Part of tile (tx, ty), nil for a tile under furniture.
function World:_tile_part(tx, ty)
  self:_refresh()
  local p = self.parts[tile_index(self, tx, ty)]
  if p == 0 then return nil end
  return p
end

--- Part at a fixed point position: its tile's part or, for a tile under
-- furniture, the part of the first neighbour (east, south, west, north)
-- reachable without crossing a wall.
function World:_part_at(x, y)
  if not self:_inside(x, y) then return nil end
  self:_refresh()
  local tx, ty = x >> 16, y >> 16
  local W, H = self.width, self.height
  local idx = tile_index(self, tx, ty)
  local p = self.parts[idx]
  if p ~= 0 then return p end
  local function try(nx, ny, open)
    if open and nx >= 0 and ny >= 0 and nx < W and ny < H then
      local q = self.parts[tile_index(self, nx, ny)]
      if q ~= 0 then return q end
    end
    return nil
  end
  return try(tx + 1, ty, not self.vwall[vkey(self, tx + 1, ty)])
    or try(tx, ty + 1, not self.hwall[hkey(self, tx, ty + 1)])
    or try(tx - 1, ty, not self.vwall[vkey(self, tx, ty)])
    or try(tx, ty - 1, not self.hwall[hkey(self, tx, ty)])
end

-- Parts of the tiles that meet the square of half size `near` around
-- (cx, cy) and lie in a room of the object's footprint.
function World:_parts_near(obj, cx, cy, near)
  self:_refresh()
  local rooms_of = {}
  if obj.person then
    local x, y = self:_position(obj)
    rooms_of[self.rooms[tile_index(self, x >> 16, y >> 16)]] = true
  else
    local t = obj.tiles
    rooms_of[self.rooms[tile_index(self, t[1], t[2])]] = true
    if t[3] then rooms_of[self.rooms[tile_index(self, t[3], t[4])]] = true end
  end
  local W, H = self.width, self.height
  local x0 = math.max(0, (cx - near) // ONE)
  local y0 = math.max(0, (cy - near) // ONE)
  local x1 = math.min(W - 1, (cx + near - 1) // ONE)
  local y1 = math.min(H - 1, (cy + near - 1) // ONE)
  local parts = {}
  for ty = y0, y1 do
    for tx = x0, x1 do
      local idx = tile_index(self, tx, ty)
      local p = self.parts[idx]
      if p ~= 0 and rooms_of[self.rooms[idx]] then parts[p] = true end
    end
  end
  return parts
end

--- Room id of the tile holding the point (x, y), or nil outside the world.
function World:room_at(x, y)
  local fname = "world:room_at"
  check_num(fname, "x", x, -1e9, 1e9)
  check_num(fname, "y", y, -1e9, 1e9)
  local fx, fy = from_number(x), from_number(y)
  if not self:_inside(fx, fy) then return nil end
  self:_refresh()
  return self.rooms[tile_index(self, fx >> 16, fy >> 16)]
end

--- Part id at the point (x, y) (see _part_at), or nil.
function World:part_at(x, y)
  local fname = "world:part_at"
  check_num(fname, "x", x, -1e9, 1e9)
  check_num(fname, "y", y, -1e9, 1e9)
  return self:_part_at(from_number(x), from_number(y))
end

--- Number of rooms and number of parts.
function World:room_count()
  self:_refresh()
  return self.nrooms, self.nparts
end

-- ------------------------------------------------------------- objects --

local OBJECT_KEYS = { type = true, x = true, y = true, w = true, h = true, facing = true,
  walk_over = true, contained = true, label = true, data = true, locked = true,
  penalty = true, portal_tree = true, width = true, speed = true, person = true,
  door = true }

local function new_stats()
  return { routes = 0, failures = {}, portals = 0, portal_failures = 0, waits = 0, errors = 0 }
end

function World:_check_object(fname, spec, level)
  level = level + 1
  if type(spec) ~= "table" then
    fail_arg(fname, "spec must be a table {type =, x =, y =, ...}, got " .. describe(spec), level)
  end
  check_keys(fname, "spec", spec, OBJECT_KEYS, level)
  local o = {}
  o.type = check_name(fname, "spec.type", spec.type, level)
  if spec.person ~= nil then check_bool(fname, "spec.person", spec.person, level) end
  if spec.door ~= nil then check_bool(fname, "spec.door", spec.door, level) end
  o.person = spec.person == true or (spec.person == nil and o.type == "person")
  o.door = spec.door == true or (spec.door == nil and o.type == "door")
  if o.person and o.door then fail_arg(fname, "an object cannot be a person and a door", level) end
  if spec.label ~= nil then
    if type(spec.label) ~= "string" or #spec.label ~= 1 then
      fail_arg(fname, "spec.label must be a one-character string, got " .. describe(spec.label),
        level)
    end
    o.label = spec.label
  end
  if spec.data ~= nil then
    if type(spec.data) ~= "table" then
      fail_arg(fname, "spec.data must be a table, got " .. describe(spec.data), level)
    end
    o.data = plain_copy(spec.data, "spec.data", fname)
  else
    o.data = {}
  end
  local W, H = self.width, self.height
  local function forbid(keys, what)
    for _, k in ipairs(keys) do
      if spec[k] ~= nil then
        fail_arg(fname, ("spec.%s does not apply to %s"):format(k, what), level + 1)
      end
    end
  end
  if o.person then
    forbid({ "w", "h", "walk_over", "contained", "locked", "penalty", "portal_tree" }, "people")
    local x = check_num(fname, "spec.x", spec.x, 0, W, level)
    local y = check_num(fname, "spec.y", spec.y, 0, H, level)
    o.x, o.y = from_number(x), from_number(y)
    if not self:_inside(o.x, o.y) then
      fail_arg(fname, ("spec.x, spec.y (%s, %s) lie outside the world"):format(describe(x),
        describe(y)), level)
    end
    local width = spec.width == nil and 0.5 or check_num(fname, "spec.width", spec.width, 0, 1,
      level, true)
    local speed = spec.speed == nil and 0.25 or check_num(fname, "spec.speed", spec.speed, 0, 1,
      level, true)
    o.width = math.max(2, from_number(width))
    o.half = o.width // 2
    o.speed = math.max(1, from_number(speed))
    o.facing = spec.facing == nil and 0 or check_facing(fname, "spec.facing", spec.facing, level)
    return o
  end
  forbid({ "width", "speed" }, "objects that are not people")
  local tx = check_int(fname, "spec.x", spec.x, 0, W - 1, level)
  local ty = check_int(fname, "spec.y", spec.y, 0, H - 1, level)
  if o.door then
    forbid({ "walk_over", "contained", "facing" }, "doors")
    local w = check_int(fname, "spec.w", spec.w == nil and 1 or spec.w, 1, 2, level)
    local h = check_int(fname, "spec.h", spec.h == nil and 2 or spec.h, 1, 2, level)
    if w * h ~= 2 then
      fail_arg(fname, ("a door spans two tiles: w = 2, h = 1 (across a vertical wall) or "
        .. "w = 1, h = 2 (across a horizontal wall), got w = %d, h = %d"):format(w, h), level)
    end
    if tx + w > W or ty + h > H then
      fail_arg(fname, ("the door at (%d, %d) does not fit in the world"):format(tx, ty), level)
    end
    o.w, o.h = w, h
    if w == 2 then
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
    o.locked = spec.locked ~= nil and check_bool(fname, "spec.locked", spec.locked, level)
    o.penalty = spec.penalty == nil and 0 or check_int(fname, "spec.penalty", spec.penalty, 0,
      M.MAX_PENALTY, level)
    o.portal_tree = spec.portal_tree == nil and M.DOOR_TREE
      or check_name(fname, "spec.portal_tree", spec.portal_tree, level)
    if not self.trees[o.portal_tree] then
      fail_arg(fname, ("spec.portal_tree names no registered tree: '%s'"):format(o.portal_tree),
        level)
    end
    o.walk_over = true
    o.contained = false
    return o
  end
  forbid({ "locked", "penalty", "portal_tree" }, "objects that are not doors")
  local w = spec.w == nil and 1 or check_int(fname, "spec.w", spec.w, 1, M.MAX_OBJECT_SIDE, level)
  local h = spec.h == nil and 1 or check_int(fname, "spec.h", spec.h, 1, M.MAX_OBJECT_SIDE, level)
  if tx + w > W or ty + h > H then
    fail_arg(fname, ("the object at (%d, %d) of size %dx%d does not fit in the world")
      :format(tx, ty, w, h), level)
  end
  o.w, o.h = w, h
  o.tiles = { tx, ty }
  o.cx, o.cy = tx * ONE + w * HALF, ty * ONE + h * HALF
  o.facing = spec.facing == nil and 0 or check_facing(fname, "spec.facing", spec.facing, level)
  o.walk_over = spec.walk_over ~= nil and check_bool(fname, "spec.walk_over", spec.walk_over,
    level)
  o.contained = spec.contained ~= nil and check_bool(fname, "spec.contained", spec.contained,
    level)
  return o
end

local function blocks_tiles(o)
  return not o.person and not o.door and not o.walk_over and not o.contained
end

function World:_cover(o, delta)
  local W = self.width
  local tx, ty = o.tiles[1], o.tiles[2]
  for y = ty, ty + o.h - 1 do
    for x = tx, tx + o.w - 1 do
      local idx = y * W + x + 1
      local n = (self.blocked[idx] or 0) + delta
      self.blocked[idx] = n ~= 0 and n or nil
    end
  end
end

-- Inserts a checked object with id `id`; no more checks may fail after the
-- first change below.
function World:_insert(o, id)
  o.id = id
  o.world = self
  setmetatable(o, Object)
  if o.person then
    self.house:add_person(id, o.x, o.y, o.half, o.speed, o.facing)
    o.x, o.y = nil, nil
    o.frames = {}
    o.route_counter = 0
    o.trap_count = 0
    o.stats = new_stats()
    self.person_list[#self.person_list + 1] = o
  elseif o.door then
    local e = o.edge
    self.house:set_door(e[1], e[2], e[3], id, not o.locked)
    o.scores, o.dir = {}, {}
    self.door_list[#self.door_list + 1] = o
    self.door_distance_cache = {}
    self.parts_dirty = true
  elseif blocks_tiles(o) then
    local x1, y1 = o.tiles[1] + o.w, o.tiles[2] + o.h
    self.house:set_box(id, o.tiles[1] * ONE, o.tiles[2] * ONE, x1 * ONE, y1 * ONE)
    self:_cover(o, 1)
    self.parts_dirty = true
  end
  self.object_list[#self.object_list + 1] = o
  self.by_id[id] = o
  if id >= self.next_id then self.next_id = id + 1 end
  self:_changed_topology()
  return o
end

--- Adds an object; returns it (see docs/world.md for the spec).
function World:add_object(spec)
  local fname = "world:add_object"
  local o = self:_check_object(fname, spec, 1)
  if o.door then
    self:_refresh_rooms()
    local e = o.edge
    if not self:_has_wall(e[1], e[2], e[3]) then
      fail_arg(fname, ("a door needs a wall on the edge it spans; (%d, %d)-(%d, %d) has none")
        :format(e[2], e[3], e[1] and e[2] or e[2] + 1, e[1] and e[3] + 1 or e[3]), 2)
    end
    local t = o.tiles
    if self.rooms[tile_index(self, t[1], t[2])] == self.rooms[tile_index(self, t[3], t[4])] then
      fail_arg(fname, ("the door's tiles (%d, %d) and (%d, %d) lie in the same room")
        :format(t[1], t[2], t[3], t[4]), 2)
    end
    for _, d in ipairs(self.door_list) do
      if d.edge[1] == e[1] and d.edge[2] == e[2] and d.edge[3] == e[3] then
        fail_arg(fname, ("door %d already spans that edge"):format(d.id), 2)
      end
    end
  end
  return self:_insert(o, self.next_id)
end

--- Adds a person: add_object with person = true.
function World:add_person(spec)
  if type(spec) ~= "table" then
    fail_arg("world:add_person", "spec must be a table {x =, y =, ...}, got " .. describe(spec))
  end
  local copy = {}
  for k, v in pairs(spec) do copy[k] = v end
  copy.type = copy.type or "person"
  if copy.person == nil then copy.person = true end
  local o = self:_check_object("world:add_person", copy, 1)
  return self:_insert(o, self.next_id)
end

function World:_check_id(fname, id, level)
  local i = check_int(fname, "id", id, 1, 0x7fffffff, (level or 2) + 1)
  local o = self.by_id[i]
  if not o then
    fail_arg(fname, ("id %d names no object"):format(i), (level or 2) + 1)
  end
  return o
end

--- Removes object id (an error when there is none).
function World:remove_object(id)
  local fname = "world:remove_object"
  local o = self:_check_id(fname, id)
  if o.person then
    for rid = 1, self.route_ids do
      if self.route_owner[rid] == o.id then self.route_owner[rid] = nil end
    end
    self.house:remove_person(o.id)
    for _, d in ipairs(self.door_list) do primitives.release_portal(d, o) end
    for k, p in ipairs(self.person_list) do
      if p == o then table.remove(self.person_list, k); break end
    end
    o.frames = {}
  elseif o.door then
    local e = o.edge
    self.house:set_door(e[1], e[2], e[3], 0, false)
    for k, d in ipairs(self.door_list) do
      if d == o then table.remove(self.door_list, k); break end
    end
    self.door_distance_cache = {}
    self.parts_dirty = true
  elseif blocks_tiles(o) then
    self.house:remove_box(o.id)
    self:_cover(o, -1)
    self.parts_dirty = true
  end
  for k, x in ipairs(self.object_list) do
    if x == o then table.remove(self.object_list, k); break end
  end
  self.by_id[o.id] = nil
  o.removed = true
  self:_changed_topology()
  for _, p in ipairs(self.person_list) do p.wake = true end
end

--- The object with that id, or nil.
function World:object(id)
  local i = check_int("world:object", "id", id, 1, 0x7fffffff)
  return self.by_id[i]
end

local function copy_list(list)
  local out = {}
  for k, v in ipairs(list) do out[k] = v end
  return out
end

--- Every object in object-list order.
function World:objects() return copy_list(self.object_list) end
--- Every door in object-list order.
function World:doors() return copy_list(self.door_list) end
--- Every person in object-list order.
function World:people() return copy_list(self.person_list) end

function World:_door(fname, id)
  local o = self:_check_id(fname, id, 3)
  if not o.door then
    fail_arg(fname, ("object %d is a '%s', not a door"):format(o.id, o.type), 3)
  end
  return o
end

--- Locks or unlocks a door.
function World:set_locked(id, locked)
  local fname = "world:set_locked"
  local d = self:_door(fname, id)
  check_bool(fname, "locked", locked)
  d.locked = locked
  local e = d.edge
  self.house:set_door(e[1], e[2], e[3], d.id, not locked)
  self.topology_version = self.topology_version + 1
end

--- Sets a door's score penalty (subtracted when a route passes it).
function World:set_penalty(id, penalty)
  local fname = "world:set_penalty"
  local d = self:_door(fname, id)
  d.penalty = check_int(fname, "penalty", penalty, 0, M.MAX_PENALTY)
  self.topology_version = self.topology_version + 1
end

--- Gives a door another portal tree (a registered tree name).
function World:set_portal_tree(id, name)
  local fname = "world:set_portal_tree"
  local d = self:_door(fname, id)
  check_name(fname, "name", name)
  if not self.trees[name] then
    fail_arg(fname, ("unknown tree name '%s'"):format(name))
  end
  d.portal_tree = name
end

-- ------------------------------------------------ positions and movement --

function World:_position(p)
  local x, y, f = self.house:person(p.id)
  return x, y, f
end

function World:_center(o)
  if o.person then
    local x, y = self.house:person(o.id)
    return x, y
  end
  return o.cx, o.cy
end

function World._half_extents(_, o)
  if o.person then return o.half, o.half end
  return o.w * HALF, o.h * HALF
end

function World:_walk(p, flat)
  self.house:set_route(p.id, flat, 1)
  p.waiting_move = true
  p.ev_kind, p.ev_blocker = nil, nil
end

function World:_stop(p)
  self.house:stop(p.id)
  p.waiting_move = false
  p.ev_kind, p.ev_blocker = nil, nil
end

function World:_turn(p, f)
  local x, y = self.house:person(p.id)
  self.house:place(p.id, x, y, f)
  self.moves_version = self.moves_version + 1
end

-- ------------------------------------------------------------ planning --

--- The planner contract's room description (see docs/world.md). The table
-- is shared and rebuilt when walls or objects change; do not modify it.
function World:room_description()
  self:_refresh()
  local d = self.desc
  if not d or d.version ~= self.static_version then
    local W, H = self.width, self.height
    local rooms = {}
    for i = 1, W * H do rooms[i] = self.rooms[i] end
    local door_tiles = {}
    for _, o in ipairs(self.door_list) do
      local t = o.tiles
      door_tiles[tile_index(self, t[1], t[2])] = true
      door_tiles[tile_index(self, t[3], t[4])] = true
    end
    local objects, people = {}, {}
    for _, o in ipairs(self.object_list) do
      local e
      if o.person then
        e = { id = o.id, x0 = 0, y0 = 0, x1 = 0, y1 = 0, room = 0, contained = false,
          walk_over = false, person = true }
        people[o.id] = e
      else
        local t = o.tiles
        e = { id = o.id, x0 = t[1], y0 = t[2], x1 = t[1] + o.w, y1 = t[2] + o.h,
          room = self.rooms[tile_index(self, t[1], t[2])], contained = o.contained,
          walk_over = o.walk_over, person = false }
      end
      objects[#objects + 1] = e
    end
    d = {
      version = self.static_version, moves = -1, people = people,
      room = { width = W, height = H, rooms = rooms, doors = door_tiles, walls = self:walls(),
        objects = objects },
    }
    -- only the people's entries change from now on: the rectangle planner
    -- reads the rest once
    rectplan.prepare(d.room)
    self.desc = d
  end
  local stamp = self.tick_count * 1000003 + self.moves_version
  if d.moves ~= stamp then
    local buf = self.desc_buf or {}
    self.desc_buf = buf
    local n = self.house:positions(buf)
    for k = 0, n - 1 do
      local id, x, y = buf[4 * k + 1], buf[4 * k + 2], buf[4 * k + 3]
      local e, p = d.people[id], self.by_id[id]
      local h = p.half
      e.x0, e.y0, e.x1, e.y1 = to_number(x - h), to_number(y - h), to_number(x + h),
        to_number(y + h)
      e.room = self.rooms[tile_index(self, x >> 16, y >> 16)]
    end
    d.moves = stamp
  end
  return d.room
end

local function query_for(self, p, dest, ignore)
  local x, y = self:_position(p)
  return {
    start = { to_number(x), to_number(y) },
    goal = { to_number(dest.x), to_number(dest.y) },
    start_object = p.id,
    dest_object = dest.object,
    mode = dest.mode,
    near = dest.near and to_number(dest.near) or nil,
    width = to_number(p.width),
    ignore_people_within = ignore,
    tuning = self.tuning,
  }
end

-- Calls the world's planner. With options.route_files and the rectangle
-- planner (wayfinder.rectplan.plan), the call also writes its route file,
-- route-NNNNNN.json numbered in call order, into that directory (the
-- planner object gives the same result as wayfinder.rectplan.plan).
function World:_call_planner(room, q)
  if not self.route_files or self.planner ~= rectplan.plan then
    return self.planner(room, q)
  end
  local planner <close> = rectplan.planner(room, q)
  local points, info = planner:run()
  self.route_file_count = self.route_file_count + 1
  local path = ("%s/route-%06d.json"):format(self.route_files, self.route_file_count)
  local ok, err = planner:save_route(path)
  if not ok then error("cannot write route file: " .. tostring(err), 0) end
  return points, info
end

-- Runs the planner; returns the route as a flat fixed point list whose
-- first point is the exact start, or nil, "no_path" (nothing to find even
-- without people) or nil, "crowded".
function World:_plan(p, dest, ignore)
  local room = self:room_description()
  local q = query_for(self, p, dest, ignore and to_number(self.ignore_radius) or nil)
  local points = self:_call_planner(room, q)
  if not points then
    -- the same plan with every person ignored: a distance across the world
    q = query_for(self, p, dest, 2 * math.max(self.width, self.height))
    if not self:_call_planner(room, q) then return nil, "no_path" end
    return nil, "crowded"   -- only people are in the way
  end
  if type(points) ~= "table" or #points < 1 then
    error(("planner returned %s instead of a sequence of points"):format(describe(points)), 0)
  end
  local x, y = self:_position(p)
  local flat = { x, y }
  for k = 2, #points do
    local pt = points[k]
    if type(pt) ~= "table" or type(pt[1]) ~= "number" or type(pt[2]) ~= "number"
        or pt[1] ~= pt[1] or pt[2] ~= pt[2] then
      error(("planner returned a bad point %d: %s"):format(k, describe(pt)), 0)
    end
    local fx, fy = from_number(pt[1]), from_number(pt[2])
    if not self:_inside(fx, fy) then
      error(("planner returned point %d (%g, %g) outside the world"):format(k, pt[1], pt[2]), 0)
    end
    if fx ~= flat[#flat - 1] or fy ~= flat[#flat] then
      flat[#flat + 1] = fx
      flat[#flat + 1] = fy
    end
  end
  return flat
end

local PLAN_KEYS = { width = true, mode = true, near = true, ignore_people_within = true }

--- Plans within a room from (sx, sy) to (gx, gy) with the world's planner;
-- returns points {{x, y}, ...} or nil, reason.
function World:plan(sx, sy, gx, gy, options)
  local fname = "world:plan"
  local W, H = self.width, self.height
  check_num(fname, "sx", sx, 0, W)
  check_num(fname, "sy", sy, 0, H)
  check_num(fname, "gx", gx, 0, W)
  check_num(fname, "gy", gy, 0, H)
  options = options or {}
  if type(options) ~= "table" then fail_arg(fname, "options must be a table") end
  check_keys(fname, "options", options, PLAN_KEYS)
  local width = options.width == nil and 0.5 or check_num(fname, "options.width",
    options.width, 0, 1, 2, true)
  local mode = options.mode or "point"
  if mode ~= "point" and mode ~= "near" then
    fail_arg(fname, "options.mode must be 'point' or 'near', got " .. describe(mode))
  end
  local near = nil
  if mode == "near" then
    near = check_num(fname, "options.near", options.near, 0, 1024)
  end
  local ignore = nil
  if options.ignore_people_within ~= nil then
    ignore = check_num(fname, "options.ignore_people_within", options.ignore_people_within, 0,
      math.huge)
    -- beyond the world's span every person is ignored anyway
    ignore = math.min(ignore, 2 * math.max(W, H))
  end
  return self:_call_planner(self:room_description(), {
    start = { sx, sy }, goal = { gx, gy }, mode = mode, near = near, width = width,
    ignore_people_within = ignore, tuning = self.tuning,
  })
end

-- -------------------------------------------------------- door scoring --

local SCORE_KEYS = { propagation = true }

local function goal_parts_at(self, fname, gx, gy)
  local part = self:_part_at(gx, gy)
  if not part then fail_arg(fname, "the goal lies in no part of a room", 3) end
  return { [part] = true }
end

--- Scores every door for a goal at (gx, gy): returns {[door id] = score}
-- (0 when not connected) and the number of door visits.
function World:door_scores(gx, gy, options)
  local fname = "world:door_scores"
  check_num(fname, "gx", gx, 0, self.width)
  check_num(fname, "gy", gy, 0, self.height)
  options = options or {}
  if type(options) ~= "table" then fail_arg(fname, "options must be a table") end
  check_keys(fname, "options", options, SCORE_KEYS)
  local prop = options.propagation or self.propagation
  if not PROPAGATIONS[prop] then
    fail_arg(fname, "options.propagation must be 'best_first' or 'recursive', got "
      .. describe(prop))
  end
  local fx, fy = from_number(gx), from_number(gy)
  local parts = goal_parts_at(self, fname, fx, fy)
  local visits = doors.compute(self, 0, fx, fy, parts, prop)
  local out = {}
  for _, d in ipairs(self.door_list) do out[d.id] = d.scores[0] end
  return out, visits
end

--- The door a person at (sx, sy) would take toward (gx, gy): its id and
-- start-adjusted score, or nil, "same_part" / "no_door".
function World:best_door(sx, sy, gx, gy, options)
  local fname = "world:best_door"
  check_num(fname, "sx", sx, 0, self.width)
  check_num(fname, "sy", sy, 0, self.height)
  local scores = self:door_scores(gx, gy, options)
  local prop = (options and options.propagation) or self.propagation
  local x, y = from_number(sx), from_number(sy)
  local part = self:_part_at(x, y)
  if not part then fail_arg(fname, "the start lies in no part of a room") end
  local gpart = self:_part_at(from_number(gx), from_number(gy))
  if gpart == part then return nil, "same_part", scores end
  local d, v = doors.best(self, 0, part, x, y, prop)
  if not d then return nil, "no_door", scores end
  return d.id, v, scores
end

-- ---------------------------------------------------------------- ticks --

function Ctx:push(name, object, portal)
  local w = self.world
  if type(name) ~= "string" or not w.trees[name] then
    error(("ctx:push: unknown tree name %s"):format(describe(name)), 0)
  end
  if object ~= nil and (math.type(object) ~= "integer" or not w.by_id[object]) then
    error(("ctx:push: object %s names no object"):format(describe(object)), 0)
  end
  self.person.pending = { tree = name, object = object, portal = portal, pos = self.pos }
end

function Ctx:take_child()
  local f = self.frame
  if f.waiting == self.pos and f.child then
    local c = f.child
    f.child, f.waiting = nil, nil
    return c
  end
  return nil
end

function Ctx:fail(reason, blocker)
  self.person.fail_reason = reason
  self.person.fail_blocker = blocker
end

function Ctx:stack_object()
  local id = self.frame.object
  return id and self.world.by_id[id] or nil
end

local function new_frame(tree, object, portal, point, args)
  return { tree = tree, object = object, portal = portal, point = point, args = args,
    states = {}, memory = {} }
end

function World:_set_ctx(p, frame)
  local ctx = self.ctx
  ctx.person, ctx.data = p, p.data
  ctx.frame, ctx.object = frame, frame and frame.object
  ctx.memory = frame and frame.memory
  ctx.pos, ctx.state = nil, nil
  return ctx
end

function World._deliver(_, p, r, reason, blocker, message)
  local below = p.frames[#p.frames]
  if below then
    if below.waiting then
      below.child = { status = r, reason = reason, blocker = blocker, error = message }
    end
  else
    p.last_result = r
  end
end

-- Pops the top frame; a door reserved through it becomes free.
function World:_pop(p)
  local frame = p.frames[#p.frames]
  p.frames[#p.frames] = nil
  local d = frame.object and self.by_id[frame.object]
  if d and d.door then primitives.release_portal(d, p) end
  return frame
end

function World:_frame_error(p, frame, tree, msg)
  local ctx = self:_set_ctx(p, frame)
  pcall(btrun.halt_frame, tree, frame, ctx)
  self:_pop(p)
  p.pending = nil
  msg = tostring(msg)
  p.last_error = msg
  p.stats.errors = p.stats.errors + 1
  local reason = frame.portal and "portal_error" or "error"
  p.fail_reason, p.fail_blocker = reason, frame.portal
  local below = p.frames[#p.frames]
  if below and below.waiting then
    self:_deliver(p, FAILURE, reason, frame.portal, msg)
  else
    if not below then p.last_result = FAILURE end
    if self.on_error then self.on_error(p, msg) end
  end
end

function World:_run_person(p)
  p.wake = false
  for _ = 1, self.max_steps do
    local frames = p.frames
    local n = #frames
    if n == 0 or p.removed then break end
    local frame = frames[n]
    local tree = self.trees[frame.tree]
    local ctx = self:_set_ctx(p, frame)
    p.pending = nil
    local ok, r = pcall(btrun.run_frame, tree, frame, ctx)
    if p.removed then break end
    if not ok then
      self:_frame_error(p, frame, tree, r)
    elseif r == RUNNING then
      local push = p.pending
      if not push then break end
      p.pending = nil
      frame.waiting = push.pos
      frames[n + 1] = new_frame(push.tree, push.object, push.portal)
    else
      self:_pop(p)
      if r == FAILURE then
        self:_deliver(p, r, p.fail_reason, p.fail_blocker)
      else
        self:_deliver(p, r)
      end
    end
  end
  p.ev_kind, p.ev_blocker = nil, nil
end

--- Advances the world by n ticks (default 1): one call into C moves every
-- walking person, then behaviors run in object-list order.
function World:tick(n)
  if n ~= nil then n = check_int("world:tick", "n", n, 0, 1000000000) else n = 1 end
  for _ = 1, n do
    self:_refresh()
    local ev = self.house:step()
    for i = 1, #ev, 3 do
      local p = self.by_id[ev[i]]
      p.ev_kind, p.ev_blocker = ev[i + 1], ev[i + 2]
      p.waiting_move = false
    end
    self.tick_count = self.tick_count + 1
    local people = copy_list(self.person_list)
    for _, p in ipairs(people) do
      if not p.removed and p.frames[1] and (not p.waiting_move or p.ev_kind or p.wake) then
        self:_run_person(p)
      end
    end
  end
end

--- Ticks run so far.
function World:now()
  return self.tick_count
end

-- -------------------------------------------------------------- objects --

function Object:_person(fname)
  if not self.person then
    error(("%s: object %d is a '%s', not a person"):format(fname, self.id, self.type), 3)
  end
  if self.removed then error(("%s: person %d was removed"):format(fname, self.id), 3) end
end

--- Position (x, y) in world units: the centre.
function Object:position()
  if self.person and not self.removed then
    local x, y = self.world.house:person(self.id)
    return to_number(x), to_number(y)
  end
  if self.person then return nil end
  return to_number(self.cx), to_number(self.cy)
end

--- Facing as a direction name.
function Object:facing_name()
  if self.person and not self.removed then
    local _, _, f = self.world.house:person(self.id)
    return FACINGS[f]
  end
  return FACINGS[self.facing]
end

--- Room id of the object (of its first tile; of its centre for people).
function Object:room()
  local w = self.world
  if self.removed then return nil end
  if self.person then return w:room_at(self:position()) end
  w:_refresh()
  return w.rooms[tile_index(w, self.tiles[1], self.tiles[2])]
end

local PUSH_KEYS = { interrupt = true }

--- Pushes the registered tree `name` on this person's stack with stack
-- object `object` (an id or nil). With interrupt (the default) the current
-- frame pauses until the new one pops; with interrupt = false the frame is
-- queued below the whole stack.
function Object:push(name, object, options)
  local fname = "person:push"
  self:_person(fname)
  local w = self.world
  if type(name) ~= "string" or not w.trees[name] then
    error(("%s: unknown tree name %s"):format(fname, describe(name)), 2)
  end
  if object ~= nil then w:_check_id(fname, object) end
  local interrupt = true
  if options ~= nil then
    if type(options) ~= "table" then error(fname .. ": options must be a table", 2) end
    check_keys(fname, "options", options, PUSH_KEYS)
    if options.interrupt ~= nil then
      interrupt = check_bool(fname, "options.interrupt", options.interrupt)
    end
  end
  self:_push_frame(new_frame(name, object), interrupt)
end

function Object:_push_frame(frame, interrupt)
  local w = self.world
  local frames = self.frames
  if interrupt or #frames == 0 then
    local top = frames[#frames]
    if top then
      btrun.suspend_frame(w.trees[top.tree], top, w:_set_ctx(self, top))
    end
    frames[#frames + 1] = frame
  else
    table.insert(frames, 1, frame)
  end
  self.wake = true
end

local ROUTE_KEYS = { max_tries = true }

--- Moves this person to (x, y) without a tree of the script's own: pushes
-- the built-in route tree (Goto Relative to a point) with interrupt.
function Object:route_to(x, y, options)
  local fname = "person:route_to"
  self:_person(fname)
  local w = self.world
  check_num(fname, "x", x, 0, w.width)
  check_num(fname, "y", y, 0, w.height)
  local fx, fy = from_number(x), from_number(y)
  if not w:_inside(fx, fy) then
    error(("%s: (%s, %s) lies outside the world"):format(fname, describe(x), describe(y)), 2)
  end
  local args = nil
  if options ~= nil then
    if type(options) ~= "table" then error(fname .. ": options must be a table", 2) end
    check_keys(fname, "options", options, ROUTE_KEYS)
    if options.max_tries ~= nil then
      args = { max_tries = check_int(fname, "options.max_tries", options.max_tries, 1, 1000) }
    end
  end
  self:_push_frame(new_frame(M.ROUTE_TREE, nil, nil, { fx, fy }, args), true)
end

--- Abandons every frame (top first); running primitives clean up.
function Object:halt()
  self:_person("person:halt")
  local w = self.world
  while #self.frames > 0 do
    local top = self.frames[#self.frames]
    btrun.halt_frame(w.trees[top.tree], top, w:_set_ctx(self, top))
    w:_pop(self)
  end
  w:_stop(self)
end

--- Sets the failed-portal protocol by hand: trap count = -id and
-- failed_portal = id (id must name a door).
function Object:set_failed_portal(id)
  local fname = "person:set_failed_portal"
  self:_person(fname)
  local d = self.world:_door(fname, id)
  self.trap_count = -d.id
  self.failed_portal = d.id
end

--- The reason and blocker id of the last failure.
function Object:last_failure()
  return self.fail_reason, self.fail_blocker
end

--- The points still ahead on the current walk, {{x, y}, ...}.
function Object:route()
  self:_person("person:route")
  local w = self.world
  local _, _, _, walking, index = w.house:person(self.id)
  local out = {}
  if walking then
    local flat = w.house:route(self.id)
    for k = index, #flat // 2 - 1 do
      out[#out + 1] = { to_number(flat[2 * k + 1]), to_number(flat[2 * k + 2]) }
    end
  end
  return out
end

--- True while the person walks a route.
function Object:walking()
  self:_person("person:walking")
  local _, _, _, walking = self.world.house:person(self.id)
  return walking
end

--- A summary of the person's routing state.
function Object:state()
  self:_person("person:state")
  local names = {}
  for k, f in ipairs(self.frames) do names[k] = f.tree end
  return {
    route_id = self.route_id,
    route_counter = self.route_counter,
    trap_count = self.trap_count,
    failed_portal = self.failed_portal,
    reason = self.fail_reason,
    blocker = self.fail_blocker,
    walking = self:walking(),
    frames = names,
    last_result = self.last_result,
    last_error = self.last_error,
    stats = plain_copy(self.stats, "stats", "person:state"),
  }
end

--- Moves a person without walking (drops any walk, which then replans).
function Object:place(x, y, facing)
  local fname = "person:place"
  self:_person(fname)
  local w = self.world
  check_num(fname, "x", x, 0, w.width)
  check_num(fname, "y", y, 0, w.height)
  local fx, fy = from_number(x), from_number(y)
  if not w:_inside(fx, fy) then
    error(("%s: (%s, %s) lies outside the world"):format(fname, describe(x), describe(y)), 2)
  end
  local _, _, f, walking = w.house:person(self.id)
  if facing ~= nil then f = check_facing(fname, "facing", facing) end
  w.house:place(self.id, fx, fy, f)
  w.moves_version = w.moves_version + 1
  if walking then
    -- tell the walking primitive its walk ended here: it replans
    self.waiting_move = false
    self.ev_kind, self.ev_blocker = 2, 0
    self.wake = true
  end
end

--- Sets the person's speed in tiles per tick, (0, 1].
function Object:set_speed(speed)
  local fname = "person:set_speed"
  self:_person(fname)
  local s = check_num(fname, "speed", speed, 0, 1, 2, true)
  self.speed = math.max(1, from_number(s))
  self.world.house:set_speed(self.id, self.speed)
end

-- ------------------------------------------------------------ save/load --

local function save_frames(p, fname)
  local out = {}
  for k, f in ipairs(p.frames) do
    out[k] = plain_copy({
      tree = f.tree, object = f.object, portal = f.portal, point = f.point, args = f.args,
      states = f.states, memory = f.memory, waiting = f.waiting, child = f.child,
    }, ("person %d frame %d"):format(p.id, k), fname)
  end
  return out
end

--- The whole world as plain Lua data (see docs/world.md).
function World:save()
  local fname = "world:save"
  local vw, hw = {}, {}
  for k in pairs(self.vwall) do vw[#vw + 1] = k end
  for k in pairs(self.hwall) do hw[#hw + 1] = k end
  table.sort(vw)
  table.sort(hw)
  local objects = {}
  for _, o in ipairs(self.object_list) do
    local s = { id = o.id, type = o.type, label = o.label,
      data = plain_copy(o.data, ("object %d data"):format(o.id), fname) }
    if o.person then
      local x, y, f, walking, index = self.house:person(o.id)
      s.kind = "person"
      s.x, s.y, s.facing = x, y, f
      s.width, s.speed = o.width, o.speed
      if walking then
        s.route = self.house:route(o.id)
        s.index = index
      end
      s.frames = save_frames(o, fname)
      s.route_id, s.route_counter, s.trap_count = o.route_id, o.route_counter, o.trap_count
      s.failed_portal = o.failed_portal
      s.fail_reason, s.fail_blocker = o.fail_reason, o.fail_blocker
      s.waiting_move, s.wake = o.waiting_move, o.wake
      s.ev_kind, s.ev_blocker = o.ev_kind, o.ev_blocker
      s.last_result, s.last_error = o.last_result, o.last_error
      s.stats = plain_copy(o.stats, "stats", fname)
    else
      s.kind = o.door and "door" or "thing"
      s.x, s.y, s.w, s.h, s.facing = o.tiles[1], o.tiles[2], o.w, o.h, o.facing
      s.walk_over, s.contained = o.walk_over, o.contained
      if o.door then
        s.locked, s.penalty, s.portal_tree = o.locked, o.penalty, o.portal_tree
        s.busy = o.busy and plain_copy(o.busy, "door busy", fname)
        local scores, dir = {}, {}
        for rid = 1, self.route_ids do
          scores[rid] = o.scores[rid] or 0
          dir[rid] = o.dir[rid] or 0
        end
        s.scores, s.dir = scores, dir
      end
    end
    objects[#objects + 1] = s
  end
  local owners = {}
  for rid = 1, self.route_ids do owners[rid] = self.route_owner[rid] or 0 end
  return {
    format = M.SAVE_FORMAT, version = M.SAVE_VERSION,
    width = self.width, height = self.height,
    route_ids = self.route_ids, max_score = self.max_score, propagation = self.propagation,
    max_steps = self.max_steps, ignore_radius = self.ignore_radius,
    tuning = plain_copy(self.tuning, "tuning", fname),
    tick = self.tick_count, next_id = self.next_id,
    topology_version = self.topology_version,
    vwalls = vw, hwalls = hw,
    objects = objects,
    route_owner = owners,
  }
end

local LOAD_KEYS = { planner = true, on_error = true, route_files = true }

local function load_error(msg)
  error("wayfinder.world.load: " .. msg, 3)
end

local function check_saved_frames(w, s)
  for k, f in ipairs(s.frames or {}) do
    if type(f) ~= "table" or type(f.tree) ~= "string" then
      load_error(("person %d frame %d is malformed"):format(s.id, k))
    end
    local tree = w.trees[f.tree]
    if not tree then
      load_error(("person %d frame %d uses tree '%s', which is not in trees"):format(s.id, k,
        f.tree))
    end
    if type(f.states) ~= "table" then
      load_error(("person %d frame %d has no states table"):format(s.id, k))
    end
    for _, pos in ipairs(sorted_keys(f.states)) do
      if math.type(pos) ~= "integer" or pos < 1 or pos > tree.size then
        load_error(("person %d frame %d does not match tree '%s' (node %s)"):format(s.id, k,
          f.tree, describe(pos)))
      end
    end
  end
end

--- Rebuilds a saved world. trees maps every tree name the saved frames and
-- doors use (other than the built-in ones) to its root node.
function M.load(saved, trees, options)
  if type(saved) ~= "table" or saved.format ~= M.SAVE_FORMAT then
    load_error("saved must be a table made by world:save(), got " .. describe(saved))
  end
  if saved.version ~= M.SAVE_VERSION then
    load_error(("saved version %s is not %d"):format(describe(saved.version), M.SAVE_VERSION))
  end
  if trees ~= nil and type(trees) ~= "table" then
    load_error("trees must be a table {name = tree}, got " .. describe(trees))
  end
  options = options or {}
  if type(options) ~= "table" then load_error("options must be a table") end
  for k in pairs(options) do
    if not LOAD_KEYS[k] then load_error(("unknown options key %s"):format(describe(k))) end
  end
  local ok, w = pcall(new_world, "wayfinder.world.load", {
    width = saved.width, height = saved.height, route_ids = saved.route_ids,
    max_score = saved.max_score, propagation = saved.propagation, max_steps = saved.max_steps,
    ignore_radius = type(saved.ignore_radius) == "number" and saved.ignore_radius / ONE or nil,
    tuning = saved.tuning, trees = trees, planner = options.planner, on_error = options.on_error,
    route_files = options.route_files,
  }, 1)
  if not ok then error(w, 2) end
  for _, key in ipairs(saved.vwalls or {}) do
    local k = check_int("wayfinder.world.load", "vwalls entry", key, 1,
      (w.width + 1) * w.height, 3) - 1
    w:_set_edge(true, k % (w.width + 1), k // (w.width + 1), true)
  end
  for _, key in ipairs(saved.hwalls or {}) do
    local k = check_int("wayfinder.world.load", "hwalls entry", key, 1,
      w.width * (w.height + 1), 3) - 1
    w:_set_edge(false, k % w.width, k // w.width, true)
  end
  w.rooms_dirty = true
  for n, s in ipairs(saved.objects or {}) do
    if type(s) ~= "table" then load_error(("objects[%d] is malformed"):format(n)) end
    local spec = { type = s.type, label = s.label, data = s.data }
    if s.kind == "person" then
      spec.person = true
      spec.x, spec.y = 0, 0
    elseif s.kind == "door" then
      spec.door = true
      spec.x, spec.y, spec.w, spec.h = s.x, s.y, s.w, s.h
      spec.locked, spec.penalty, spec.portal_tree = s.locked, s.penalty, s.portal_tree
    else
      spec.person, spec.door = false, false
      spec.x, spec.y, spec.w, spec.h = s.x, s.y, s.w, s.h
      spec.walk_over, spec.contained = s.walk_over, s.contained
      spec.facing = FACINGS[s.facing]
    end
    local okc, o = pcall(w._check_object, w, "wayfinder.world.load", spec, 1)
    if not okc then error(o, 2) end
    if s.kind == "person" then
      check_saved_frames(w, s)
      o.x, o.y, o.facing = s.x, s.y, s.facing
      o.width, o.half, o.speed = s.width, s.width // 2, s.speed
    end
    local id = check_int("wayfinder.world.load", "object id", s.id, 1, 0x7fffffff, 3)
    if w.by_id[id] or id < w.next_id then
      load_error(("object ids must increase, got %d"):format(id))
    end
    w:_insert(o, id)
    if s.kind == "person" then
      if s.route then w.house:set_route(id, s.route, s.index) end
      o.frames = plain_copy(s.frames or {}, "frames", "wayfinder.world.load")
      o.route_id, o.route_counter, o.trap_count = s.route_id, s.route_counter, s.trap_count
      o.failed_portal = s.failed_portal
      o.fail_reason, o.fail_blocker = s.fail_reason, s.fail_blocker
      o.waiting_move, o.wake = s.waiting_move, s.wake
      o.ev_kind, o.ev_blocker = s.ev_kind, s.ev_blocker
      o.last_result, o.last_error = s.last_result, s.last_error
      o.stats = plain_copy(s.stats or new_stats(), "stats", "wayfinder.world.load")
    elseif s.kind == "door" then
      if s.busy ~= nil then
        o.busy = plain_copy(s.busy, "door busy", "wayfinder.world.load")
      end
      for rid = 1, w.route_ids do
        o.scores[rid] = s.scores and s.scores[rid] or 0
        o.dir[rid] = s.dir and s.dir[rid] or 0
      end
    end
  end
  for rid = 1, w.route_ids do
    local owner = saved.route_owner and saved.route_owner[rid] or 0
    if owner ~= 0 then w.route_owner[rid] = owner end
  end
  w.next_id = math.max(w.next_id, saved.next_id or 1)
  w.tick_count = saved.tick or 0
  w.topology_version = saved.topology_version or 0
  w:_refresh()
  return w
end

-- ------------------------------------------------------------- drawing --

--- An ASCII picture of the world (see wayfinder.house.draw).
function World:draw(options)
  return require("wayfinder.house").draw(self, options)
end

--- Builds a world from an ASCII layout (see wayfinder.house.from_ascii).
function M.from_ascii(text, options)
  return require("wayfinder.house").from_ascii(text, options)
end

return M
