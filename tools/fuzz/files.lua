-- tools/fuzz/files.lua: feeds mutated copies of real inputs to every loader the
-- Lua side has: route files, scenario files, ASCII grids and worlds, Moving
-- AI maps (through a temporary file), and saved worlds (saved data mutated
-- field by field).
--
--   lua5.4 tools/fuzz/files.lua [inputs [seed]]
--
-- Every input must load, or be refused with nil and a reason, or raise an
-- error that starts with the loader's name ("wayfinder.world.load: ...") and
-- not with a position inside the library. A saved world that loads must then
-- tick without raising. A loader that does not return within the time the
-- caller's limit allows is a hang (make fuzz runs this under a timeout).
local compat = require("wayfinder.compat")
local wayfinder = require("wayfinder")

local INPUTS = tonumber(arg and arg[1]) or 20000
local SEED = tonumber(arg and arg[2]) or 1
local ROOT = os.getenv("WAYFINDER_ROOT") or "."
-- WAYFINDER_FUZZ_NO_WORLD=1 leaves out the house world targets (world
-- ascii, saved world); make fuzz-short sets it.
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
  if r == 1 then t[k] = nil else t[k] = pick(HOSTILE) end
end

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
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

local function try(target, fname, f, ...)
  counts[target] = (counts[target] or 0) + 1
  local res = compat.pack(pcall(f, ...))
  if not res[1] then
    if not well_named(res[2], fname) then note_bad(target, res[2]) end
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

local function saved_world()
  local w = wayfinder.world.from_ascii(ascii_world, ascii_options)
  local p = w:add_person { x = 0.5, y = 0.5 }
  w:add_person { x = 6.5, y = 1.5 }
  p:route_to(7.5, 2.5)
  w:tick(3)
  return w:save()
end
local save_seed = not NO_WORLD and saved_world() or nil

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
    if w then
      local ok, err = pcall(w.tick, w, 5)
      if not ok then note_bad("world ascii tick", err) end
    end
  end,
  function()
    local s = deep_copy(save_seed)
    for _ = 1, rand(3) do mutate_tree(s, 0) end
    local w = try("saved world", "wayfinder.world.load", wayfinder.world.load, s, {})
    if w then
      local ok, err = pcall(w.tick, w, 5)
      if not ok then note_bad("saved world tick", err) end
    end
  end,
}

if NO_WORLD then targets[6], targets[5] = nil, nil end

for _ = 1, INPUTS do pick(targets)() end
os.remove(tmp)

local names = {}
for k in pairs(counts) do names[#names + 1] = k end
table.sort(names)
local parts = {}
for _, k in ipairs(names) do parts[#parts + 1] = ("%s %d"):format(k, counts[k]) end
print(("file fuzz: %d inputs (seed %d%s): %s; %d bad outcomes")
  :format(INPUTS, SEED, NO_WORLD and ", no world" or "", table.concat(parts, ", "), nbad))
os.exit(nbad == 0 and 0 or 1)
