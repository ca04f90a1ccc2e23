-- tools/fuzz/files.lua: feeds mutated copies of real inputs to every loader the
-- Lua side has: route files, scenario files, ASCII grids and worlds, Moving
-- AI maps (through a temporary file), saved worlds, saved unit simulations
-- and saved graphs (saved data mutated field by field), and saved grid path
-- tables (files mutated byte by byte and line by line).
--
--   lua5.4 tools/fuzz/files.lua [inputs [seed]]
--
-- Every input must load, or be refused with nil and a reason, or raise an
-- error that starts with the loader's name ("wayfinder.world.load: ...") and
-- not with a position inside the library, nor carry a raw Lua error behind
-- that name ("attempt to index ...", "bad argument #2 to 'format'"). A saved
-- world or ASCII world that loads must then tick, answer for every person,
-- object and door, take a new walk, save, and load again into a copy that
-- draws the same and whose people stand and walk the same for 4 ticks. A
-- unit simulation, graph or grid path table that loads must then tick or
-- answer queries without raising; a refused load must leave its grid as it
-- was (grid:version() and the passability). A loader that does not return
-- within the time the caller's limit allows is a hang (make fuzz runs this
-- under a timeout).
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

local INPUTS = tonumber(arg and arg[1]) or 20000
local SEED = tonumber(arg and arg[2]) or 1
local ROOT = os.getenv("WAYFINDER_ROOT") or "."
-- WAYFINDER_FUZZ_NO_WORLD=1 leaves out the house world targets (world
-- ascii, saved world); nothing sets it, make fuzz and fuzz-short keep them.
local NO_WORLD = (os.getenv("WAYFINDER_FUZZ_NO_WORLD") or "") ~= ""

local state = SEED * 2654435761 % 4294967296
if state == 0 then state = 1 end
local function rand(n)
  state = (state * 1103515245 + 12345) % 2147483648
  return math.floor(state / 65536) % n + 1   -- the high bits: the low ones cycle fast
end
local function pick(list) return list[rand(#list)] end

local function read(path)
  local f = assert(io.open(ROOT .. "/" .. path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- ---------------------------------------------------------- mutations --
local INTERESTING = { "\0", "\127", "\255", "\"", "\\", "{", "}", "[", "]", ",", ":", "-",
  "1e999", "-0", "NaN", "4294967296", "\n", "\r\n", "@", ".", "+", "|", "D", " " }

local function mutate(s)
  for _ = 1, rand(4) do
    local r = rand(6)
    local i = rand(#s + 1)
    if r == 1 then                                   -- truncate
      s = s:sub(1, i - 1)
    elseif r == 2 then                               -- flip a byte
      if #s > 0 then
        local c = string.char(rand(256) - 1)
        s = s:sub(1, i - 1) .. c .. s:sub(i + 1)
      end
    elseif r == 3 then                               -- insert something
      s = s:sub(1, i - 1) .. pick(INTERESTING) .. s:sub(i)
    elseif r == 4 then                               -- delete a run
      s = s:sub(1, i - 1) .. s:sub(i + rand(8))
    elseif r == 5 then                               -- duplicate a run
      local j = math.min(#s, i + rand(16))
      s = s:sub(1, j) .. s:sub(i, j) .. s:sub(j + 1)
    else                                             -- change a number
      s = s:gsub("%d+", function(d)
        if rand(6) == 1 then return pick({ "0", "-1", "999999999", "1.5", "1e308" }) end
        return d
      end, 1)
    end
  end
  return s
end

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
end

-- The hostile values are copied where they are put: a shared table,
-- mutated in one input, could otherwise come to hold itself.
-- Replaces one value somewhere inside a table tree (in a fixed key order).
local HOSTILE = { 0 / 0, 1 / 0, -1, 2 ^ 40, 1.5, "soon", "", true, {}, { 1, 2 } }
local function mutate_tree(t, depth)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  if #keys == 0 then return end
  local k = pick(keys)
  if type(t[k]) == "table" and depth < 6 and rand(3) > 1 then
    return mutate_tree(t[k], depth + 1)
  end
  local r = rand(3)
  if r == 1 then t[k] = nil else t[k] = deep_copy(pick(HOSTILE)) end
end

-- ------------------------------------------------------------- checks --
local bad, nbad = {}, 0
local counts = {}

local function note_bad(target, msg)
  local key = target .. " | " .. tostring(msg):gsub("0x%x+", "0x")
  if not bad[key] then
    bad[key] = true
    nbad = nbad + 1
    if nbad <= 40 then io.stderr:write("BAD ", key, "\n") end
  end
end

local function well_named(msg, fname)
  if type(msg) ~= "string" then return false end
  local where, rest = msg:match("^([^:]+:%d+): (.*)$")
  if where then
    if not where:find("files%.lua") then return false end
    msg = rest
  end
  return msg:sub(1, #fname + 2) == fname .. ": "
end

-- What a Lua error raised by the language itself (not by a check) looks
-- like: a loader must never let one out, even behind its own name.
local RAW = { "attempt to ", "bad argument #", "has no integer representation",
  "stack overflow", "table index is ", "invalid key to", "string expected", "number expected",
  "table expected", "got no value", "comparison", "C stack" }
local function raw_error(msg)
  if type(msg) ~= "string" then return false end
  for _, r in ipairs(RAW) do
    if msg:find(r, 1, true) then return true end
  end
  return false
end

local function try(target, fname, f, ...)
  counts[target] = (counts[target] or 0) + 1
  local res = compat.pack(pcall(f, ...))
  if not res[1] then
    if not well_named(res[2], fname) or raw_error(res[2]) then note_bad(target, res[2]) end
    return nil
  end
  if res[2] == nil and res.n >= 3 and type(res[3]) ~= "string" then
    note_bad(target, "nil without a reason")
  end
  return res[2]
end

-- ------------------------------------------------------------ targets --
local route_seeds = { read("spec/data/routes/sample.route.json"),
  read("spec/data/routes/near.route.json") }
local scen_seeds = { read("spec/data/maps/arena.map.scen") }
local map_seeds = { read("spec/data/maps/arena.map") }
local ascii_world = table.concat({
  "+-+-+-+-+-+-+-+-+-+",
  "|. . . .|. . . . .|",
  "+ + + + + + + + + +",
  "|. . . .A. . . . .|",
  "+ + + + + + + + + +",
  "|. . . .|. . . . .|",
  "+-+-+-+-+-+-+-+-+-+",
}, "\n")
local ascii_options = { legend = { A = { type = "door" } } }

-- two saves: people on a walk through a door, and one with furniture, a
-- locked door, a busy reservation and a graph the world holds
local function saved_worlds()
  local w = wayfinder.world.from_ascii(ascii_world, ascii_options)
  local p = w:add_person { x = 0.5, y = 0.5 }
  w:add_person { x = 6.5, y = 1.5 }
  p:route_to(7.5, 2.5)
  w:tick(3)
  local w2 = wayfinder.world.from_ascii(ascii_world, ascii_options)
  w2:add_object { type = "box", x = 2, y = 0, w = 1, h = 1 }
  local d2 = w2:add_object { type = "door", x = 3, y = 2, w = 2, h = 1, penalty = 3 }
  w2:set_locked(d2.id, true)
  local q = w2:add_person { x = 0.5, y = 2.5 }
  local r = w2:add_person { x = 8.5, y = 0.5 }
  q:route_to(8.5, 2.5)
  r:route_to(0.5, 0.5)
  w2:attach_graph("nav", wayfinder.graph.from_world(w2))
  w2:tick(4)
  return { w:save(), w2:save() }
end
local world_seeds = not NO_WORLD and saved_worlds() or nil

-- Every observable part of a world, for comparing a world with its copy.
local function world_digest(w)
  local out = { w:now(), w:draw() }
  for _, p in ipairs(w:people()) do
    local x, y = p:position()
    local st = p:state()
    out[#out + 1] = ("%d %s %s %s %s %s %s"):format(p.id, tostring(x), tostring(y),
      p:facing_name(), tostring(st.reason), table.concat(st.frames, ","), tostring(p:walking()))
  end
  return table.concat(out, "\n")
end

-- A loaded world must tick, answer for every person and object, take a
-- new walk, save, and load again into a copy that runs as it does.
local function exercise_world(w, target)
  local ok, err = pcall(function()
    w:tick(3)
    for _, o in ipairs(w:objects()) do o:position() end
    for _, p in ipairs(w:people()) do
      p:state(); p:frame_stack(); p:route(); p:last_failure(); p:room()
    end
    for _, d in ipairs(w:doors()) do w:reservation(d.id) end
    w:room_count()
    local people = w:people()
    if people[1] then people[1]:route_to(4.5, 1.5) end
    w:tick(2)
    local copy = wayfinder.world.load(w:save())
    for _ = 1, 4 do
      w:tick()
      copy:tick()
      local a, b = world_digest(w), world_digest(copy)
      if a ~= b then error("a loaded world and its saved copy differ:\n" .. a .. "\n--\n" .. b) end
    end
  end)
  if not ok then note_bad(target, err) end
end

-- richer mutations for the saved units, graphs and path tables: wrong
-- sizes (arrays cut short or grown), extra fields, huge and non-finite
-- numbers, wrong types
local HOSTILE2 = { 0 / 0, 1 / 0, -1 / 0, -1, 0, 2 ^ 31, -2 ^ 31, 2 ^ 53, 2 ^ 63, 1e308, 0.5,
  65536 * 8192, -65536 * 8192, "soon", "", "default", true, false, {}, { 1, 2 }, { x = 1 } }
local function mutate_tree2(t, depth)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local r = rand(9)
  if #keys == 0 or r == 1 then                       -- an extra field
    t[pick({ "extra", "x", "id", 1, #t + 1, 0, -1 })] = deep_copy(pick(HOSTILE2))
    return
  end
  local k = pick(keys)
  if type(t[k]) == "table" and depth < 7 and rand(4) > 1 then
    return mutate_tree2(t[k], depth + 1)
  end
  if r == 2 and #t > 0 then                          -- an array cut short
    t[#t] = nil
  elseif r == 3 and #t > 0 then                      -- an array grown
    t[#t + 1] = deep_copy(t[rand(#t)])
  elseif r == 4 then                                 -- a field missing
    t[k] = nil
  elseif r == 5 and type(t[k]) == "number" then      -- a number nudged
    t[k] = t[k] + pick({ 1, -1, 65536, -65536, 0.5 })
  elseif r == 6 and #keys > 1 then                   -- two fields swapped
    local k2 = pick(keys)
    t[k], t[k2] = t[k2], t[k]
  else
    t[k] = deep_copy(pick(HOSTILE2))
  end
end

local function bit_flip(s)
  if #s == 0 then return s end
  for _ = 1, rand(3) do
    local i = rand(#s)
    local b = s:byte(i)
    local bit = 2 ^ (rand(8) - 1)
    if math.floor(b / bit) % 2 == 1 then b = b - bit else b = b + bit end
    s = s:sub(1, i - 1) .. string.char(b) .. s:sub(i + 1)
  end
  return s
end

local function mutate_lines(s)
  local lines = {}
  for l in (s .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
  local r = rand(4)
  local i = rand(#lines)
  if r == 1 then table.remove(lines, i)                             -- a line lost
  elseif r == 2 then table.insert(lines, i, lines[rand(#lines)])    -- a line repeated
  elseif r == 3 then                                                -- a number changed
    lines[i] = lines[i]:gsub("%-?%d+", function()
      return pick({ "0", "-1", "4097", "99999999999999999999", "1e999", "nan", "" })
    end, 1)
  else lines[i] = lines[i] .. pick({ " 1", " x", "\0", "" }) end    -- extra text
  return table.concat(lines, "\n")
end

local UNIT_MAP = table.concat({
  "........@.......",
  "..@@....@...@...",
  "........@...@...",
  "..@.........@...",
  "..@.....@@@.....",
  "................",
}, "\n")
local function unit_grid()
  return wayfinder.grid.from_ascii(UNIT_MAP, {
    classes = { { name = "default", clearance = 0 }, { name = "big", clearance = 1 } } })
end

local function saved_units(avoid)
  local g = unit_grid()
  local u = wayfinder.units.new(g, avoid and { avoidance = "velocity", accel = 0.25,
    turn_rate = 1, arrive_radius = 1, lookahead = true, budget = 30 } or
    { max_order_ticks = 60, budget = 40, max_wait = 3 })
  u:add { x = 0.5, y = 0.5, radius = 0.3, speed = 0.5 }
  u:add { x = 15.5, y = 5.5, radius = 0.3, speed = 0.25 }
  u:add { x = 5.5, y = 2.5, radius = 0.6, speed = 0.5, class = "big" }
  u:add { x = 10.5, y = 0.5, radius = 0.25, speed = 1 }
  u:move(1, 14.5, 4.5)
  u:move(2, 0.5, 5.5)
  u:move(3, 10.5, 2.5, { goal = { shape = "circle", radius = 2 } })
  u:tick(2)
  u:move(4, 1.5, 3.5)
  return u:save()
end

local function saved_graph(quad)
  local g = wayfinder.grid.from_ascii(UNIT_MAP)
  local gr = wayfinder.graph.from_grid(g, quad and { decomposition = "quadtree" } or nil)
  gr:set_danger(1, 3)
  gr:add_link { from = { 0.5, 0.5 }, to = { 15.5, 5.5 }, kind = "walk", cost = 40 }
  gr:add_temporary_link { from = { 1.5, 5.5 }, to = { 14.5, 0.5 } }
  return gr:save()
end

local function pass_string(g)
  local w, h = g:width(), g:height()
  local out = {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do out[#out + 1] = g:is_passable(x, y) and "1" or "0" end
  end
  return table.concat(out)
end

local units_seeds = { saved_units(false), saved_units(true) }
local graph_seeds = { saved_graph(false), saved_graph(true) }
local cpd_tmp = os.tmpname()
local cpd_seeds = {}
do
  local g = wayfinder.grid.from_ascii(UNIT_MAP)
  assert(wayfinder.pathtable.build_grid(g):save(cpd_tmp))
  local f = assert(io.open(cpd_tmp, "rb"))
  cpd_seeds[1] = f:read("*a")
  f:close()
end

local function grid_state(g) return g:version() .. "/" .. pass_string(g) end

local tmp = os.tmpname()

local targets = {
  function()
    try("route", "wayfinder.rectplan.decode_route", wayfinder.rectplan.decode_route,
      mutate(pick(route_seeds)), "fuzz")
  end,
  function()
    try("scenarios", "wayfinder.movingai.parse_scenarios", wayfinder.movingai.parse_scenarios,
      mutate(pick(scen_seeds)), "fuzz")
  end,
  function()
    try("grid ascii", "wayfinder.grid.from_ascii", wayfinder.grid.from_ascii,
      mutate("....\n.@@.\n....\n"))
  end,
  function()
    local f = assert(io.open(tmp, "wb"))
    f:write(mutate(pick(map_seeds)))
    f:close()
    try("movingai map", "wayfinder.grid.load_movingai", wayfinder.grid.load_movingai, tmp)
  end,
  function()
    local w = try("world ascii", "wayfinder.world.from_ascii", wayfinder.world.from_ascii,
      mutate(ascii_world), ascii_options)
    if w then exercise_world(w, "world ascii run") end
  end,
  function()
    local s = deep_copy(pick(world_seeds))
    local mut = rand(2) == 1 and mutate_tree or mutate_tree2
    for _ = 1, rand(3) do mut(s, 0) end
    local w = try("saved world", "wayfinder.world.load", wayfinder.world.load, s, {})
    if w then
      counts["saved world loaded"] = (counts["saved world loaded"] or 0) + 1
      exercise_world(w, "saved world run")
    end
  end,
  function()
    local s = deep_copy(pick(units_seeds))
    for _ = 1, rand(3) do mutate_tree2(s, 0) end
    local g = unit_grid()
    local before = grid_state(g)
    local u = try("saved units", "wayfinder.units.load", wayfinder.units.load, g, s)
    if u then
      counts["saved units loaded"] = (counts["saved units loaded"] or 0) + 1
      local ok, err = pcall(function()
        u:tick(4)
        for _, id in ipairs(u:ids()) do u:position(id); u:state(id) end
        u:move(u:ids()[1] or 1, 3.5, 3.5)
        u:tick(2)
        u:save()
      end)
      if not ok and not well_named(err, "units:move") then note_bad("saved units run", err) end
      u:close()
    elseif grid_state(g) ~= before then
      note_bad("saved units", "a refused load changed the grid")
    end
  end,
  function()
    local s = deep_copy(pick(graph_seeds))
    for _ = 1, rand(3) do mutate_tree2(s, 0) end
    local gr = try("saved graph", "wayfinder.graph.load", wayfinder.graph.load, s)
    if gr then
      counts["saved graph loaded"] = (counts["saved graph loaded"] or 0) + 1
      local ok, err = pcall(function()
        gr:stats()
        for _ = 1, 3 do
          gr:find_path(rand(16) - 0.5, rand(6) - 0.5, rand(16) - 0.5, rand(6) - 0.5)
        end
        wayfinder.graph.load(gr:save())
      end)
      if not ok then note_bad("saved graph run", err) end
    end
  end,
  function()
    local data = pick(cpd_seeds)
    local r = rand(3)
    if r == 1 then data = bit_flip(data)
    elseif r == 2 then data = mutate_lines(data)
    else data = mutate(data) end
    local f = assert(io.open(cpd_tmp, "wb"))
    f:write(data)
    f:close()
    local g = wayfinder.grid.from_ascii(UNIT_MAP)
    local before = grid_state(g)
    local t = try("saved grid path table", "wayfinder.pathtable.load_grid",
      wayfinder.pathtable.load_grid, cpd_tmp, g)
    if t then
      counts["saved grid path table loaded"] = (counts["saved grid path table loaded"] or 0) + 1
      local ok, err = pcall(function()
        for _ = 1, 4 do
          local p, reason = t:find_path(rand(16) - 1, rand(6) - 1, rand(16) - 1, rand(6) - 1)
          if not p and reason == "corrupt" then error("a loaded table answered corrupt") end
          t:first_move(rand(16) - 1, rand(6) - 1, rand(16) - 1, rand(6) - 1)
        end
        assert(t:matches(g), "a loaded table does not match its grid")
      end)
      if not ok then note_bad("saved grid path table run", err) end
    end
    if grid_state(g) ~= before then
      note_bad("saved grid path table", "the load changed the grid")
    end
  end,
}

if NO_WORLD then table.remove(targets, 6); table.remove(targets, 5) end

for _ = 1, INPUTS do pick(targets)() end
os.remove(tmp)
os.remove(cpd_tmp)

local names = {}
for k in pairs(counts) do names[#names + 1] = k end
table.sort(names)
local parts = {}
for _, k in ipairs(names) do parts[#parts + 1] = ("%s %d"):format(k, counts[k]) end
print(("file fuzz: %d inputs (seed %d%s): %s; %d bad outcomes")
  :format(INPUTS, SEED, NO_WORLD and ", no world" or "", table.concat(parts, ", "), nbad))
os.exit(nbad == 0 and 0 or 1)
