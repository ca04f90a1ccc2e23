--- wayfinder.rectplan: routing inside one room of a tile world with the
-- rectangle planner (free rectangles grown on demand, A* over them, a route
-- smoothed by perturbation), and route files that record a planning call.
-- See docs/rectplan.md.
local compat = require("wayfinder.compat")
local core = require("wayfinder.core")
local json = require("wayfinder.json")

local M = {}

local FORMAT = "wayfinder.route"
local VERSION = 1

-- Descriptions read once by M.prepare, by table (weak: a prepared room
-- goes when its description does).
local prepared = setmetatable({}, { __mode = "k" })

--- Reads a room description once, so that later calls given the same table
-- read only its people again: returns room. See docs/rectplan.md.
function M.prepare(room)
  local ok, p = pcall(core.rectplan_prepare, room)
  if not ok then error(p, 2) end
  prepared[room] = p
  return room
end

-- M.obstacles and M.plan raise the core's errors again at their caller's
-- line, never at this file's.

--- Obstacles of a room for a query: obstacles, inflated, skipped, bounds.
function M.obstacles(room, query)
  local res = compat.pack(pcall(core.rectplan_obstacles, prepared[room] or room, query))
  if not res[1] then error(res[2], 2) end
  return compat.unpack(res, 2, res.n)
end

--- Plans in one call: points, info or nil, reason, info.
function M.plan(room, query)
  local res = compat.pack(pcall(core.rectplan_plan, prepared[room] or room, query))
  if not res[1] then error(res[2], 2) end
  return compat.unpack(res, 2, res.n)
end

-- ---------------------------------------------------- route contents --

-- the order keys are written in, whatever table they belong to
local KEY_ORDER = {
  "format", "version", "room", "query", "tuning", "bounds", "obstacles",
  "inflated", "skipped", "result", "trace",
  "width", "height", "rooms", "doors", "walls", "objects",
  "id", "x0", "y0", "x1", "y1", "room", "contained", "walk_over", "person",
  "box", "penalty", "kind", "rule", "index",
  "start", "goal", "mode", "near", "start_object", "dest_object",
  "ignore_people_within", "terrain",
  "status", "reason", "points", "length", "cost", "chain_length", "nodes",
  "expanded", "vertices", "chain", "astar", "path_nodes",
  "steps", "stages", "step", "max_node_size", "seed", "min_step", "max_nodes", "escape",
}

local function to_json(v)
  return json.encode(v, KEY_ORDER)
end

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, e in pairs(v) do t[k] = copy(e) end
  return t
end

local function penalty_out(p)
  if p == math.huge then return "impassable" end
  return p
end

-- The room as plain JSON data: doors as a sorted list of tile indices.
local function room_out(room)
  local out = {
    width = room.width, height = room.height, rooms = copy(room.rooms),
    walls = copy(room.walls or {}), objects = {},
  }
  local doors = {}
  for k, v in pairs(room.doors or {}) do if v then doors[#doors + 1] = k end end
  table.sort(doors)
  out.doors = doors
  for i, o in ipairs(room.objects or {}) do
    local c = copy(o)
    if c.penalty ~= nil then c.penalty = penalty_out(c.penalty) end
    out.objects[i] = c
  end
  return out
end

local function query_out(query)
  local q = copy(query)
  q.start = { query.start.x or query.start[1], query.start.y or query.start[2] }
  q.goal = { query.goal.x or query.goal[1], query.goal.y or query.goal[2] }
  for _, a in ipairs(q.terrain or {}) do a.penalty = penalty_out(a.penalty) end
  return q
end

local function area_out(a)
  return { box = { a[1], a[2], a[3], a[4] }, kind = a.kind, id = a.id, penalty = a.penalty }
end

local function list_out(list, f)
  local out = {}
  for i, e in ipairs(list) do out[i] = f(e) end
  return out
end

local function points_out(pts)
  return list_out(pts or {}, function(p) return { p[1], p[2] } end)
end

-- The room and query each planner was made from, copied when it was made
-- (the caller may change its tables afterwards).
local inputs = setmetatable({}, { __mode = "k" })

-- Everything one planner used and made, as a plain table.
local function route_table(p)
  local obstacles, inflated, skipped, bounds = p:obstacles()
  local state = p:state()
  local points, a, b = p:result()
  local result
  if points then
    result = { status = "done", points = points_out(points), length = a.length,
      cost = a.cost, chain_length = a.chain_length, nodes = a.nodes,
      expanded = a.expanded, chain = points_out(a.chain),
      astar = points_out(a.astar), path_nodes = a.path_nodes }
  else
    result = { status = state.status, reason = a, nodes = b.nodes,
      expanded = b.expanded }
  end
  local nodes = list_out(state.nodes, function(n)
    return { n[1], n[2], n[3], n[4], n.created, n.expanded or -1, n.penalty or 0 }
  end)
  local vertices = list_out(state.vertices, function(v)
    local ns = v.nodes or {}
    return { v[1], v[2], ns[1] or 0, ns[2] or 0, v.opened or -1, v.closed or -1,
      v.parent or 0, v.via or 0, v.g or -1 }
  end)
  local stages = list_out(state.stages or {}, function(s)
    return { step = s.step, points = points_out(s.points) }
  end)
  local input = inputs[p]
  return {
    format = FORMAT, version = VERSION,
    room = room_out(input.room), query = query_out(input.query),
    tuning = p:tuning(), bounds = bounds,
    obstacles = list_out(obstacles, area_out), inflated = list_out(inflated, area_out),
    skipped = skipped, result = result,
    trace = { steps = state.step, nodes = nodes, vertices = vertices, stages = stages },
  }
end

-- --------------------------------------------------------- planner --

-- A planner is a Lua object of this module's own type, "wayfinder.RectPlan",
-- wrapping the core's planner userdata (whose type and methods stay the
-- core's: advance, run, result, state, obstacles, tuning, close,
-- is_closed); the route file methods are the wrapper's. The userdata is
-- held in a weak table by its wrapper, so it is reachable only through
-- the methods and goes (closing itself) when the wrapper goes.
local handles = setmetatable({}, { __mode = "k" })

local Planner = {}
local planner_mt = {
  __name = "wayfinder.RectPlan",
  __index = Planner,
  __newindex = function(_, k)
    error(("planner: cannot set field '%s' (a planner has methods only)"):format(tostring(k)), 2)
  end,
}

-- How the core names a value it was given in place of a planner.
local function describe_arg(n, v)
  if n == 0 then return "no value" end
  local t = type(v)
  if t == "number" then
    if compat.type(v) == "integer" then return ("%d"):format(v) end
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return ("%.14g"):format(v)
  elseif t == "string" then
    return ("'%s%s'"):format(v:sub(1, 40), #v > 40 and "..." or "")
  elseif t == "nil" or t == "boolean" then
    return tostring(v)
  end
  return "a " .. t
end

-- The core's errors name the line that called it, here: they are raised
-- again from the line that called the method, as when the core was
-- called directly.
local HERE = debug.getinfo(1, "S").short_src
local function core_call(f, u, ...)
  local r = compat.pack(pcall(f, u, ...))
  if r[1] then return compat.unpack(r, 2, r.n) end
  local err = r[2]
  if type(err) == "string" and err:sub(1, #HERE + 1) == HERE .. ":" then
    err = err:gsub("^[^\n]-:%d+: ", "", 1)
  end
  -- level 2: the method tail-calls core_call, so the method's caller
  -- (one more on 5.1, which counts the tail call)
  error(err, 2 + compat.TAIL_LEVEL)
end

-- The core's methods, called on the userdata a planner wraps; anything
-- else as self is refused as the core refuses it.
for _, name in ipairs({ "advance", "run", "result", "state", "obstacles", "tuning",
  "close", "is_closed" }) do
  Planner[name] = function(...)
    local self = ...
    local u = handles[self]
    if not u then
      local fname = "planner:" .. name
      error(("%s: self must be a planner from wayfinder.rectplan.planner, got %s "
        .. "(call it as %s(...))"):format(fname, describe_arg(select("#", ...), self), fname), 0)
    end
    return core_call(u[name], u, select(2, ...))   -- a tail call: see core_call
  end
end

planner_mt.__close = Planner.close
function planner_mt.__tostring(self)
  return tostring(handles[self])
end

local function check_self(self, method)
  if not handles[self] then
    error(("planner:%s: self must be a planner from wayfinder.rectplan.planner, got %s "
      .. "(call it as planner:%s(...))"):format(method, type(self), method), 3)
  end
  if self:is_closed() then error("planner:" .. method .. ": the planner is closed", 3) end
end

--- Creates a step-by-step planner for a room and a query.
function M.planner(room, query)
  local ok, u = pcall(core.rectplan_planner, prepared[room] or room, query)
  if not ok then error(u, 2) end
  local p = setmetatable({}, planner_mt)
  handles[p] = u
  inputs[p] = { room = copy(room), query = copy(query) }
  return p
end

--- The route file text of this planner (see docs/rectplan.md).
function Planner.route_text(self)
  check_self(self, "route_text")
  return to_json(route_table(self))
end

--- Writes the route file; true, or nil and a message when it cannot be written.
function Planner.save_route(self, path)
  check_self(self, "save_route")
  if type(path) ~= "string" then
    error("planner:save_route: path must be a string, got " .. type(path), 2)
  end
  local text = to_json(route_table(self))
  local f, err = io.open(path, "wb")
  if not f then return nil, err end
  local ok, werr = f:write(text)
  f:close()
  if not ok then return nil, werr end
  return true
end

-- ------------------------------------------------------ route files --

-- A value read from a file, for a message: strings quoted with their
-- control bytes escaped, so a stray byte cannot garble the message.
local function describe(v)
  if type(v) == "string" then return compat.quote(v) end
  return tostring(v)
end

-- Turns a decoded document back into room, query and result; nil and a
-- message naming the bad field when the document is not a route.
local function route_parts(doc)
  if type(doc) ~= "table" then return nil, "a route file holds a JSON object" end
  if doc.format ~= FORMAT then
    return nil, ("format must be '%s', got %s"):format(FORMAT, describe(doc.format))
  end
  if doc.version ~= VERSION then
    return nil, ("version must be %d, got %s"):format(VERSION, describe(doc.version))
  end
  if type(doc.room) ~= "table" then return nil, "room must be an object" end
  if type(doc.query) ~= "table" then return nil, "query must be an object" end
  if doc.result ~= nil and type(doc.result) ~= "table" then
    return nil, "result must be an object"
  end
  local room = copy(doc.room)
  local doors = room.doors
  if doors ~= nil and type(doors) ~= "table" then
    return nil, "room.doors must be a list of tile indices"
  end
  room.doors = {}
  for i, k in ipairs(doors or {}) do
    if compat.type(k) ~= "integer" then
      return nil, ("room.doors[%d] must be an integer tile index"):format(i)
    end
    room.doors[k] = true
  end
  local query = copy(doc.query)
  -- the core checks everything else and names the field it rejects
  local ok, err = pcall(core.rectplan_obstacles, room, query)
  if not ok then
    return nil, (tostring(err):gsub("^wayfinder%.rectplan%.obstacles: ", ""))
  end
  return room, query, copy(doc.result or {})
end

local function decode(text, fname, source)
  local doc, err = json.decode(text)
  if err then error(("%s: %s: %s"):format(fname, source, err), 3) end
  local room, query, result = route_parts(doc)
  if not room then error(("%s: %s: %s"):format(fname, source, query), 3) end
  return room, query, result, doc
end

--- Parses route file text: room, query, result, document.
function M.decode_route(text, source)
  local fname = "wayfinder.rectplan.decode_route"
  if type(text) ~= "string" then
    error(fname .. ": text must be a string, got " .. type(text), 2)
  end
  if source ~= nil and type(source) ~= "string" then
    error(fname .. ": source must be a string, got " .. type(source), 2)
  end
  return decode(text, fname, source or "text")
end

--- Loads a route file: room, query, result, document; nil, message when
-- the file cannot be read.
function M.load_route(path)
  local fname = "wayfinder.rectplan.load_route"
  if type(path) ~= "string" then
    error(fname .. ": path must be a string, got " .. type(path), 2)
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  if not text then return nil, "cannot read '" .. path .. "'" end
  return decode(text, fname, path)
end

return M
