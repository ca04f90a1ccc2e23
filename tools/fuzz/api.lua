-- tools/fuzz/api.lua: random call sequences over wayfinder's public Lua API, with
-- valid and hostile arguments, looking for what the specs did not imagine.
--
--   lua5.4 tools/fuzz/api.lua [calls [seed]]
--
-- Run it against the sanitizer build (make fuzz does) so a memory error stops
-- the process. Every call must either succeed, return nil and a reason string,
-- or raise an error whose message starts by naming the function
-- ("grid:find_path: ..."); after a rejected call the object must answer as
-- before. Arguments include NaN, infinities, huge and negative numbers, empty,
-- huge and NUL-holding strings, objects of the wrong type, closed objects, and
-- tables whose metamethods close the object in use or force a collection.
-- Methods and module functions are found by walking the public tables, so new
-- ones are fuzzed without listing them here.
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

local CALLS = tonumber(arg and arg[1]) or 20000
local SEED = tonumber(arg and arg[2]) or 1
-- WAYFINDER_FUZZ_NO_WORLD=1 leaves out the house world (the world and
-- person kinds, the wayfinder.world module); nothing sets it, make fuzz
-- and fuzz-short keep the world in.
local NO_WORLD = (os.getenv("WAYFINDER_FUZZ_NO_WORLD") or "") ~= ""
-- how many distinct bad outcomes are printed (default 40)
local SHOW = tonumber(os.getenv("WAYFINDER_FUZZ_SHOW") or "") or 40

-- ------------------------------------------------------------- random --
local state = SEED * 2654435761 % 4294967296
if state == 0 then state = 1 end
local function rand(n)                -- integer in [1, n]
  state = (state * 1103515245 + 12345) % 2147483648
  return math.floor(state / 65536) % n + 1   -- the high bits: the low ones cycle fast
end
local function pick(list) return list[rand(#list)] end

-- ------------------------------------------------------------ objects --
-- live objects by kind; each kind knows how to make one and how to probe it
local pool = {}
local closed = {}                     -- objects we closed on purpose

local function small_map()
  return "....@...\n..@@....\n........\n.@......\n....@@..\n........\n"
end

local kinds = {}
local function kind(name, make, probe)
  if NO_WORLD and (name == "world" or name == "person") then return end
  kinds[#kinds + 1] = { name = name, make = make, probe = probe }
end

kind("grid", function()
  return wayfinder.grid.from_ascii(small_map(), {
    classes = { { name = "default", clearance = 0 }, { name = "big", clearance = 1 } } })
end, function(g) return g:width(), g:height(), g:version() end)

kind("queue", function()
  local g = pick(pool.grid or {}) or wayfinder.grid.from_ascii(small_map())
  return wayfinder.queue.new(g)
end, function(q) return q:pending() end)

kind("handle", function()
  local q = pick(pool.queue or {})
  if not q then return nil end
  return q:submit({ start = { 0.5, 0.5 }, goal = { 6.5, 5.5 } })
end, function(h) return h:status() end)

kind("world", function()
  return wayfinder.world.from_ascii(table.concat({
    "+-+-+-+-+",
    "|. . | .|",
    "+ + +-+ +",
    "|. . D .|",
    "+-+-+-+-+",
  }, "\n"))
end, function(w) return w:now() end)

kind("person", function()
  local w = pick(pool.world or {})
  if not w then return nil end
  return w:add_person { x = 0.5 + rand(3) - 1, y = 0.5 }
end, function(p) return p:position() end)

kind("planner", function()
  local ids = {}
  for i = 1, 25 do ids[i] = 1 end
  return wayfinder.rectplan.planner({ width = 5, height = 5, rooms = ids },
    { start = { 1.5, 1.5 }, goal = { 3.5, 3.5 } })
end, function(p) return p:state().status end)

kind("walker", function()
  local core = require("wayfinder.core")
  local w = core.walker_new(6, 6)
  w:add_person(1, 65536 + 32768, 65536 + 32768, 16384, 16384, 0)
  return w
end, function(w) return w:person(1) end)

kind("units", function()
  local g = wayfinder.grid.from_ascii(small_map(), {
    classes = { { name = "default", clearance = 0 }, { name = "big", clearance = 1 } } })
  local u = wayfinder.units.new(g, { max_order_ticks = 40 })
  u:add { x = 0.5, y = 0.5, radius = 0.25, speed = 0.5 }
  u:add { x = 6.5, y = 5.5, radius = 0.25, speed = 0.5 }
  return u
end, function(u) return u:count(), u:memory() end)

kind("graph", function()
  local g = pick(pool.grid or {}) or wayfinder.grid.from_ascii(small_map())
  return wayfinder.graph.from_grid(g)
end, function(g) return g:sector_count(), g:portal_count() end)

kind("solver", function()
  local g = pick(pool.graph or {})
  if not g then return nil end
  return g:begin_path(0.5, 0.5, 6.5, 5.5)
end, function(s) return s.done end)

kind("graph_queue", function()
  return wayfinder.graph.new_queue()
end, function(q) return q:pending() end)

kind("pathtable", function()
  return wayfinder.pathtable.new { nodes = 4, edges = { { 1, 2, 1 }, { 2, 3, 2 }, { 3, 4, 1 },
    { 4, 1, 5, one_way = true } } }
end, function(t) return t:node_count(), t:edge_count(), t:distance(1, 3) end)

kind("gridpathtable", function()
  local g = pick(pool.grid or {}) or wayfinder.grid.from_ascii(small_map())
  return wayfinder.pathtable.build_grid(g)
end, function(t) return t:memory() end)

-- ------------------------------------------------------------ values --
local names = { "default", "big", "jps", "astar", "auto", "point", "near", "circle", "square",
  "x", "y", "start", "goal", "", "door", "wayfinder.door" }
local keys = { "x", "y", "half_width", "half_height", "angle", "algorithm", "smooth", "class",
  "rewrite_goal", "escape", "radius", "goal", "start", "budget", "max_expansions", "partial",
  "shared", "width", "height", "classes", "border", "border_shape", "label", "speed", "facing",
  "near", "ignore", "tuning", "mode", "room", "rooms", "objects", "doors", "max_steps",
  "ignore_radius", "chunk", "max_fields", "x0", "y0", "x1", "y1", "id", "penalty", "locked",
  "kind", "format", "planner", "trees", "seed", "n" }

local random_call          -- forward: callbacks and metamethods make calls too
local depth = 0

local function any_object()
  local k = pick(kinds)
  local list = pool[k.name]
  if list and #list > 0 then return pick(list) end
  if #closed > 0 then return pick(closed) end
  return nil
end

local current                        -- the object whose method is being called

-- a table whose metamethods collect garbage, close an object (the one in
-- use when the metamethod runs, or another) or make a call of their own
local function hostile_table()
  local in_use = rand(2) == 1
  local other = any_object()
  return setmetatable({}, {
    __index = function()
      collectgarbage()
      local victim = in_use and current or other
      local r = rand(4)
      if victim and victim.close and r == 1 then pcall(victim.close, victim)
      elseif r == 2 and depth < 2 then
        -- a re-entrant call: another method, maybe on the same object
        depth = depth + 1
        pcall(random_call)
        depth = depth - 1
      end
      return nil
    end,
    __len = function() collectgarbage(); return rand(5) end,
  })
end

local value                          -- forward
local function option_table(level)
  local t = {}
  for _ = 1, rand(4) do t[pick(keys)] = value(level + 1) end
  return t
end

local function number()
  local r = rand(16)
  if r == 1 then return 0 / 0 elseif r == 2 then return 1 / 0 elseif r == 3 then return -1 / 0
  elseif r == 4 then return 2 ^ 53 elseif r == 5 then return -(2 ^ 31)
  elseif r == 6 then return math.maxinteger elseif r == 7 then return -1
  elseif r == 8 then return rand(20) - 1 + 0.5 elseif r == 9 then return 1e308
  end
  return rand(9) - 1
end

function value(level)
  level = level or 0
  local r = rand(level > 1 and 10 or 18)
  if r <= 4 then return number()
  elseif r >= 17 then return rand(7) - 1 + 0.5
  elseif r == 5 then return nil
  elseif r == 6 then return pick(names)
  elseif r == 7 then return rand(2) == 1
  elseif r == 8 then return any_object()
  elseif r == 9 then return pick({ "", string.rep("x", 70000), "jps\0x", "\127\255" })
  elseif r == 10 then return { rand(8) - 1 + 0.5, rand(8) - 1 + 0.5 }
  elseif r == 11 then return option_table(level)
  elseif r == 12 then return hostile_table()
  elseif r == 13 then
    return function(...)
      if depth < 2 then random_call() end
      return ...
    end
  elseif r == 14 then return coroutine.create(function() end)
  elseif r == 15 then
    local t = {}
    for i = 1, rand(8) do t[i] = number() end
    return t
  end
  return option_table(level)
end

-- ------------------------------------------------------------- checks --
local stats = { calls = 0, ok = 0, reasons = 0, errors = 0, closed_calls = 0 }
local bad = {}                        -- message -> first call that gave it
local nbad = 0

local function note_bad(what, msg)
  local key = what .. " | " .. tostring(msg):gsub("0x%x+", "0x")
  if not bad[key] then
    bad[key] = true
    nbad = nbad + 1
    if nbad <= SHOW then io.stderr:write("BAD ", key, "\n") end
  end
end

-- Functions documented to hand their arguments to another, whose errors
-- keep that one's name.
local DELEGATES = {
  from_regions = { ["wayfinder.graph.from_grid"] = true },
}

-- An error must name the function it came from: "grid:find_path: ..." or
-- "wayfinder.grid.new: ...". A function's own name is enough for methods.
-- A position, when there is one, must be the caller's (this file), never a
-- line inside the library.
local function names_function(msg, fname)
  if type(msg) ~= "string" then return false end
  local where, rest = msg:match("^([^:]+:%d+): (.*)$")
  if where then
    if not where:find("api%.lua") then return false end
    msg = rest
  end
  local head = msg:match("^([%w_%.:]+): ")
  if head and DELEGATES[fname] and DELEGATES[fname][head] then return true end
  return head ~= nil and head:sub(-#fname - 1):match("[%.:]" .. fname .. "$") ~= nil
end

local function method_names(obj)
  local mt = getmetatable(obj)
  local index = mt and mt.__index
  local out = {}
  if type(index) == "table" then
    for k, v in pairs(index) do
      if type(v) == "function" and type(k) == "string" and k:sub(1, 1) ~= "_" then
        out[#out + 1] = k
      end
    end
  end
  table.sort(out)
  return out
end

local modules = {}
for _, mname in ipairs({ "grid", "queue", "rectplan", "world", "bt", "gridplan", "movingai",
  "units", "graph", "pathtable", "sweep" }) do
  local m = wayfinder[mname]
  if type(m) == "table" and not (NO_WORLD and mname == "world") then
    local fns = {}
    for k, v in pairs(m) do
      if type(v) == "function" and k:sub(1, 1) ~= "_" then fns[#fns + 1] = k end
    end
    table.sort(fns)
    modules[#modules + 1] = { name = mname, m = m, fns = fns }
  end
end

-- calls that could run for a very long time with a large valid count
local LONG = { tick = true, run = true, step = true, advance = true, loop = true, retry = true,
  wait = true }

-- Valid calls to start from; successful argument lists are learned as the
-- run goes, then mutated one position at a time, so hostile values reach
-- the code behind the argument checks.
local templates = {
  find_path = { 0.5, 0.5, 6.5, 5.5, { smooth = true } },
  add_obstruction = { { x = 3, y = 3, half_width = 1, half_height = 0.5, angle = 0.5 } },
  submit = { { start = { 0.5, 0.5 }, goal = { 6.5, 5.5 } } },
  nearest_reachable = { 0.5, 0.5, 6.5, 5.5, {} },
  is_reachable = { 0, 0, 6, 5 },
  line_of_sight = { 0, 0, 6, 5 },
  set_passable = { 2, 2, false },
  set_cost = { 1, 1, 3 },
  -- tiles of 8 navcells: one tile covers the fuzzer's small grids
  set_heightmap = { { tile = 8, width = 1, height = 1, heights = { 0, 1, -1, 2 }, water = 0.5 } },
  set_height = { 1, 1, 2 },
  set_water = { 0.25 },
  terrain = { 1, 1 },
  route_to = { 2.5, 0.5, {} },
  add_person = { { x = 2.5, y = 1.5 } },
  add_object = { { x = 1.5, y = 3.5, width = 1, height = 1 } },
  plan = { 0.5, 0.5, 2.5, 1.5, {} },
  new = { 8, 8, {} },
  from_ascii = { "....\n.@..\n" },
  set_route = { 1, { 98304, 98304, 196608, 98304 }, 1 },
  square_free = { 98304, 98304, 16384, 0 },
  tick = { 3 },
  run = { 100 },
  ["units:add"] = { { x = 3.5, y = 2.5, radius = 0.25, speed = 0.5 } },
  ["units:move"] = { 1, 6.5, 5.5, { range = 1 } },
  ["units:short_path"] = { 1, 6.5, 5.5, {} },
  ["units:check_placement"] = { 3.5, 2.5, "default", 0.25 },
  ["units:spawn_points"] = { { x = 3, y = 3, half_width = 1, half_height = 1 }, "default", 0.25, 3 },
  ["units:disperse"] = { { x = 3, y = 3, half_width = 1, half_height = 1 } },
  ["units:stop"] = { 1 },
  ["units:remove"] = { 2 },
  ["units:info"] = { 1 },
  ["units:tick"] = { 2 },
  ["graph:find_path"] = { 0.5, 0.5, 6.5, 5.5, {} },
  ["graph:begin_path"] = { 0.5, 0.5, 6.5, 5.5, {} },
  ["graph:sector_at"] = { 2.5, 2.5 },
  ["graph:sector"] = { 1 },
  ["graph:portal"] = { 1 },
  ["graph:set_danger"] = { 1, 3 },
  ["graph:add_sector"] = { { x0 = 20, y0 = 20, x1 = 22, y1 = 22 } },
  ["solver:step"] = { 10 },
  ["graph_queue:run"] = { 100 },
  ["pathtable:next_hop"] = { 1, 3 },
  ["pathtable:route"] = { 2, 4 },
  ["pathtable:distance"] = { 4, 2 },
  ["pathtable:set_cost"] = { 2, 7 },
  ["pathtable:edge"] = { 3 },
  ["gridpathtable:first_move"] = { 0, 0, 6, 5 },
  ["gridpathtable:find_path"] = { 0, 0, 6, 5 },
  ["wayfinder.pathtable.new"] = { { nodes = 3, edges = { { 1, 2, 1 }, { 2, 3, 1 } } } },
  ["wayfinder.units.max_range_unit"] = { 1, 0.5, 0.5 },
  ["wayfinder.units.new"] = { "grid", { max_order_ticks = 40, budget = 100 } },
  ["wayfinder.graph.from_grid"] = { "grid", {} },
  ["wayfinder.pathtable.build_grid"] = { "grid", {} },
  ["wayfinder.queue.new"] = { "grid", { max_fields = 2 } },
  ["wayfinder.sweep.square"] = { 0, 0, 3, 3, 1, 1, 0.5 },
}
local learned = {}

local function copy_args(t, n)
  local a = {}
  for i = 1, n do a[i] = t[i] end
  return a
end

local function args_for(fname, key)
  local t = templates[key] or templates[fname]
  local base = learned[key] or (t and { args = t, n = #t })
  if base and rand(3) > 1 then
    local a, n = copy_args(base.args, base.n), base.n
    for i = 1, n do
      if a[i] == "grid" and base.args == t then a[i] = pick(pool.grid or {}) end   -- a live grid
    end
    if rand(4) > 1 then
      local i = rand(n + 1)
      a[i] = value(0)
      if i > n then n = i end
    end
    return a, n
  end
  local a = {}
  local n = rand(6) - 1
  for i = 1, n do
    a[i] = value(0)
    if LONG[fname] and type(a[i]) == "number" and a[i] == a[i] and math.abs(a[i]) > 50 then
      a[i] = 50
    end
  end
  return a, n
end

local function call(what, fname, f, self, a, n)
  stats.calls = stats.calls + 1
  local saved = copy_args(a, n)
  depth = depth + 1
  local res = compat.pack(pcall(f, self, compat.unpack(a, 1, n)))
  depth = depth - 1
  if res[1] then
    learned[what] = { args = saved, n = n }
    if res[2] == nil and res.n >= 3 and type(res[3]) ~= "string" and type(res[3]) ~= "table" then
      note_bad(what, "nil without a reason")
    end
    if res[2] == nil and res.n >= 3 then stats.reasons = stats.reasons + 1 else
      stats.ok = stats.ok + 1 end
    return true
  end
  stats.errors = stats.errors + 1
  if not names_function(res[2], fname) then note_bad(what, res[2]) end
  return false
end

function random_call()
  if rand(3) == 1 then
    local mod = pick(modules)
    if #mod.fns == 0 then return end
    local fname = pick(mod.fns)
    local a, n = args_for(fname, "wayfinder." .. mod.name .. "." .. fname)
    local f = mod.m[fname]
    -- the object in use is the first argument with a close method (the
    -- grid of wayfinder.units.new, say): a hostile table may close it
    for i = 1, n do
      local v = a[i]
      if (type(v) == "userdata" or type(v) == "table") and not current then
        local ok, close = pcall(function() return v.close end)
        if ok and type(close) == "function" then current = v end
      end
    end
    call("wayfinder." .. mod.name .. "." .. fname, fname,
      function(_, ...) return f(...) end, nil, a, n)
    current = nil
    return
  end
  local k = pick(kinds)
  local list = pool[k.name]
  if not list or #list == 0 then return end
  local i = rand(#list)
  local obj = list[i]
  local methods = method_names(obj)
  if #methods == 0 then return end
  local fname = pick(methods)
  local before = compat.pack(pcall(k.probe, obj))
  current = obj
  local a, n = args_for(fname, k.name .. ":" .. fname)
  local self = obj
  if rand(20) == 1 then self = value(0) end       -- a wrong self
  local ok = call(k.name .. ":" .. fname, fname, obj[fname], self, a, n)
  current = nil
  -- units:remove removes a unit, not the simulation
  if fname == "close" or (fname == "remove" and k.name ~= "units") then
    table.remove(list, i)
    closed[#closed + 1] = obj
    return
  end
  if not ok and before[1] then
    local after = compat.pack(pcall(k.probe, obj))
    if after[1] then
      for j = 2, before.n do
        if before[j] ~= after[j] and before[j] == before[j] then
          note_bad(k.name .. ":" .. fname, "a rejected call changed the object")
          break
        end
      end
    end
  end
end

-- ---------------------------------------------------------------- run --
local function replenish()
  for _, k in ipairs(kinds) do
    pool[k.name] = pool[k.name] or {}
    if #pool[k.name] < 2 then
      local ok, obj = pcall(k.make)
      if ok and obj ~= nil then pool[k.name][#pool[k.name] + 1] = obj end
    end
  end
end

for c = 1, CALLS do
  replenish()
  random_call()
  if c % 97 == 0 then collectgarbage() end
  if #closed > 50 then closed = { closed[#closed] } end
end
collectgarbage()

print(("api fuzz: %d calls (seed %d%s): %d ok, %d nil+reason, %d errors; %d bad outcomes")
  :format(stats.calls, SEED, NO_WORLD and ", no world" or "", stats.ok, stats.reasons,
    stats.errors, nbad))
os.exit(nbad == 0 and 0 or 1)
