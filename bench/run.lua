--- bench/run.lua: the benchmark behind `make bench`.
-- Runs every scenario of every Moving AI map in a maps directory with A* and
-- with JPS, checks each length against the benchmark's optimal length, and
-- prints per map: queries, skips, mismatches, median and mean time per query,
-- nodes expanded, memory; then the JPS/A* speed ratios. Beside the times of
-- the Lua call it shows the C core's own (build/core_bench, built by `make
-- bench` from bench/core_bench.c and src/*.c, running the same queries
-- through wf_search_run). See docs/performance.md for what each column
-- means and how times are taken.
--
--   lua5.4 bench/run.lua [maps_dir] [--maps name,name] [--quick]
--
-- Exits 1 when any length mismatches (or A* and JPS disagree), 2 on bad
-- arguments, 0 otherwise, including when maps are missing (they are listed).
local compat = require("wayfinder.compat")

local script_dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local function lib(name)
  return dofile(("%s/lib/%s.lua"):format(script_dir, name))
end
local cli = lib("cli")
local root = cli.setup(script_dir)

local stats = lib("stats")
local system = lib("system")

io.stdout:setvbuf("line")

-- Maps we expect in ../shared/maps, in the order they are run and printed.
local EXPECTED = lib("maps")
-- The Dragon Age and Baldur's Gate maps, where JPS should beat A* by 10x.
local TARGET_MAPS = { "arena", "arena2", "den011d", "brc202d", "AR0011SR" }
local TARGET_RATIO = 10

local ALGORITHMS = { "astar", "jps" }
-- The C timing helper; without it the C-core columns stay empty.
local CORE_BENCH = root .. "/build/core_bench"
local MIN_SAMPLE = 200e-6  -- [s] shorter queries are timed in batches
local MAX_REPS = 1000      -- largest batch for one query
local QUICK_QUERIES = 100  -- queries per map with --quick
local MISMATCH_DETAILS = 10

local USAGE = "usage: lua5.4 bench/run.lua [maps_dir] [--maps name,name] [--quick]"

-- ------------------------------------------------------------ arguments --

local opts = cli.options_or_exit("bench/run.lua", USAGE, cli.parse(arg or {}, root, {
  ["--quick"] = function(o) o.quick = true; return 0 end,
}))

-- --------------------------------------------------------------- module --

local wayfinder = cli.load_wayfinder("bench/run.lua")

-- ---------------------------------------------------------------- clock --

-- os.clock is the process's CPU time. Its step is measured, not assumed.
local function clock_resolution()
  local best = math.huge
  for _ = 1, 5 do
    local t0 = os.clock()
    local t1 = os.clock()
    while t1 == t0 do t1 = os.clock() end
    best = math.min(best, t1 - t0)
  end
  return best
end

-- Runs one query and returns path, length, info and its time in seconds.
-- A query that took less than MIN_SAMPLE is run again in a batch lasting at
-- least MIN_SAMPLE and timed as batch time / batch size.
local function timed_query(grid, q, search_opts, resolution)
  local clock = os.clock
  local t0 = clock()
  local path, length, info = grid:find_path(q.sx, q.sy, q.gx, q.gy, search_opts)
  local t = clock() - t0
  if t < MIN_SAMPLE then
    local reps = math.min(MAX_REPS, math.ceil(MIN_SAMPLE / math.max(t, resolution)))
    local sx, sy, gx, gy = q.sx, q.sy, q.gx, q.gy
    t0 = clock()
    for _ = 1, reps do grid:find_path(sx, sy, gx, gy, search_opts) end
    t = (clock() - t0) / reps
  end
  return path, length, info, t
end

-- ----------------------------------------------------------------- maps --

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- The file names in dir, or nil when it is not a readable directory.
local function list_dir(dir)
  if not os.execute("test -d " .. shell_quote(dir)) then return nil end
  local p = io.popen("ls -1A -- " .. shell_quote(dir) .. " 2>/dev/null")
  if not p then return nil end
  local names = {}
  for line in p:lines() do names[#names + 1] = line end
  if not p:close() then return nil end
  return names
end

local function contains(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- Decides which maps run and which are skipped (with a reason each).
local function plan_maps(dir, only)
  local names = list_dir(dir)
  local skipped = {}
  if not names then
    for _, name in ipairs(only or EXPECTED) do
      skipped[#skipped + 1] = { name = name, why = "maps directory not found" }
    end
    return {}, skipped, ("'%s' is not a readable directory"):format(dir)
  end
  local has_map, has_scen, bases = {}, {}, {}
  for _, n in ipairs(names) do
    local base = n:match("^(.+)%.map%.scen$")
    if base then
      has_scen[base] = true
    else
      base = n:match("^(.+)%.map$")
      if base then has_map[base] = true end
    end
    if base and not bases[base] then
      bases[base] = true
      bases[#bases + 1] = base
    end
  end
  local order = {}
  for _, name in ipairs(EXPECTED) do order[#order + 1] = name end
  local extra = {}
  for _, base in ipairs(bases) do
    if not contains(EXPECTED, base) then extra[#extra + 1] = base end
  end
  table.sort(extra)
  for _, name in ipairs(extra) do order[#order + 1] = name end
  if only then
    for _, name in ipairs(only) do
      if not contains(order, name) then order[#order + 1] = name end
    end
  end

  local run = {}
  for _, name in ipairs(order) do
    if only and not contains(only, name) then -- luacheck: ignore 542
      -- not asked for
    elseif has_map[name] and has_scen[name] then
      run[#run + 1] = name
    elseif has_scen[name] then
      skipped[#skipped + 1] = { name = name, why = name .. ".map.scen has no " .. name .. ".map" }
    elseif has_map[name] then
      skipped[#skipped + 1] = { name = name, why = "no " .. name .. ".map.scen beside the map" }
    elseif contains(EXPECTED, name) then
      skipped[#skipped + 1] = { name = name, why = "expected map missing from the directory" }
    else
      skipped[#skipped + 1] = { name = name, why = "not in the maps directory" }
    end
  end
  return run, skipped
end

-- Evenly spread subset for --quick: QUICK_QUERIES queries, from the whole
-- file (files are ordered by path length, so the spread covers all lengths).
local function spread(queries, count)
  local n = #queries
  if n <= count then return queries end
  local out = {}
  for i = 1, count do
    out[i] = queries[math.floor((i - 0.5) * n / count) + 1]
  end
  return out
end

-- ------------------------------------------------------------------ run --

local mismatch_details = {}
local mismatch_total = 0

local function note_mismatch(map, algorithm, q, length, why)
  mismatch_total = mismatch_total + 1
  if #mismatch_details < MISMATCH_DETAILS then
    mismatch_details[#mismatch_details + 1] = ("%s line %d (%s): (%d,%d) -> (%d,%d) expected "
      .. "%.8g +- %.3g, got %s [%s]"):format(map, q.line, algorithm, q.sx, q.sy, q.gx, q.gy,
      q.length, q.tolerance, length and ("%.8g"):format(length) or "nil", why)
  end
end

-- The C core's times for a map: build/core_bench runs the same queries
-- (the same --quick spread and the same ground rule) through wf_search_run
-- with A* and with JPS. Returns { astar = {...}, jps = {...}, skipped = n,
-- details = {...} }, or { error = reason }.
local function run_core(map_path, quick)
  if not cli.exists(CORE_BENCH) then
    return { error = "build/core_bench not found (make bench builds it)", missing = true }
  end
  local cmd = ("%s %s %s %d 2>&1"):format(shell_quote(CORE_BENCH), shell_quote(map_path),
    shell_quote(map_path .. ".scen"), quick and QUICK_QUERIES or 0)
  local p = io.popen(cmd)
  if not p then return { error = "cannot run build/core_bench" } end
  local out = { details = {} }
  local last
  for line in p:lines() do
    local fields = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do fields[#fields + 1] = field end
    if fields[1] == "core" and #fields == 8 then
      out[fields[2]] = {
        run = tonumber(fields[3]), median = tonumber(fields[4]), mean = tonumber(fields[5]),
        total = tonumber(fields[6]), expanded = tonumber(fields[7]),
        mismatches = tonumber(fields[8]),
      }
    elseif fields[1] == "skipped" then
      out.skipped = tonumber(fields[2])
    elseif fields[1] == "mismatch" then
      out.details[#out.details + 1] = ("%s (%s) %s"):format(map_path, fields[2], fields[3])
    else
      last = line
    end
  end
  local ok = p:close()
  if not ok or not out.astar or not out.jps then
    return { error = "build/core_bench failed: " .. tostring(last) }
  end
  return out
end

-- Runs one map; returns its result record.
local function run_map(dir, name, quick, resolution)
  collectgarbage("collect")
  collectgarbage("collect")
  local peak_reset = system.reset_peak_rss()
  local r = { name = name, peak_reset = peak_reset, rss_before = system.rss() }
  local map_path = ("%s/%s.map"):format(dir, name)
  local ok, grid, err = pcall(wayfinder.grid.load_movingai, map_path)
  if not ok or not grid then
    r.error = "cannot load map: " .. tostring(ok and err or grid)
    return r
  end
  local scen_ok, queries, qerr = pcall(wayfinder.movingai.load_scenarios, map_path .. ".scen")
  if not scen_ok or not queries then
    grid:close()
    r.error = "cannot load scenarios: " .. tostring(scen_ok and qerr or queries)
    return r
  end
  local w, h = grid:width(), grid:height()
  r.width, r.height = w, h
  r.total = #queries
  if quick then queries = spread(queries, QUICK_QUERIES) end

  -- Ground rule: a query whose start navcell is blocked (the water and tree
  -- queries of bloodvenomfalls) is skipped; so is one made for another size.
  local use, skip_lines, skip_size = {}, {}, 0
  for _, q in ipairs(queries) do
    if q.width ~= w or q.height ~= h then
      skip_size = skip_size + 1
    elseif q.sx >= w or q.sy >= h or q.gx >= w or q.gy >= h
        or not grid:is_passable(q.sx, q.sy) then
      skip_lines[#skip_lines + 1] = q.line
    else
      use[#use + 1] = q
    end
  end
  r.run = #use
  r.skipped = #skip_lines + skip_size
  r.skip_lines = skip_lines
  r.skip_size = skip_size

  local cost_of = {}
  r.algo = {}
  for _, algorithm in ipairs(ALGORITHMS) do
    local search_opts = { algorithm = algorithm }
    local times, expanded, mismatches = {}, 0, 0
    for i, q in ipairs(use) do
      local path, length, info, t = timed_query(grid, q, search_opts, resolution)
      times[i] = t
      if info then expanded = expanded + info.expanded end
      local why
      if not path then
        why = "returned nil, " .. tostring(length)
        length = nil
      elseif math.abs(length - q.length) > q.tolerance then
        why = "outside tolerance"
      elseif info.algorithm ~= algorithm then
        why = "ran " .. tostring(info.algorithm)
      elseif cost_of[i] and cost_of[i] ~= info.cost_units then
        why = ("A* cost_units %d, JPS %d"):format(cost_of[i], info.cost_units)
      end
      if path and not cost_of[i] then cost_of[i] = info.cost_units end
      if why then
        mismatches = mismatches + 1
        note_mismatch(name, algorithm, q, length, why)
      end
    end
    r.algo[algorithm] = {
      median = stats.median(times), mean = stats.mean(times), total = stats.sum(times),
      expanded = #use > 0 and expanded / #use or nil, mismatches = mismatches,
    }
  end
  r.grid_bytes, r.scratch_bytes = grid:memory()
  r.peak_rss = system.peak_rss()
  grid:close()
  r.core = run_core(map_path, quick)
  return r
end

-- --------------------------------------------------------------- report --

local function ratio_of(r)
  local a, j = r.algo and r.algo.astar, r.algo and r.algo.jps
  if not a or not j or not j.total or j.total <= 0 then return nil end
  return a.total / j.total
end

-- The same from the C core's times (nil when the helper did not run).
local function core_ratio_of(r)
  local c = r.core
  if not c or c.error or not c.jps.total or c.jps.total <= 0 then return nil end
  return c.astar.total / c.jps.total
end

local SPEED_W = { -16, 9, 6, 4, 10, 10, 9, 10, 10, 9, 7, 9, 10, 10, 7, 9 }
local MEM_W = { -16, 9, 9, 11, 11, 14, 10, 12, 10 }

-- The time of a 2-step query on a 3x3 grid: what every find_path call
-- costs whatever the map (argument checks, result tables, scratch set-up).
local function call_floor()
  local grid = wayfinder.grid.from_ascii("...\n...\n...\n")
  local floor = {}
  for _, algorithm in ipairs(ALGORITHMS) do
    local o = { algorithm = algorithm }
    grid:find_path(0, 0, 2, 0, o)
    local reps = 20000
    local t0 = os.clock()
    for _ = 1, reps do grid:find_path(0, 0, 2, 0, o) end
    floor[algorithm] = (os.clock() - t0) / reps
  end
  grid:close()
  return floor
end

local function print_header(dir, resolution, quick)
  local interp = arg and arg[-1] or "lua5.4"
  for k = -2, -10, -1 do
    if arg and arg[k] then interp = arg[k] end
  end
  local so = package.searchpath("wayfinder.core", package.cpath)
  local m = system.machine()
  print("wayfinder benchmark: Moving AI scenarios, A* and JPS")
  print(("date      %s"):format(os.date("%Y-%m-%d %H:%M:%S %Z")))
  print(("lua       %s (%s)"):format(system.command_line(shell_quote(interp) .. " -v") or "?",
    _VERSION))
  print(("module    wayfinder %s, %s"):format(tostring(wayfinder.version), so or "?"))
  print(("built by  %s"):format(system.compiler_of(so) or "unknown compiler"))
  print(("build     %s"):format(system.make_rule(root .. "/Makefile", "build/wayfinder/core.so")
    or "unknown (no Makefile rule found)"))
  print(("machine   %s, %s cores (nproc), %s, load %s"):format(m.cpu or "?",
    tostring(m.cores or "?"), m.kernel or "?", m.load or "?"))
  print(("clock     os.clock (process CPU time), step %.3g us; queries under %.0f us are "
    .. "re-run in batches"):format(resolution * 1e6, MIN_SAMPLE * 1e6))
  local floor = call_floor()
  print(("floor     one find_path call on a 3x3 grid (2 steps): A* %.2f us, JPS %.2f us")
    :format(floor.astar * 1e6, floor.jps * 1e6))
  if cli.exists(CORE_BENCH) then
    print(("C core    %s: the same queries through wf_search_run, no Lua; process CPU "
      .. "time (clock_gettime), the same batches"):format(CORE_BENCH))
  else
    print(("C core    not measured: %s not found (`make bench` builds it from "
      .. "bench/core_bench.c)"):format(CORE_BENCH))
  end
  print(("maps      %s%s"):format(dir, quick
    and (" (--quick: %d evenly spread queries per map)"):format(QUICK_QUERIES) or ""))
  print()
end

-- A heading spanning columns first..last of widths, centred in dashes.
local function span(widths, first, last, text)
  local width = last - first
  for i = first, last do width = width + math.abs(widths[i]) end
  local left = compat.idiv(width - #text - 2, 2)
  return ("-"):rep(left) .. " " .. text .. " " .. ("-"):rep(width - #text - 2 - left)
end

local function print_speed_header()
  local pad = 0
  for i = 1, 4 do pad = pad + math.abs(SPEED_W[i]) + 1 end
  print((" "):rep(pad) .. span(SPEED_W, 5, 7, "A*") .. " " .. span(SPEED_W, 8, 10, "JPS")
    .. " " .. span(SPEED_W, 11, 12, "Lua") .. " " .. span(SPEED_W, 13, 16, "C core"))
  print(stats.row(SPEED_W, { "map", "size", "run", "skip", "median us", "mean us",
    "expanded", "median us", "mean us", "expanded", "A*/JPS", "mismatch", "A* med us",
    "JPS med us", "A*/JPS", "mismatch" }))
end

local function print_speed_row(r)
  if r.error then
    print(("%-16s %s"):format(r.name, r.error))
    return
  end
  local a, j = r.algo.astar, r.algo.jps
  local c = r.core and not r.core.error and r.core
  print(stats.row(SPEED_W, {
    r.name, ("%dx%d"):format(r.width, r.height), r.run, r.skipped,
    stats.num(a.median and a.median * 1e6), stats.num(a.mean and a.mean * 1e6),
    stats.num(a.expanded),
    stats.num(j.median and j.median * 1e6), stats.num(j.mean and j.mean * 1e6),
    stats.num(j.expanded),
    stats.ratio(ratio_of(r)), ("%d/%d"):format(a.mismatches, j.mismatches),
    stats.num(c and c.astar.median * 1e6 or nil), stats.num(c and c.jps.median * 1e6 or nil),
    stats.ratio(core_ratio_of(r)),
    c and ("%d/%d"):format(c.astar.mismatches, c.jps.mismatches) or "-",
  }))
end

-- A titled block of note lines, after a blank line; nothing without notes.
local function print_notes(title, notes)
  if #notes == 0 then return end
  print()
  print(title)
  for _, n in ipairs(notes) do print(n) end
end

local function print_memory(results)
  print()
  print("memory: grid and search scratch from grid:memory() after the map's queries; process "
    .. "RSS before the map and its peak (VmHWM) while loading and running it")
  print(stats.row(MEM_W, { "map", "navcells", "grid KiB", "grid B/cell", "scratch KiB",
    "scratch B/cell", "RSS MiB", "peak RSS MiB" }))
  for _, r in ipairs(results) do
    if not r.error then
      local cells = r.width * r.height
      print(stats.row(MEM_W, {
        r.name, cells, stats.kib(r.grid_bytes), ("%.3f"):format(r.grid_bytes / cells),
        stats.kib(r.scratch_bytes), ("%.2f"):format(r.scratch_bytes / cells),
        stats.mib(r.rss_before), stats.mib(r.peak_rss),
        r.peak_reset and "" or "(peak since start)",
      }))
    end
  end
end

-- The times of one map as measured one way: "lua" (the find_path call)
-- or "core" (wf_search_run from build/core_bench); nil when not measured.
local function times_of(r, how)
  if r.error then return nil end
  if how == "lua" then return r.algo end
  return r.core and not r.core.error and r.core or nil
end

local function ratio_by(r, how)
  return how == "lua" and ratio_of(r) or core_ratio_of(r)
end

-- Total-time ratio and median of per-map ratios over the named maps that
-- ran (all maps when names is nil), measured `how`.
local function group_ratio(results, names, how)
  local ta, tj, ratios, lowest, lowest_name, n, mism = 0, 0, {}, nil, nil, 0, 0
  local present = {}
  for _, r in ipairs(results) do
    local t = times_of(r, how)
    if t and (not names or contains(names, r.name)) then
      present[#present + 1] = r.name
      local ratio = ratio_by(r, how)
      if ratio then
        n = n + 1
        ta = ta + t.astar.total
        tj = tj + t.jps.total
        ratios[#ratios + 1] = ratio
        if not lowest or ratio < lowest then lowest, lowest_name = ratio, r.name end
      end
      mism = mism + t.astar.mismatches + t.jps.mismatches
    end
  end
  if n == 0 then return nil end
  return { maps = n, astar = ta, jps = tj, total = tj > 0 and ta / tj or nil,
           median = stats.median(ratios), lowest = lowest, lowest_name = lowest_name,
           ratios = ratios, mismatches = mism, present = present }
end

local HOW_NAME = { lua = "Lua find_path call", core = "C core, wf_search_run" }

local function print_summary(results)
  print()
  for _, how in ipairs({ "lua", "core" }) do
    local all = group_ratio(results, nil, how)
    if all then
      print(("all maps (%d), %s: query time A* %.3f s, JPS %.3f s; JPS/A* speed ratio: "
        .. "total time %s, median of per-map ratios %s"):format(all.maps, HOW_NAME[how],
        all.astar, all.jps, stats.ratio(all.total), stats.ratio(all.median)))
    else
      print(("all maps, %s: not measured, no speed ratio"):format(HOW_NAME[how]))
    end
  end
  print(("target: JPS >= %dx faster than A* on the Dragon Age and Baldur's Gate maps "
    .. "(%s), 0 mismatches"):format(TARGET_RATIO, table.concat(TARGET_MAPS, ", ")))
  for _, how in ipairs({ "lua", "core" }) do
    local group = group_ratio(results, TARGET_MAPS, how)
    if not group then
      print(("  %s: none of the maps measured, not judged"):format(HOW_NAME[how]))
    else
      local at_target, below = 0, {}
      for _, r in ipairs(results) do
        local ratio = times_of(r, how) and contains(TARGET_MAPS, r.name) and ratio_by(r, how)
        if ratio and ratio >= TARGET_RATIO then
          at_target = at_target + 1
        elseif ratio then
          below[#below + 1] = ("%s %s"):format(r.name, stats.ratio(ratio))
        end
      end
      local complete = #group.present == #TARGET_MAPS
      local clean = group.mismatches == 0
      local partial = complete and "" or (", only %d of %d maps measured"):format(
        #group.present, #TARGET_MAPS)
      local function verdict(ok)
        if not complete then return "not judged" end
        return (clean and ok) and "met" or "NOT met"
      end
      print(("  %s: JPS/A* total time %s, median of per-map ratios %s, lowest %s (%s)")
        :format(HOW_NAME[how], stats.ratio(group.total), stats.ratio(group.median),
        stats.ratio(group.lowest), group.lowest_name))
      print(("    over their total query time: %s (%s, %d mismatches%s)"):format(
        verdict(group.total >= TARGET_RATIO), stats.ratio(group.total), group.mismatches,
        partial))
      print(("    on every map separately:     %s (%d of %d maps at >= %dx%s%s)"):format(
        verdict(at_target == group.maps), at_target, group.maps, TARGET_RATIO,
        #below > 0 and ("; below: " .. table.concat(below, ", ")) or "", partial))
    end
  end
end

-- ----------------------------------------------------------------- main --

local function main()
  local started = os.time()
  local resolution = clock_resolution()
  print_header(opts.dir, resolution, opts.quick)

  local plan, skipped, dir_problem = plan_maps(opts.dir, opts.only)
  if dir_problem then
    print("maps directory: " .. dir_problem)
    print("  (give the maps directory as the first argument, or `make bench MAPS=dir`)")
  end
  if #skipped > 0 then
    print(("skipped maps (%d):"):format(#skipped))
    for _, s in ipairs(skipped) do print(("  %-16s %s"):format(s.name, s.why)) end
  end
  if #plan == 0 then
    print("no .map/.map.scen pair to run; nothing measured")
    return 0
  end
  if #skipped > 0 then print() end

  print_speed_header()
  local results = {}
  for _, name in ipairs(plan) do
    local r = run_map(opts.dir, name, opts.quick, resolution)
    results[#results + 1] = r
    print_speed_row(r)
    local c = r.core and not r.core.error and r.core
    if c then
      mismatch_total = mismatch_total + c.astar.mismatches + c.jps.mismatches
      for _, d in ipairs(c.details) do
        if #mismatch_details < MISMATCH_DETAILS then
          mismatch_details[#mismatch_details + 1] = "C core: " .. d
        end
      end
    end
  end

  local notes = {}
  for _, r in ipairs(results) do
    if r.skip_lines and #r.skip_lines > 0 then
      notes[#notes + 1] = ("  %s: %d queries start on a navcell blocked for ground "
        .. "(water/trees), lines %s"):format(r.name, #r.skip_lines,
        table.concat(r.skip_lines, " "))
    end
    if r.skip_size and r.skip_size > 0 then
      notes[#notes + 1] = ("  %s: %d queries were made for another map size"):format(
        r.name, r.skip_size)
    end
  end
  print_notes("skipped queries:", notes)
  local core_notes = {}
  for _, r in ipairs(results) do
    if r.core and r.core.error and not r.core.missing then
      core_notes[#core_notes + 1] = ("  %s: not measured: %s"):format(r.name, r.core.error)
    elseif r.core and not r.core.error and r.core.astar.run ~= r.run then
      core_notes[#core_notes + 1] = ("  %s: ran %d queries, the Lua call %d"):format(
        r.name, r.core.astar.run, r.run)
    end
  end
  print_notes("C core:", core_notes)

  print_memory(results)
  print_summary(results)

  local errors = 0
  for _, r in ipairs(results) do
    if r.error then errors = errors + 1 end
  end
  print(("mismatches: %d (Lua call and C core); whole run %d s wall clock, %.0f s CPU "
    .. "of the Lua process (the C helper's own not included)"):format(mismatch_total,
    os.time() - started, os.clock()))
  if mismatch_total > 0 then
    print(("first %d mismatches:"):format(#mismatch_details))
    for _, d in ipairs(mismatch_details) do print("  " .. d) end
  end
  if errors > 0 then
    print(("%d map(s) could not be loaded (see above)"):format(errors))
  end
  return (mismatch_total > 0 or errors > 0) and 1 or 0
end

os.exit(main())
