--- bench/smooth.lua: what smoothing costs and what it gives, per map.
-- For an evenly spread subset of each Moving AI map's scenarios, runs
-- grid:find_path without and with `smooth = true` (the default algorithm:
-- JPS on these maps), one after the other for each query, and prints:
-- navcells per grid path, the time per call of both and their difference
-- (the smoothing's cost), and the mean waypoint count and smoothed length of
-- the old greedy string-pulling against the current fewest-waypoint
-- smoothing. The old method is no longer in the product; the baseline is
-- the specs' Lua version of it (brute.greedy_smooth in spec/support/):
-- a greedy pass over the path's navcells (a navcell becomes a waypoint when
-- the next one is hidden from the previous waypoint), then dropping every
-- waypoint whose neighbours see each other until none is left, here on top
-- of grid:line_of_sight, so only its counts and lengths are compared, not
-- its speed. See docs/performance.md.
--
--   lua5.4 bench/smooth.lua [maps_dir] [--queries N] [--maps name,name]
--
-- Exits 1 when a smoothed path has more waypoints than the old method's or
-- a segment without line of sight, 2 on bad arguments, 0 otherwise,
-- including when maps are missing (they are listed).

local script_dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local function lib(name)
  return dofile(("%s/lib/%s.lua"):format(script_dir, name))
end
local cli = lib("cli")
local root = cli.setup(script_dir)

local stats = lib("stats")
local system = lib("system")

io.stdout:setvbuf("line")

local EXPECTED = lib("maps")
local DEFAULT_QUERIES = 200
local MIN_SAMPLE = 200e-6  -- [s] shorter calls are timed in batches
local MAX_REPS = 1000
local ROUNDS = 3           -- samples per call; the least is kept
local USAGE = "usage: lua5.4 bench/smooth.lua [maps_dir] [--queries N] [--maps name,name]"

-- ------------------------------------------------------------ arguments --

local opts = cli.options_or_exit("bench/smooth.lua", USAGE, cli.parse(arg or {}, root, {
  ["--queries"] = function(o, v)
    o.queries = tonumber(v or "")
    if not o.queries or o.queries < 1 or o.queries % 1 ~= 0 then
      return nil, "--queries needs a whole number >= 1"
    end
    return 1
  end,
}))
opts.queries = opts.queries or DEFAULT_QUERIES

local wayfinder = cli.load_wayfinder("bench/smooth.lua")

-- ------------------------------------------------------------- helpers --

local exists = cli.exists

-- The reference implementations of the specs hold the old method.
local brute = dofile(root .. "/spec/support/brute.lua")

-- The old string-pulling (see the header), on the navcells of a path.
local function old_greedy(grid, cells)
  return brute.greedy_smooth(cells, function(a, c)
    return grid:line_of_sight(a[1], a[2], c[1], c[2])
  end)
end

local function polyline(points, get)
  local len = 0
  for k = 2, #points do
    local ax, ay = get(points[k - 1])
    local bx, by = get(points[k])
    len = len + math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
  end
  return len
end
local function pair(p) return p[1], p[2] end
local function field(p) return p.x, p.y end

-- One find_path call's time in seconds: the least of ROUNDS samples, each
-- a batch of calls when one call is shorter than MIN_SAMPLE. The least
-- sample keeps other jobs on the machine out of the difference between
-- the plain and the smoothed call.
local function timed(grid, q, o)
  local clock = os.clock
  local t0 = clock()
  local path, length = grid:find_path(q.sx, q.sy, q.gx, q.gy, o)
  local first = clock() - t0
  local reps = 1
  if first < MIN_SAMPLE then
    reps = math.min(MAX_REPS, math.ceil(MIN_SAMPLE / math.max(first, 1e-6)))
  end
  local best = math.huge
  for _ = 1, ROUNDS do
    t0 = clock()
    for _ = 1, reps do grid:find_path(q.sx, q.sy, q.gx, q.gy, o) end
    best = math.min(best, (clock() - t0) / reps)
  end
  return path, length, best
end

-- Evenly spread subset, as bench/run.lua's --quick.
local function spread(queries, count)
  local n = #queries
  if n <= count then return queries end
  local out = {}
  for i = 1, count do out[i] = queries[math.floor((i - 0.5) * n / count) + 1] end
  return out
end

-- ----------------------------------------------------------------- run --

local problems = {}

local function run_map(name)
  local path = ("%s/%s.map"):format(opts.dir, name)
  local grid = assert(wayfinder.grid.load_movingai(path))
  local queries = assert(wayfinder.movingai.load_scenarios(path .. ".scen"))
  local w, h = grid:width(), grid:height()
  local use = {}
  for _, q in ipairs(spread(queries, opts.queries)) do
    if q.width == w and q.height == h and grid:is_passable(q.sx, q.sy) then use[#use + 1] = q end
  end
  local plain = { rewrite_goal = false, escape = false }
  local smooth = { rewrite_goal = false, escape = false, smooth = true }
  local r = { name = name, size = ("%dx%d"):format(w, h), raw = {}, smooth = {}, cells = 0,
              corners = 0, old = 0, new = 0, old_len = 0, new_len = 0, fewer = 0, n = 0 }
  for _, q in ipairs(use) do
    local rp, _, t_raw = timed(grid, q, plain)
    local sp, slen, t_smooth = timed(grid, q, smooth)
    if rp and sp then
      r.n = r.n + 1
      r.raw[#r.raw + 1], r.smooth[#r.smooth + 1] = t_raw, t_smooth
      local cells = assert(brute.expand(rp))
      local old = old_greedy(grid, cells)
      r.cells, r.corners = r.cells + #cells, r.corners + #rp
      r.old, r.new = r.old + #old, r.new + #sp
      r.old_len, r.new_len = r.old_len + polyline(old, pair), r.new_len + slen
      if #sp < #old then r.fewer = r.fewer + 1 end
      if #sp > #old then
        problems[#problems + 1] = ("%s line %d: %d waypoints, the old method %d"):format(
          name, q.line, #sp, #old)
      end
      for k = 2, #sp do
        if not grid:line_of_sight(sp[k - 1].x, sp[k - 1].y, sp[k].x, sp[k].y) then
          problems[#problems + 1] = ("%s line %d: segment %d has no line of sight"):format(
            name, q.line, k - 1)
        end
      end
      if math.abs(polyline(sp, field) - slen) > 1e-3 then
        problems[#problems + 1] = ("%s line %d: length %.6f, polyline %.6f"):format(
          name, q.line, slen, polyline(sp, field))
      end
    end
  end
  grid:close()
  return r
end

-- --------------------------------------------------------------- report --

local W = { -16, 9, 5, 7, 9, 9, 9, 9, 9, 7, 8, 8, 8, 7, 9, 9 }

local function main()
  local m = system.machine()
  print("wayfinder benchmark: smoothing (string-pulling) on Moving AI scenarios")
  print(("date      %s"):format(os.date("%Y-%m-%d %H:%M:%S %Z")))
  print(("machine   %s, %s cores (nproc), load %s"):format(m.cpu or "?",
    tostring(m.cores or "?"), m.load or "?"))
  print(("maps      %s, %d evenly spread queries per map, default algorithm, "
    .. "no goal rewriting"):format(opts.dir, opts.queries))
  print("clock     os.clock (process CPU time); each call timed 3 times, the least kept; "
    .. "calls under 200 us timed in batches")
  print()
  local plan, skipped = {}, {}
  local names = opts.only or EXPECTED
  if not os.execute("test -d '" .. opts.dir:gsub("'", "'\\''") .. "'") then
    print(("maps directory: '%s' is not a readable directory"):format(opts.dir))
    print("  (give the maps directory as the first argument, or `make bench MAPS=dir`)")
  end
  for _, name in ipairs(names) do
    local base = ("%s/%s.map"):format(opts.dir, name)
    if exists(base) and exists(base .. ".scen") then
      plan[#plan + 1] = name
    else
      skipped[#skipped + 1] = ("  %-16s %s"):format(name, exists(base)
        and "no .map.scen beside the map" or "not found in " .. opts.dir)
    end
  end
  if #skipped > 0 then
    print(("skipped maps (%d):"):format(#skipped))
    for _, s in ipairs(skipped) do print(s) end
    print()
  end
  if #plan == 0 then
    print("no .map/.map.scen pair to run; nothing measured")
    return 0
  end
  print("                                       --- find_path, us per call ---   "
    .. "--- waypoints (mean) ---    -- length (mean) --")
  print(stats.row(W, { "map", "size", "paths", "navcells", "raw med", "raw mean", "smooth med",
    "smth mean", "smoothing", "x raw", "corners", "old", "new", "fewer", "old", "new" }))
  for _, name in ipairs(plan) do
    collectgarbage("collect")
    local r = run_map(name)
    local n = math.max(r.n, 1)
    local raw_mean, smooth_mean = stats.mean(r.raw), stats.mean(r.smooth)
    print(stats.row(W, {
      r.name, r.size, r.n, stats.num(r.cells / n),
      stats.num(stats.median(r.raw) and stats.median(r.raw) * 1e6),
      stats.num(raw_mean and raw_mean * 1e6),
      stats.num(stats.median(r.smooth) and stats.median(r.smooth) * 1e6),
      stats.num(smooth_mean and smooth_mean * 1e6),
      stats.num(raw_mean and (smooth_mean - raw_mean) * 1e6),
      stats.ratio(raw_mean and smooth_mean / raw_mean),
      stats.num(r.corners / n), stats.num(r.old / n), stats.num(r.new / n),
      ("%.0f%%"):format(100 * r.fewer / n),
      stats.num(r.old_len / n), stats.num(r.new_len / n),
    }))
  end
  print()
  print("smoothing = smooth mean - raw mean: what string-pulling adds to a call; x raw = smooth")
  print("mean / raw mean. corners: waypoints without smoothing (direction changes); old: the")
  print("greedy pass + single-waypoint removal; new: the fewest waypoints; fewer: paths where new")
  print("has fewer waypoints than old. Lengths in navcells (old measured in Lua, new as returned).")
  if #problems > 0 then
    print(("%d problems:"):format(#problems))
    for k = 1, math.min(#problems, 10) do print("  " .. problems[k]) end
    return 1
  end
  return 0
end

os.exit(main())
