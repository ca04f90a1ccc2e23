--- bench/graph.lua: navigation graphs built from Moving AI maps.
-- For each map: the build time and size of the two decompositions of
-- wayfinder.graph.from_grid (greedy boxes, region quadtree): sectors,
-- portals, navcells per sector, bytes of the core graph; then, on an evenly
-- spread subset of the map's scenarios, the time per query of the grid's
-- own search (JPS, the default on these maps) and of the portal solver on
-- each decomposition, in the same run, by path length, and the path
-- quality: the string-pulled graph path's length over the scenario's
-- optimal 8-connected length (below 1 is possible: the graph path is any
-- angle); "ref" is the box graph's route refined on the grid (find_path
-- with refine = true: each walked leg searched again with the grid's own
-- search), its time and its grid cost over the optimum (never below 1).
-- Last, one obstruction (3 x 3 navcells near the centre) is added
-- to the grid and the box and quadtree graphs are updated with graph:sync,
-- their core graphs patched in place or compiled whole, against a full
-- rebuild; every time includes making the core graph for the next query.
--
--   lua5.4 bench/graph.lua [maps_dir] [--queries N] [--maps name,name]
--
-- Exits 1 when a graph finds no path where the grid finds one (or the
-- reverse), 2 on bad arguments, 0 otherwise, including when maps are
-- missing (they are listed as skipped).

local script_dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local function lib(name)
  return dofile(("%s/lib/%s.lua"):format(script_dir, name))
end
local cli = lib("cli")
local root = cli.setup(script_dir)
local stats = lib("stats")

io.stdout:setvbuf("line")

local EXPECTED = lib("maps")
local DEFAULT_QUERIES = 100
local USAGE = "usage: lua5.4 bench/graph.lua [maps_dir] [--queries N] [--maps name,name]"

local opts = cli.options_or_exit("bench/graph.lua", USAGE, cli.parse(arg or {}, root, {
  ["--queries"] = function(o, v)
    o.queries = tonumber(v or "")
    if not o.queries or o.queries < 1 or o.queries % 1 ~= 0 then
      return nil, "--queries needs a whole number >= 1"
    end
    return 1
  end,
}))
opts.queries = opts.queries or DEFAULT_QUERIES

local wayfinder = cli.load_wayfinder("bench/graph.lua")
local exists = cli.exists

local function spread(queries, count)
  local n = #queries
  if n <= count then return queries end
  local out = {}
  for i = 1, count do out[i] = queries[math.floor((i - 0.5) * n / count) + 1] end
  return out
end

local BANDS = { { 0, 64, "<64" }, { 64, 256, "64-256" }, { 256, math.huge, ">=256" } }

local problems = {}

local function build(grid, decomposition)
  collectgarbage()
  local kb0 = collectgarbage("count")
  local t0 = os.clock()
  local g = wayfinder.graph.from_grid(grid, { decomposition = decomposition })
  local bytes = g:memory()        -- compiles the core graph
  local t = os.clock() - t0
  collectgarbage()
  local lua_kb = collectgarbage("count") - kb0
  local st = g:stats()
  return g, { time = t, sectors = st.sectors, portals = st.portals, bytes = bytes,
    lua_bytes = lua_kb * 1024, navcells = st.navcells }
end

local function run_map(dir, name)
  local path = ("%s/%s.map"):format(dir, name)
  local grid = assert(wayfinder.grid.load_movingai(path))
  local queries = assert(wayfinder.movingai.load_scenarios(path .. ".scen"))
  local w, h = grid:width(), grid:height()
  local gb, sb = build(grid, "boxes")
  local gq, sq = build(grid, "quadtree")
  local use = {}
  for _, q in ipairs(spread(queries, opts.queries)) do
    if q.width == w and q.height == h and grid:is_passable(q.sx, q.sy) then use[#use + 1] = q end
  end
  local bands = {}
  for i = 1, #BANDS do
    bands[i] = { n = 0, jps = 0, boxes = 0, quad = 0, refined = 0, qb = {}, qq = {}, qr = {} }
  end
  local plain = { rewrite_goal = false, escape = false }
  local clock = os.clock
  for _, q in ipairs(use) do
    local sx, sy, gx, gy = q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5
    local t0 = clock()
    local p = grid:find_path(sx, sy, gx, gy, plain)
    local t1 = clock()
    local rb = gb:find_path(sx, sy, gx, gy)
    local t2 = clock()
    local rq = gq:find_path(sx, sy, gx, gy)
    local t3 = clock()
    local rr = gb:find_path(sx, sy, gx, gy, { refine = true })
    local t4 = clock()
    if (p == nil) ~= (rb == nil) or (p == nil) ~= (rq == nil) then
      problems[#problems + 1] = ("%s line %d: grid and graph disagree on reachability")
        :format(name, q.line)
    elseif p and q.length > 0 then
      local band
      for i, b in ipairs(BANDS) do
        if q.length >= b[1] and q.length < b[2] then band = bands[i] end
      end
      band.n = band.n + 1
      band.jps = band.jps + (t1 - t0)
      band.boxes = band.boxes + (t2 - t1)
      band.quad = band.quad + (t3 - t2)
      band.refined = band.refined + (t4 - t3)
      if rr.refined then
        band.qr[#band.qr + 1] = rr.refined.grid_cost / q.length
      else
        problems[#problems + 1] = ("%s line %d: refining failed: %s"):format(name, q.line,
          tostring(rr.refine_reason))
      end
      band.qb[#band.qb + 1] = rb.length / q.length
      band.qq[#band.qq + 1] = rq.length / q.length
    end
  end
  -- one obstruction: incremental update against a full rebuild
  local cx, cy
  for r = 0, math.max(w, h) do
    for y = math.max(0, math.floor(h / 2) - r), math.min(h - 1, math.floor(h / 2) + r) do
      for x = math.max(0, math.floor(w / 2) - r), math.min(w - 1, math.floor(w / 2) + r) do
        if not cx and grid:is_passable(x, y) then cx, cy = x, y end
      end
    end
    if cx then break end
  end
  local inc
  if cx then
    -- the same edit synced four ways, each graph compiled (by a query)
    -- before it: a box graph whose core graph is patched in place, one
    -- whose core graph is compiled whole afterwards (its compiled copy
    -- dropped before the sync, as sync did before patching), the same two
    -- for the quadtree, and full rebuilds of both
    local gw = build(grid, "boxes")
    local qp, qw = build(grid, "quadtree"), build(grid, "quadtree")
    for _, g in ipairs({ gb, gw, qp, qw }) do g:memory() end
    grid:add_obstruction({ x = cx + 0.5, y = cy + 0.5, half_width = 1.5, half_height = 1.5 })
    local function timed(f)
      collectgarbage()
      local t0 = clock()
      local r = f()
      return clock() - t0, r
    end
    local t_alone, info = timed(function() return gb:sync(grid) end)
    local t_patch = t_alone + timed(function() gb:memory() end)
    gw.compiled = nil   -- bench only: no compiled copy, so sync leaves none
    local t_whole = timed(function() gw:sync(grid); gw:memory() end)
    local t_full = timed(function() wayfinder.graph.from_grid(grid):memory() end)
    local tq_patch, qinfo = timed(function() local r = qp:sync(grid); qp:memory(); return r end)
    qw.compiled = nil
    local tq_whole = timed(function() qw:sync(grid); qw:memory() end)
    local tq_full = timed(function()
      wayfinder.graph.from_grid(grid, { decomposition = "quadtree" }):memory()
    end)
    inc = { patch = t_patch, whole = t_whole, full = t_full,
      removed = info.removed, added = info.added, q_patch = tq_patch, q_whole = tq_whole,
      q_full = tq_full, q_removed = qinfo.removed, q_added = qinfo.added }
  end
  grid:close()
  return { name = name, size = ("%dx%d"):format(w, h), boxes = sb, quad = sq, bands = bands,
    inc = inc }
end

local W1 = { -16, 9, 9, 9, 9, 9, 9, 9, 9, 10 }
local W2 = { -16, 7, 5, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8 }

local function us(total, n) return n > 0 and stats.num(total / n * 1e6) or "-" end
local function maxof(t)
  local m
  for _, v in ipairs(t) do if not m or v > m then m = v end end
  return m
end

local function main()
  print("wayfinder benchmark: navigation graphs (boxes and quadtree) against the grid's JPS")
  print(("date      %s"):format(os.date("%Y-%m-%d %H:%M:%S %Z")))
  print("clock     os.clock (process CPU time), summed over the queries of a band")
  local dir = opts.dir
  local plan, skipped = {}, {}
  if not os.execute("test -d '" .. dir:gsub("'", "'\\''") .. "'") then
    print(("maps      '%s' is not a directory: every map there is skipped; running the "
      .. "small maps in spec/data/maps instead"):format(dir))
    dir = root .. "/spec/data/maps"
    for _, n in ipairs({ "arena", "8room_000", "den011d" }) do plan[#plan + 1] = n end
  else
    print(("maps      %s, %d evenly spread queries per map"):format(dir, opts.queries))
    for _, name in ipairs(opts.only or EXPECTED) do
      local base = ("%s/%s.map"):format(dir, name)
      if exists(base) and exists(base .. ".scen") then
        plan[#plan + 1] = name
      else
        skipped[#skipped + 1] = name
      end
    end
    if #skipped > 0 then print(("skipped   %s (no .map/.map.scen pair)"):format(
      table.concat(skipped, ", "))) end
  end
  print()
  local results = {}
  for _, name in ipairs(plan) do results[#results + 1] = run_map(dir, name) end
  print("build and size per decomposition (ms, sectors, portals, navcells per sector, "
    .. "KiB core, KiB Lua)")
  print(stats.row(W1, { "map", "size", "navcells", "box ms", "boxes", "portals", "box KiB",
    "quad ms", "leaves", "portals" }))
  for _, r in ipairs(results) do
    print(stats.row(W1, { r.name, r.size, r.boxes.navcells, stats.num(r.boxes.time * 1e3),
      r.boxes.sectors, r.boxes.portals, stats.kib(r.boxes.bytes), stats.num(r.quad.time * 1e3),
      r.quad.sectors, r.quad.portals }))
  end
  print()
  print(stats.row(W1, { "map", "cells/box", "cells/leaf", "box KiB", "quad KiB", "box Lua",
    "quad Lua" }))
  for _, r in ipairs(results) do
    print(stats.row(W1, { r.name, stats.num(r.boxes.navcells / math.max(1, r.boxes.sectors)),
      stats.num(r.quad.navcells / math.max(1, r.quad.sectors)), stats.kib(r.boxes.bytes),
      stats.kib(r.quad.bytes), stats.kib(r.boxes.lua_bytes), stats.kib(r.quad.lua_bytes) }))
  end
  print()
  print("query time (us per query) and path length over the optimum (mean, max), by "
    .. "optimal length")
  print(stats.row(W2, { "map", "band", "n", "jps us", "box us", "quad us", "ref us", "box avg",
    "box max", "quad avg", "quad max", "ref avg", "ref max" }))
  for _, r in ipairs(results) do
    for i, b in ipairs(r.bands) do
      if b.n > 0 then
        print(stats.row(W2, { r.name, BANDS[i][3], b.n, us(b.jps, b.n), us(b.boxes, b.n),
          us(b.quad, b.n), us(b.refined, b.n), ("%.3f"):format(stats.mean(b.qb)),
          ("%.3f"):format(maxof(b.qb)), ("%.3f"):format(stats.mean(b.qq)),
          ("%.3f"):format(maxof(b.qq)), ("%.3f"):format(stats.mean(b.qr)),
          ("%.3f"):format(maxof(b.qr)) }))
      end
    end
  end
  print()
  print("one 3x3 obstruction near the centre, boxes then quadtree (q): graph:sync with the "
    .. "core graph patched in place, graph:sync with it compiled whole, a full rebuild (ms, "
    .. "each ready for the next query), leaves removed and added")
  local W3 = { -16, 9, 9, 9, 6, 6, 9, 9, 9, 6, 6 }
  print(stats.row(W3, { "map", "patched", "compiled", "rebuild", "rm", "add",
    "q patched", "q compiled", "q rebuild", "q rm", "q add" }))
  for _, r in ipairs(results) do
    local i = r.inc
    if i then
      print(stats.row(W3, { r.name, stats.num(i.patch * 1e3), stats.num(i.whole * 1e3),
        stats.num(i.full * 1e3), i.removed, i.added, stats.num(i.q_patch * 1e3),
        stats.num(i.q_whole * 1e3), stats.num(i.q_full * 1e3), i.q_removed, i.q_added }))
    else
      print(stats.row(W3, { r.name, "-", "-", "no passable navcell" }))
    end
  end
  if #problems > 0 then
    print()
    for _, p in ipairs(problems) do print("PROBLEM " .. p) end
    return 1
  end
  return 0
end

os.exit(main())
