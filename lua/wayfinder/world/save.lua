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
local graphs = require("wayfinder.world.graphs")

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
-- for a save without the key, want = the kind of value a save must hold
-- there (see KINDS; a kind ending in "?" also allows nil)}.

-- Counts, counters and coordinates in a save stay within 2^52, so a
-- loaded world can count on for 2^52 more events and its own save still
-- loads (a limit of 2^53 let a loaded tick count pass it on the next tick).
local MAX_INT = 2 ^ 52

-- An integer in [lo, hi]; a float with an integer value counts (and is
-- read back as an integer).
local function integer(v, lo, hi)
  local i = compat.tointeger(v)
  return i ~= nil and i >= lo and i <= hi
end

local INTEGER_KINDS = { count = true, int = true, id = true, blocker = true, event = true,
  accel = true, turn = true, radius = true, corner = true }

--- What wayfinder.world.load accepts in a saved field, by kind: a test and
-- the words for the error.
local KINDS = {
  count = { function(v) return integer(v, 0, MAX_INT) end, "an integer in [0, 2^52]" },
  int = { function(v) return integer(v, -MAX_INT, MAX_INT) end,
    "an integer in [-2^52, 2^52]" },
  id = { function(v) return integer(v, 1, 0x7fffffff) end, "an object id" },
  blocker = { function(v) return integer(v, 0, 0x7fffffff) end, "an object id or 0" },
  event = { function(v) return v == 1 or v == 2 end, "1 or 2" },
  bool = { function(v) return type(v) == "boolean" end, "a boolean" },
  accel = { function(v) return integer(v, 1, 65536) end, "an integer in [1, 65536]" },
  turn = { function(v) return integer(v, 1, 3454217652358) end,
    "an integer in [1, 3454217652358]" },
  radius = { function(v) return integer(v, 0, 4096 * 65536) end,
    "an integer in [0, 268435456]" },
  corner = { function(v) return integer(v, 0, 16 * 65536) end, "an integer in [0, 1048576]" },
  motion = { function(v)
    return type(v) == "table" and integer(v[1], 0, 65536) and integer(v[2], -65536, 65536)
      and integer(v[3], -65536, 65536) and (v[2] ~= 0 or v[3] ~= 0)
      and integer(v[4], -1, 65536)
  end, "a motion state {cur, hx, hy, bend} of integers" },
  string = { function(v) return type(v) == "string" end, "a string" },
  table = { function(v) return type(v) == "table" end, "a table" },
  point = { function(v)
    return type(v) == "table" and integer(v[1], -MAX_INT, MAX_INT)
      and integer(v[2], -MAX_INT, MAX_INT)
  end, "a point {x, y} of integers" },
  ids = { function(v)
    if type(v) ~= "table" then return false end
    for k, id in pairs(v) do
      if not integer(k, 1, #v) or not integer(id, 1, 0x7fffffff) then return false end
    end
    return true
  end, "a list of object ids" },
}

local function want_ok(kind, v)
  local optional = kind:sub(-1) == "?"
  if optional then
    if v == nil then return true end
    kind = kind:sub(1, -2)
  end
  local k = KINDS[kind]
  return k[1](v), k[2] .. (optional and " or nil" or "")
end

--- The world options a save carries, as wayfinder.world.new takes them
-- (read from world.options).
M.OPTIONS = {
  { "width" }, { "height" }, { "route_ids" }, { "max_score" }, { "propagation" },
  { "max_steps" }, { "ignore_radius", fixed = true }, { "tuning", plain = true },
  { "goto_stall" }, { "crowd_stall" }, { "delta_stall" }, { "portal_turn" },
  { "avoidance" }, { "door_flow" },
}

--- The world's own state beside its objects.
M.WORLD = {
  { "tick", get = function(w) return w.tick_count end, set = "tick_count", default = 0,
    want = "count" },
  { "topology_version", default = 0, want = "count" },
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
M.DOOR_STATE = { { "busy", plain = true, want = "table?" }, { "admitted", want = "int?" } }

--- A person's body (its position comes from the walker).
M.BODY = { { "width", want = "int" }, { "speed", want = "int" },
  { "accel", want = "accel?" }, { "turn_rate", want = "turn?" },
  { "arrive_radius", want = "radius?" }, { "lookahead", want = "bool?" },
  { "corner_radius", want = "corner?" } }

--- A person's routing state.
M.PERSON = {
  { "route_id", want = "id?" }, { "route_counter", want = "count?" },
  { "trap_count", want = "int?" }, { "failed_portal", want = "id?" },
  { "fail_reason", want = "string?" }, { "fail_blocker", want = "blocker?" },
  { "waiting_move", want = "bool?" }, { "wake", want = "bool?" },
  { "ev_kind", want = "event?" }, { "ev_blocker", want = "blocker?" },
  { "last_result", want = "string?" }, { "last_error", want = "string?" },
  { "stats", plain = true, default = objects.new_stats, want = "table" },
}

--- Each frame of a person's stack.
M.FRAME = {
  { "tree", want = "string" }, { "object", want = "id?" }, { "portal", want = "id?" },
  { "point", want = "point?" }, { "args", want = "table?" }, { "states", want = "table" },
  { "memory", want = "table?" }, { "waiting", want = "id?" }, { "child", want = "table?" },
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

-- Raised without a position: M.load raises it again at its caller's line.
local function load_error(msg)
  error("wayfinder.world.load: " .. msg, 0)
end

--- Checks saved table `from` (named `what` in errors) against the kinds
-- of list's entries.
local function check_kinds(list, from, what)
  for _, e in ipairs(list) do
    local v = from[e[1]]
    if e.want and not (v == nil and e.default ~= nil) then
      local ok, words = want_ok(e.want, v)
      if not ok then
        load_error(("%s%s must be %s, got %s"):format(what and what .. ": " or "", e[1], words,
          describe(v)))
      end
    end
  end
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
    elseif e.want and INTEGER_KINDS[e.want:gsub("%?$", "")] and v ~= nil then
      v = compat.tointeger(v)
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
      if objects.has_motion(o) then
        local _, _, _, _, _, cur, hx, hy, bend = walker:motion(o.id)
        s.motion = { cur, hx, hy, bend }
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
  saved.graphs = graphs.save(self, fname)
  return saved
end

-- ----------------------------------------------------------------- load --

local LOAD_KEYS = { planner = true, on_error = true, route_files = true }

local STATS_COUNTS = { "routes", "portals", "portal_failures", "waits", "errors" }

-- A person's statistics must be the table the world keeps.
local function check_stats(stats, what)
  for _, k in ipairs(STATS_COUNTS) do
    local ok, words = want_ok("count", stats[k])
    if not ok then
      load_error(("%s: stats.%s must be %s, got %s"):format(what, k, words, describe(stats[k])))
    end
  end
  if type(stats.failures) ~= "table" then
    load_error(("%s: stats.failures must be a table, got %s"):format(what,
      describe(stats.failures)))
  end
  for k, v in pairs(stats.failures) do
    if type(k) ~= "string" or not want_ok("count", v) then
      load_error(("%s: stats.failures must map reasons to counts, got %s = %s"):format(what,
        describe(k), describe(v)))
    end
  end
end

local function check_saved_frames(w, s, what)
  if type(s.frames) ~= "table" then
    load_error(("%s: frames must be a table, got %s"):format(what, describe(s.frames)))
  end
  for k, f in ipairs(s.frames) do
    local where = ("%s frame %d"):format(what, k)
    if type(f) ~= "table" then load_error(where .. " is malformed") end
    check_kinds(M.FRAME, f, where)
    local tree = w.trees[f.tree]
    if not tree then
      load_error(("%s uses tree '%s', which is not in trees"):format(where, f.tree))
    end
    for _, pos in ipairs(check.sorted_keys(f.states)) do
      if compat.type(pos) ~= "integer" or pos < 1 or pos > tree.size then
        load_error(("%s does not match tree '%s' (node %s)"):format(where, f.tree,
          describe(pos)))
      end
    end
  end
end

-- A door's reservation, its scores and directions per route id.
local function check_door(w, s, what)
  local busy = s.busy
  if busy then
    if not want_ok("ids", busy.ids) then
      load_error(("%s: busy.ids must be a list of object ids, got %s"):format(what,
        describe(busy.ids)))
    end
    for _, k in ipairs({ "part", "wait_part", "wait_since", "wait_seen" }) do
      if not want_ok(k == "part" and "int" or "int?", busy[k]) then
        load_error(("%s: busy.%s must be an integer, got %s"):format(what, k,
          describe(busy[k])))
      end
    end
  end
  for _, k in ipairs({ "scores", "dir" }) do
    local t = s[k]
    if t ~= nil then
      if type(t) ~= "table" then
        load_error(("%s: %s must be a table, got %s"):format(what, k, describe(t)))
      end
      for rid = 1, w.route_ids do
        if t[rid] ~= nil and not want_ok(k == "scores" and "count" or "int", t[rid]) then
          load_error(("%s: %s[%d] must be an integer, got %s"):format(what, k, rid,
            describe(t[rid])))
        end
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

-- A message from a call inside the loader, as the loader's own: the
-- position and the inner function's name go, what was wrong stays.
local function inner_message(msg)
  msg = tostring(msg):gsub("^[^:\n]+:%d+: ", "")
  return (msg:gsub("^[%w_.:]+: ", ""))
end

-- Runs f(...) and turns any error it raises into "wayfinder.world.load:
-- <where>: <what was wrong>".
local function guarded(where, f, ...)
  local ok, err = pcall(f, ...)
  if ok then return end
  err = tostring(err)
  if err:find("^wayfinder%.world%.load: ") then error(err, 0) end
  load_error(where .. ": " .. inner_message(err))
end

local function load_person(w, o, s, what, fname)
  check_saved_frames(w, s, what)
  check_kinds(M.BODY, s, what)
  if s.motion ~= nil then
    local ok, words = want_ok("motion", s.motion)
    if not ok then
      load_error(("%s: motion must be %s, got %s"):format(what, words, describe(s.motion)))
    end
    local m = s.motion
    if m[1] > s.speed or m[4] > (type(s.route) == "table" and idiv(#s.route, 2) or 0) then
      load_error(("%s: motion {%s, %s, %s, %s} does not fit its speed and route")
        :format(what, describe(m[1]), describe(m[2]), describe(m[3]), describe(m[4])))
    end
  end
  check_kinds(M.PERSON, s, what)
  if s.stats ~= nil then check_stats(s.stats, what) end
  if s.route_id and s.route_id > w.route_ids then
    load_error(("%s: route_id must be at most %d, got %d"):format(what, w.route_ids,
      s.route_id))
  end
  o.x, o.y, o.facing = s.x, s.y, s.facing
  read(M.BODY, s, o)
  o.half = idiv(o.width, 2)
  return function()
    if s.route ~= nil then w.walker:set_route(o.id, s.route, s.index) end
    if s.motion ~= nil then
      local m = s.motion
      w.walker:set_motion_state(o.id, m[1], m[2], m[3], m[4])
    end
    o.frames = {}
    for k, frame in ipairs(s.frames) do
      o.frames[k] = plain_copy(read(M.FRAME, frame, {}), "frames", fname)
    end
    read(M.PERSON, s, o, nil, fname)
  end
end

local function load_objects(w, saved, fname)
  if saved.objects ~= nil and type(saved.objects) ~= "table" then
    load_error("objects must be a table, got " .. describe(saved.objects))
  end
  for n, s in ipairs(saved.objects or {}) do
    if type(s) ~= "table" then load_error(("objects[%d] is malformed"):format(n)) end
    if s.kind ~= "person" and s.kind ~= "door" and s.kind ~= "thing" then
      load_error(("objects[%d]: kind must be 'person', 'door' or 'thing', got %s"):format(n,
        describe(s.kind)))
    end
    local what = ("%s %s"):format(s.kind, describe(s.id))
    local okc, o = pcall(objects.check, w, fname, spec_of(s), 1)
    if not okc then error(o, 0) end
    local after
    if s.kind == "person" then after = load_person(w, o, s, what, fname) end
    if s.kind == "door" then check_door(w, s, what) end
    local okid, words = want_ok("id", s.id)
    if not okid then
      load_error(("objects[%d]: id must be %s, got %s"):format(n, words, describe(s.id)))
    end
    local id = s.id
    if w.by_id[id] or id < w.next_id then
      load_error(("object ids must increase, got %d"):format(id))
    end
    guarded(what, objects.insert, w, o, id)
    if after then guarded(what, after) end
    if s.kind == "door" then
      read(M.DOOR_STATE, s, o, "door busy", fname)
      for rid = 1, w.route_ids do
        o.scores[rid] = s.scores and s.scores[rid] or 0
        o.dir[rid] = s.dir and s.dir[rid] or 0
      end
    end
  end
end

local function load_walls(w, saved, fname)
  for _, list in ipairs({ "vwalls", "hwalls" }) do
    local keys = saved[list]
    if keys ~= nil and type(keys) ~= "table" then
      load_error(("%s must be a table, got %s"):format(list, describe(keys)))
    end
    local vertical = list == "vwalls"
    local stride = vertical and w.width + 1 or w.width
    local count = vertical and (w.width + 1) * w.height or w.width * (w.height + 1)
    for _, key in ipairs(keys or {}) do
      local ok, err = pcall(check.int, fname, list .. " entry", key, 1, count, 1)
      if not ok then error(err, 0) end
      local k = key - 1
      topology.set_edge(w, vertical, k % stride, idiv(k, stride), true)
    end
  end
end

local function load_owners(w, saved)
  local owners = saved.route_owner
  if owners ~= nil and type(owners) ~= "table" then
    load_error("route_owner must be a table, got " .. describe(owners))
  end
  for rid = 1, w.route_ids do
    local owner = owners and owners[rid] or 0
    if not want_ok("blocker", owner) or (owner ~= 0 and not (w.by_id[owner]
        and w.by_id[owner].person)) then
      load_error(("route_owner[%d] must be 0 or the id of a person, got %s"):format(rid,
        describe(owner)))
    end
    if owner ~= 0 then w.graph:set_owner(rid, owner) end
  end
end

local function load_body(new_world, saved, trees, options)
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
  check_kinds(M.WORLD, saved)
  if saved.next_id ~= nil and not want_ok("id", saved.next_id) then
    load_error("next_id must be an object id, got " .. describe(saved.next_id))
  end
  local wopts = { trees = trees }
  for k in pairs(LOAD_KEYS) do wopts[k] = options[k] end
  for _, e in ipairs(M.OPTIONS) do
    local v = saved[e[1]]
    if e.fixed then v = type(v) == "number" and v / ONE or nil end
    wopts[e[1]] = v
  end
  local ok, w = pcall(new_world, fname, wopts, 1)
  if not ok then error(w, 0) end
  load_walls(w, saved, fname)
  w.rooms_dirty = true
  load_objects(w, saved, fname)
  load_owners(w, saved)
  w.next_id = math.max(w.next_id, saved.next_id or 1)
  read(M.WORLD, saved, w)
  topology.refresh(w)
  graphs.load(w, saved.graphs, load_error)
  return w
end

--- Rebuilds a saved world with `new_world(fname, options, level)` (the
-- world's constructor). See wayfinder.world.load. Every field is checked
-- before the world uses it; any error names wayfinder.world.load, says
-- which part of the save is wrong, and points at the caller's line.
function M.load(new_world, saved, trees, options)
  local ok, w = pcall(load_body, new_world, saved, trees, options)
  if not ok then
    local msg = tostring(w):gsub("^[^:\n]+:%d+: ", "")
    if not msg:find("^wayfinder%.world%.load: ") then
      msg = "wayfinder.world.load: " .. inner_message(msg)
    end
    error(msg, 3)
  end
  return w
end

return M
