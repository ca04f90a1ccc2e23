-- Unit benchmark. Part 1: 1000 units with random orders on
-- Berlin_0_1024.map (a generated map when the maps directory does not hold
-- it, said so in the output), milliseconds per tick and per unit-tick with
-- the bucket index beside the same run with every unit tested (brute), and
-- whether the two traces agree; then the same orders with ORCA avoidance
-- (avoidance = "orca"), its time beside the first row's. Part 2: the vertex pathfinder's time per
-- query with 0, 10 and 100 units nearby, beside its all-edges baseline
-- (every edge tested for every pair, as the reference does) in the same run.
-- Times are CPU seconds (os.clock); instruction counts are not measured.
--
--   lua5.4 bench/units.lua [maps-dir] [--units N] [--ticks N]

local script_dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = script_dir .. "/lib/?.lua;" .. package.path
local cli = require("cli")
local root = cli.setup(script_dir)
local stats = require("stats")
package.path = root .. "/spec/?.lua;" .. package.path
local prng = require("support.prng")

local USAGE = "usage: lua5.4 bench/units.lua [maps-dir] [--units N] [--ticks N]"
local function count_opt(key)
  return function(opts, v)
    local n = tonumber(v or "")
    if not n or n < 1 or n ~= math.floor(n) then
      return nil, "--" .. key .. " needs a positive integer"
    end
    opts[key] = n
    return 1
  end
end
local own = { ["--units"] = count_opt("units"), ["--ticks"] = count_opt("ticks") }
local opts = cli.options_or_exit("bench/units.lua", USAGE, cli.parse(arg or {}, root, own))
local wayfinder = cli.load_wayfinder("bench/units.lua")

local UNITS = opts.units or 1000
local TICKS = opts.ticks or 200

-- ----------------------------------------------------------------- map --

local function generated_map(w, h, seed)
  local g = wayfinder.grid.new(w, h)
  local state = seed
  local function rnd(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n
  end
  g:batch(function()
    for _ = 1, math.floor(w * h / 60) do      -- blocks of 2..8 navcells a side
      local x, y, sw, sh = rnd(w), rnd(h), 2 + rnd(7), 2 + rnd(7)
      for j = y, math.min(h - 1, y + sh - 1) do
        for i = x, math.min(w - 1, x + sw - 1) do g:set_passable(i, j, false) end
      end
    end
  end)
  return g
end

local path = opts.dir .. "/Berlin_0_1024.map"
local grid, map_name
if cli.exists(path) then
  grid = assert(wayfinder.grid.load_movingai(path))
  map_name = "Berlin_0_1024"
else
  print(("note: %s is absent, so Berlin_0_1024 is skipped; running on a generated "
    .. "1024x1024 map with random blocks instead"):format(path))
  grid = generated_map(1024, 1024, 7)
  map_name = "generated 1024x1024"
end
local W, H = grid:width(), grid:height()

-- a deterministic generator shared by both runs
local function generator(seed)
  local g = prng.new(seed)
  return function(n)
    return g.int(0, n - 1)
  end
end

local function passable_point(rnd)
  for _ = 1, 10000 do
    local x, y = rnd(W), rnd(H)
    if grid:is_passable(x, y) then return x + 0.5, y + 0.5 end
  end
  error("no passable navcell found")
end

-- ------------------------------------------------------ part 1: motion --

local function run(brute, avoidance)
  local units = wayfinder.units.new(grid, { capacity = UNITS, brute = brute,
    max_order_ticks = TICKS, budget = 50000, avoidance = avoidance })
  local rnd = generator(13)
  local ids = {}
  while #ids < UNITS do
    local x, y = passable_point(rnd)
    local id = units:add({ x = x, y = y, radius = 0.4, speed = 0.5 + rnd(4) / 4 })
    if id then ids[#ids + 1] = id end
  end
  -- each order goes up to 48 navcells away, so the units meet on the way
  local function order(id)
    local ux, uy = units:position(id)
    for _ = 1, 20 do
      local gx, gy = math.floor(ux) + rnd(97) - 48, math.floor(uy) + rnd(97) - 48
      if gx >= 0 and gy >= 0 and gx < W and gy < H and grid:is_passable(gx, gy) then
        units:move(id, gx + 0.5, gy + 0.5)
        return
      end
    end
  end
  for _, id in ipairs(ids) do order(id) end
  local outcomes, hash = {}, 2166136261
  local t0 = os.clock()
  for _ = 1, TICKS do
    for _, e in ipairs(units:tick()) do
      local key = e.event .. (e.reason and ":" .. e.reason or "")
      outcomes[key] = (outcomes[key] or 0) + 1
      if e.event ~= "blocked" then order(e.id) end
    end
  end
  local seconds = os.clock() - t0
  for _, id in ipairs(ids) do
    local x, y = units:position(id)
    hash = prng.fnv32(hash, prng.exact(x) .. prng.exact(y))
  end
  return seconds, outcomes, hash, units:memory()
end

print(("== units: %d units, %d ticks, random orders on %s"):format(UNITS, TICKS, map_name))
local fast_s, fast_out, fast_hash, memory = run(false)
local brute_s, _, brute_hash = run(true)
local orca_s = run(false, "orca")
local widths = { 28, 12, 16, 10 }
print(stats.row(widths, { "collision test", "ms/tick", "us/unit-tick", "ratio" }))
print(stats.row(widths, { "bucket index", stats.num(fast_s * 1000 / TICKS),
  stats.num(fast_s * 1e6 / TICKS / UNITS), "1.0x" }))
print(stats.row(widths, { "every unit (brute)", stats.num(brute_s * 1000 / TICKS),
  stats.num(brute_s * 1e6 / TICKS / UNITS), stats.ratio(brute_s / fast_s) }))
print(stats.row(widths, { "bucket index, ORCA avoidance", stats.num(orca_s * 1000 / TICKS),
  stats.num(orca_s * 1e6 / TICKS / UNITS), stats.ratio(orca_s / fast_s) }))
local keys = {}
for k in pairs(fast_out) do keys[#keys + 1] = k end
table.sort(keys)
local parts = {}
for _, k in ipairs(keys) do parts[#parts + 1] = ("%s %d"):format(k, fast_out[k]) end
print("events: " .. table.concat(parts, ", "))
print(("same final positions with and without the index: %s; memory %s KiB")
  :format(fast_hash == brute_hash and "yes" or "NO", stats.kib(memory)))
if fast_hash ~= brute_hash then os.exit(1) end

-- --------------------------------------------- part 2: vertex pathfinder --

local QUERIES = 200
print(("\n== vertex pathfinder: %d queries per row, box of 8 navcells, on %s")
  :format(QUERIES, map_name))
print(stats.row({ 14, 10, 10, 10, 12, 14, 8, 6 }, { "nearby units", "vertices",
  "edges", "reached", "bucketed us", "all-edges us", "ratio", "same" }))
for _, nearby in ipairs({ 0, 10, 100 }) do
  local rnd = generator(101 + nearby)
  local units = wayfinder.units.new(grid, { capacity = nearby + 1 })
  -- a mover in an open spot, with units scattered in its box
  local mover
  while not mover do
    local x, y = passable_point(rnd)
    mover = units:add({ x = x, y = y, radius = 0.4, speed = 1 })
  end
  local mx, my = units:position(mover)
  local placed, tries = 0, 0
  while placed < nearby and tries < 100000 do
    tries = tries + 1
    local x, y = mx + (rnd(1601) - 800) / 100, my + (rnd(1601) - 800) / 100
    if units:add({ x = x, y = y, radius = 0.3, speed = 1 }) then placed = placed + 1 end
  end
  -- goals where the mover could stand (as its waypoints are), in the box
  local goals = {}
  while #goals < QUERIES do
    local x, y = mx + (rnd(1601) - 800) / 100, my + (rnd(1601) - 800) / 100
    if units:check_placement(x, y, nil, 0.4) then goals[#goals + 1] = { x, y } end
  end
  local same, vertices, edges, reached_n = true, 0, 0, 0
  local function time(brute)
    local results = {}
    local t0 = os.clock()
    for k, gl in ipairs(goals) do
      local p, reached, info = units:short_path(mover, gl[1], gl[2], { range = 8, brute = brute })
      results[k] = p and #p .. tostring(reached) .. ("%a"):format(p[#p][1]) or "none"
      if info and brute then edges = edges + info.edges end
      if info and not brute then vertices = vertices + info.vertices end
      if reached and not brute then reached_n = reached_n + 1 end
    end
    return os.clock() - t0, results
  end
  local fast_t, fr = time(false)
  local brute_t, br = time(true)
  for k = 1, QUERIES do if fr[k] ~= br[k] then same = false end end
  print(stats.row({ 14, 10, 10, 10, 12, 14, 8, 6 }, { tostring(placed),
    stats.num(vertices / QUERIES), stats.num(edges / QUERIES),
    ("%d%%"):format(math.floor(reached_n * 100 / QUERIES)),
    stats.num(fast_t * 1e6 / QUERIES), stats.num(brute_t * 1e6 / QUERIES),
    stats.ratio(brute_t / fast_t), same and "yes" or "NO" }))
  if not same then os.exit(1) end
end
