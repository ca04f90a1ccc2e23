--- wayfinder.world.save: a world as plain Lua data and back. What is saved
-- is listed once, in the tables below: each entry names a saved key, where
-- its value lives and how it is copied, and both world:save and
-- wayfinder.world.load walk the same lists. Saves of version 1 written
-- before a field was added load with that field's default.
local compat = require("wayfinder.compat")
local idiv = compat.idiv
local fixed = require("wayfinder.fixed")
local util = require("wayfinder.util")
local check = require("wayfinder.world.check")
local classes = require("wayfinder.world.classes")
local topology = require("wayfinder.world.topology")
local objects = require("wayfinder.world.objects")

local M = {}
local World = classes.World

local ONE = fixed.ONE
local FACINGS = fixed.FACINGS
local describe = check.describe
local plain_copy = util.plain_copy

M.FORMAT = "wayfinder.world"
M.VERSION = 1

-- Entries: {key, get = function(o) (default o[key]), plain = deep copy,
-- fixed = saved in Q16.16 (options only), default = value or function
-- for a save without the key}.

--- The world options a save carries, as wayfinder.world.new takes them
-- (read from world.options).
M.OPTIONS = {
  { "width" }, { "height" }, { "route_ids" }, { "max_score" }, { "propagation" },
  { "max_steps" }, { "ignore_radius", fixed = true }, { "tuning", plain = true },
  { "goto_stall" }, { "crowd_stall" }, { "delta_stall" }, { "portal_turn" },
}

--- The world's own state beside its objects.
M.WORLD = {
  { "tick", get = function(w) return w.tick_count end, set = "tick_count", default = 0 },
  { "topology_version", default = 0 },
}

--- Every object: the spec fields add_object checks again on load.
M.OBJECT = { { "id" }, { "type" }, { "label" }, { "data", plain = true } }

--- Where furniture and doors stand: their spec fields (a door's facing,
-- walk_over and contained follow from its tiles: saved, not read back).
M.PLACED = {
  { "x", get = function(o) return o.tiles[1] end },
  { "y", get = function(o) return o.tiles[2] end },
  { "w" }, { "h" },
  { "facing", spec = function(v) return FACINGS[v] end, door = false },
  { "walk_over", door = false }, { "contained", door = false },
}

--- A door's own spec fields.
M.DOOR = { { "locked" }, { "penalty" }, { "portal_tree" } }

--- A door's state: its reservation (scores are saved per route id).
M.DOOR_STATE = { { "busy", plain = true } }

--- A person's body (its position comes from the walker).
M.BODY = { { "width" }, { "speed" } }

--- A person's routing state.
M.PERSON = {
  { "route_id" }, { "route_counter" }, { "trap_count" }, { "failed_portal" },
  { "fail_reason" }, { "fail_blocker" }, { "waiting_move" }, { "wake" },
  { "ev_kind" }, { "ev_blocker" }, { "last_result" }, { "last_error" },
  { "stats", plain = true, default = objects.new_stats },
}

--- Each frame of a person's stack.
M.FRAME = {
  { "tree" }, { "object" }, { "portal" }, { "point" }, { "args" }, { "states" },
  { "memory" }, { "waiting" }, { "child" },
}

local function write(list, from, to, where, fname)
  for _, e in ipairs(list) do
    local k = e[1]
    local v
    if e.get then v = e.get(from) else v = from[k] end
    if e.plain and v ~= nil then v = plain_copy(v, where or k, fname) end
    to[k] = v
  end
  return to
end

local function read(list, from, to, where, fname)
  for _, e in ipairs(list) do
    local k = e[1]
    local v = from[k]
    if v == nil and e.default ~= nil then
      v = e.default
      if type(v) == "function" then v = v() end
    elseif e.plain and v ~= nil then
      v = plain_copy(v, where or k, fname)
    end
    to[e.set or k] = v
  end
  return to
end

-- ----------------------------------------------------------------- save --

--- The whole world as plain Lua data (see docs/world.md).
function World:save()
  local fname = "world:save"
  local walker = self.walker
  local saved = { format = M.FORMAT, version = M.VERSION }
  for _, e in ipairs(M.OPTIONS) do
    local v = self.options[e[1]]
    if e.fixed then v = fixed.from_number(v) end
    if e.plain then v = plain_copy(v, e[1], fname) end
    saved[e[1]] = v
  end
  write(M.WORLD, self, saved)
  saved.next_id = self.next_id
  saved.vwalls, saved.hwalls = topology.wall_keys(self)
  local list = {}
  for _, o in ipairs(self.object_list) do
    local s = write(M.OBJECT, o, {}, ("object %d data"):format(o.id), fname)
    if o.person then
      local x, y, f, walking, index = walker:person(o.id)
      s.kind = "person"
      s.x, s.y, s.facing = x, y, f
      write(M.BODY, o, s)
      if walking then
        s.route = walker:route(o.id)
        s.index = index
      end
      s.frames = {}
      for k, frame in ipairs(o.frames) do
        s.frames[k] = plain_copy(write(M.FRAME, frame, {}),
          ("person %d frame %d"):format(o.id, k), fname)
      end
      write(M.PERSON, o, s, nil, fname)
    elseif o.door then
      s.kind = "door"
      write(M.PLACED, o, s)
      write(M.DOOR, o, s)
      write(M.DOOR_STATE, o, s, "door busy", fname)
      local scores, dir = {}, {}
      for rid = 1, self.route_ids do
        scores[rid] = o.scores[rid] or 0
        dir[rid] = o.dir[rid] or 0
      end
      s.scores, s.dir = scores, dir
    else
      s.kind = "thing"
      write(M.PLACED, o, s)
    end
    list[#list + 1] = s
  end
  saved.objects = list
  local owners = {}
  for rid = 1, self.route_ids do owners[rid] = self.graph:owner(rid) or 0 end
  saved.route_owner = owners
  return saved
end

-- ----------------------------------------------------------------- load --

local LOAD_KEYS = { planner = true, on_error = true, route_files = true }

local function load_error(msg, level)
  error("wayfinder.world.load: " .. msg, (level or 2) + 1)
end

local function check_saved_frames(w, s)
  for k, f in ipairs(s.frames or {}) do
    if type(f) ~= "table" or type(f.tree) ~= "string" then
      load_error(("person %d frame %d is malformed"):format(s.id, k), 3)
    end
    local tree = w.trees[f.tree]
    if not tree then
      load_error(("person %d frame %d uses tree '%s', which is not in trees"):format(s.id, k,
        f.tree), 3)
    end
    if type(f.states) ~= "table" then
      load_error(("person %d frame %d has no states table"):format(s.id, k), 3)
    end
    for _, pos in ipairs(check.sorted_keys(f.states)) do
      if compat.type(pos) ~= "integer" or pos < 1 or pos > tree.size then
        load_error(("person %d frame %d does not match tree '%s' (node %s)"):format(s.id, k,
          f.tree, describe(pos)), 3)
      end
    end
  end
end

-- The spec add_object checks for saved object s.
local function spec_of(s)
  local spec = { type = s.type, label = s.label, data = s.data }
  if s.kind == "person" then
    spec.person = true
    spec.x, spec.y = 0, 0
  elseif s.kind == "door" then
    spec.door = true
    for _, e in ipairs(M.PLACED) do
      if e.door ~= false then spec[e[1]] = s[e[1]] end
    end
    for _, e in ipairs(M.DOOR) do spec[e[1]] = s[e[1]] end
  else
    spec.person, spec.door = false, false
    for _, e in ipairs(M.PLACED) do
      local v = s[e[1]]
      if e.spec then v = e.spec(v) end
      spec[e[1]] = v
    end
  end
  return spec
end

--- Rebuilds a saved world with `new_world(fname, options, level)` (the
-- world's constructor). See wayfinder.world.load.
function M.load(new_world, saved, trees, options)
  local fname = "wayfinder.world.load"
  if type(saved) ~= "table" or saved.format ~= M.FORMAT then
    load_error("saved must be a table made by world:save(), got " .. describe(saved))
  end
  if saved.version ~= M.VERSION then
    load_error(("saved version %s is not %d"):format(describe(saved.version), M.VERSION))
  end
  if trees ~= nil and type(trees) ~= "table" then
    load_error("trees must be a table {name = tree}, got " .. describe(trees))
  end
  options = options or {}
  if type(options) ~= "table" then load_error("options must be a table") end
  for k in pairs(options) do
    if not LOAD_KEYS[k] then load_error(("unknown options key %s"):format(describe(k))) end
  end
  local wopts = { trees = trees }
  for k in pairs(LOAD_KEYS) do wopts[k] = options[k] end
  for _, e in ipairs(M.OPTIONS) do
    local v = saved[e[1]]
    if e.fixed then v = type(v) == "number" and v / ONE or nil end
    wopts[e[1]] = v
  end
  local ok, w = pcall(new_world, fname, wopts, 1)
  if not ok then error(w, 2) end
  for _, key in ipairs(saved.vwalls or {}) do
    local k = check.int(fname, "vwalls entry", key, 1, (w.width + 1) * w.height, 2) - 1
    topology.set_edge(w, true, k % (w.width + 1), idiv(k, w.width + 1), true)
  end
  for _, key in ipairs(saved.hwalls or {}) do
    local k = check.int(fname, "hwalls entry", key, 1, w.width * (w.height + 1), 2) - 1
    topology.set_edge(w, false, k % w.width, idiv(k, w.width), true)
  end
  w.rooms_dirty = true
  for n, s in ipairs(saved.objects or {}) do
    if type(s) ~= "table" then load_error(("objects[%d] is malformed"):format(n)) end
    local okc, o = pcall(objects.check, w, fname, spec_of(s), 1)
    if not okc then error(o, 2) end
    if s.kind == "person" then
      check_saved_frames(w, s)
      o.x, o.y, o.facing = s.x, s.y, s.facing
      read(M.BODY, s, o)
      o.half = idiv(o.width, 2)
    end
    local id = check.int(fname, "object id", s.id, 1, 0x7fffffff, 2)
    if w.by_id[id] or id < w.next_id then
      load_error(("object ids must increase, got %d"):format(id))
    end
    objects.insert(w, o, id)
    if s.kind == "person" then
      if s.route then w.walker:set_route(id, s.route, s.index) end
      o.frames = {}
      for k, frame in ipairs(s.frames or {}) do
        o.frames[k] = plain_copy(read(M.FRAME, frame, {}), "frames", fname)
      end
      read(M.PERSON, s, o, nil, fname)
    elseif s.kind == "door" then
      read(M.DOOR_STATE, s, o, "door busy", fname)
      for rid = 1, w.route_ids do
        o.scores[rid] = s.scores and s.scores[rid] or 0
        o.dir[rid] = s.dir and s.dir[rid] or 0
      end
    end
  end
  for rid = 1, w.route_ids do
    local owner = saved.route_owner and saved.route_owner[rid] or 0
    if owner ~= 0 then w.graph:set_owner(rid, owner) end
  end
  w.next_id = math.max(w.next_id, saved.next_id or 1)
  read(M.WORLD, saved, w)
  topology.refresh(w)
  return w
end

return M
