-- bench/scale.lua - the scale layer, measured side by side in one run:
--   1. unreachable goals (rewritten to the nearest reachable navcell) against
--      reachable goals of the same distance, and against no rewriting;
--   2. the region labels' incremental update after one obstruction against a
--      full relabel plus clearance rebuild, and their memory per navcell;
--   3. 1000 agents through the request queue at a fixed budget per tick:
--      random long requests, then 1000 agents sharing 10 goals, served one by
--      one and from shared fields.
-- Run from the repository root after `make build`:
--   lua5.4 bench/scale.lua [maps_dir]        (default ../shared/maps)
-- Times are CPU time (os.clock); every ratio compares figures of this run.
local compat = require("wayfinder.compat")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local MAPS = arg[1] or "../shared/maps"
local clock = os.clock

local skipped, seen_skip = {}, {}

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function median(t)
  if #t == 0 then return 0 / 0 end
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  if n % 2 == 1 then return c[compat.idiv(n + 1, 2)] end
  return (c[compat.idiv(n, 2)] + c[compat.idiv(n, 2) + 1]) / 2
end

-- A seeded generator, the same on every machine.
local function rng(seed)
  local s = seed
  return function(n)
    s = (s * 1103515245 + 12345) % 2147483648
    return (compat.idiv(s, 65536)) % n
  end
end

local function load(name, options)
  local path = MAPS .. "/" .. name
  if not exists(path) or not exists(path .. ".scen") then
    if not seen_skip[name] then
      seen_skip[name] = true
      skipped[#skipped + 1] = name .. " or its .scen (not found in " .. MAPS .. ")"
    end
    print("   skipped: " .. name .. " is absent")
    return nil
  end
  local grid = assert(wayfinder.grid.load_movingai(path, options))
  local scen = assert(wayfinder.movingai.load_scenarios(path .. ".scen"))
  return grid, scen
end

local function us(s) return ("%9.1f"):format(s * 1e6) end

local function quantile(t, q)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  return c[math.max(1, math.ceil(q * #c))]
end

-- ------------------------------------------------- 1. unreachable goals --

local QUERY_MAPS = {}
for i, name in ipairs(dofile("bench/lib/maps.lua")) do QUERY_MAPS[i] = name .. ".map" end
local PER_MAP = 20
local REPEAT = 3

-- Walls in the goal with a ring of blocked navcells at Chebyshev distance
-- 2; returns the navcells it changed.
local function ring(grid, gx, gy)
  local changed = {}
  grid:batch(function(g)
    for y = gy - 2, gy + 2 do
      for x = gx - 2, gx + 2 do
        if (math.abs(x - gx) == 2 or math.abs(y - gy) == 2)
            and x >= 0 and y >= 0 and x < g:width() and y < g:height()
            and g:terrain_passable(x, y) then
          g:set_passable(x, y, false)
          changed[#changed + 1] = { x, y }
        end
      end
    end
  end)
  return changed
end

local function unring(grid, changed)
  grid:batch(function(g)
    for _, c in ipairs(changed) do g:set_passable(c[1], c[2], true) end
  end)
end

local function timed_path(grid, q, options)
  local t = clock()
  local path, info
  for _ = 1, REPEAT do
    local len
    path, len, info = grid:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5, options)
    assert(len)
  end
  return (clock() - t) / REPEAT, path, info
end

local function bench_unreachable()
  print("== 1. unreachable goals: cost of a query whose goal is walled in, against")
  print("   the same query before walling (reachable) and with rewriting off (flood).")
  print(("   %d long queries per map (the longest half of the .scen, evenly spread),")
    :format(PER_MAP))
  print("   times are per query, medians; ratio = unreachable / reachable")
  print(("   %-22s %9s %9s %7s %11s %8s %9s"):format("map", "reach us", "unrch us",
    "ratio", "flood us", "ratio", "flood exp"))
  local all_r, all_u = {}, {}
  for _, name in ipairs(QUERY_MAPS) do
    local grid, scen = load(name)
    if grid then
      local picked = {}
      local half = compat.idiv(#scen, 2)
      for k = 0, PER_MAP - 1 do
        local q = scen[half + 1 + compat.idiv(k * (#scen - half), PER_MAP)]
        if q and grid:is_passable(q.sx, q.sy) and grid:is_passable(q.gx, q.gy) then
          picked[#picked + 1] = q
        end
      end
      local tr, tu, tf, ef = {}, {}, {}, {}
      for _, q in ipairs(picked) do
        grid:is_reachable(q.sx, q.sy, q.gx, q.gy)      -- labels up to date
        local t = timed_path(grid, q)
        tr[#tr + 1] = t
        local changed = ring(grid, q.gx, q.gy)
        assert(not grid:is_reachable(q.sx, q.sy, q.gx, q.gy))
        local t2, path, info = timed_path(grid, q)
        assert(path and info.goal_rewritten, "rewriting should give a path")
        tu[#tu + 1] = t2
        local t0 = clock()
        local fp, _, finfo = grid:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5,
          { rewrite_goal = false })
        tf[#tf + 1] = clock() - t0
        assert(fp == nil)
        ef[#ef + 1] = finfo.expanded
        unring(grid, changed)
      end
      local mr, mu, mf = median(tr), median(tu), median(tf)
      all_r[#all_r + 1], all_u[#all_u + 1] = mr, mu
      print(("   %-22s %s %s %7.2f %s %8.0f %9d"):format(name, us(mr), us(mu), mu / mr,
        ("%11.1f"):format(mf * 1e6), mf / mr, math.floor(median(ef))))
      grid:close()
    end
  end
  if #all_r > 0 then
    print(("   median over maps of unreachable/reachable: %.2f"):format(
      median((function()
        local t = {}
        for i = 1, #all_r do t[i] = all_u[i] / all_r[i] end
        return t
      end)())))
  end
  print()
end

-- ---------------------------------------------- 2. incremental updates --

local CLASSES = { { name = "small", clearance = 0 }, { name = "large", clearance = 2 } }

local function bench_updates()
  print("== 2. one obstruction on Berlin_0_1024.map, classes clearance 0 and 2:")
  print("   incremental = add_obstruction + relabel of the touched chunks;")
  print("   full = grid:rebuild (clearance and rasterization) + relabel of every chunk")
  local grid = load("Berlin_0_1024.map", { classes = CLASSES })
  if not grid then print(); return end
  local plain = load("Berlin_0_1024.map", { classes = CLASSES })
  local r = rng(99)
  local spots = {}
  while #spots < 200 do
    local x, y = r(1000) + 12, r(1000) + 12
    if grid:is_passable(x, y, "small") then spots[#spots + 1] = { x, y, r(628) / 100 } end
  end
  -- the grid's own incremental update, without region labels
  local bare = {}
  for _, s in ipairs(spots) do
    local t = clock()
    local id = plain:add_obstruction({ x = s[1], y = s[2], half_width = 1.5, half_height = 1,
                                       angle = s[3] })
    bare[#bare + 1] = clock() - t
    plain:remove_obstruction(id)
  end
  -- JPS's jump planes: the first JPS query after an edit brings them up to
  -- date; the same query again, with no edit in between, is the baseline
  -- (a one-step query between two free navcells: a search that runs, so
  -- that it binds the planes; placements that block either end are left out)
  local raw = { class = "small", algorithm = "jps", rewrite_goal = false, escape = false }
  local s0
  for _, s in ipairs(spots) do
    if plain:is_passable(s[1] + 1, s[2], "small") then s0 = s; break end
  end
  assert(s0, "scale bench: no placement with a free east neighbour")
  local function open_ends()
    return plain:is_passable(s0[1], s0[2], "small")
      and plain:is_passable(s0[1] + 1, s0[2], "small")
  end
  local function query()
    local t = clock()
    local path = plain:find_path(s0[1] + 0.5, s0[2] + 0.5, s0[1] + 1.5, s0[2] + 0.5, raw)
    local dt = clock() - t
    assert(path, "scale bench: the jump-plane query found no path")
    return dt
  end
  query()
  local after, again = {}, {}
  for _, s in ipairs(spots) do
    local id = plain:add_obstruction({ x = s[1], y = s[2], half_width = 1.5, half_height = 1,
                                       angle = s[3] })
    if s ~= s0 and open_ends() then after[#after + 1] = query() end
    plain:remove_obstruction(id)
    query()
    again[#again + 1] = query()
  end
  plain:close()
  print(("   grid only (no labels): add_obstruction %s us (median)"):format(us(median(bare))))
  print(("   JPS's jump planes: the next JPS find_path %s us, the same again %s us"
    .. " (medians; the difference brings the planes up to date)"):format(
    us(median(after)), us(median(again))))
  print("   incremental: median, 90th percentile and worst of 200 placements;")
  print("   ratio = median incremental / median full; relabel = labels alone, from")
  print("   scratch; query = grid:nearest_reachable between random navcells")
  print(("   %-6s %8s %9s %9s %9s %9s %9s %10s %9s %9s"):format("chunk", "regions",
    "incr us", "p90 us", "max us", "full ms", "ratio %", "relabel ms", "query us",
    "B/navcell"))
  for _, chunk in ipairs({ 16, 32, 64 }) do
    grid:set_chunk_size(chunk)
    local full, relabel = {}, {}
    for _ = 1, 5 do
      local t = clock()
      grid:rebuild()
      grid:is_reachable(0, 0, 0, 0)
      full[#full + 1] = clock() - t
      t = clock()
      grid:set_chunk_size(chunk)
      relabel[#relabel + 1] = clock() - t
    end
    local inc = {}
    for _, s in ipairs(spots) do
      local t = clock()
      local id = grid:add_obstruction({ x = s[1], y = s[2], half_width = 1.5, half_height = 1,
                                        angle = s[3] })
      grid:is_reachable(0, 0, 0, 0)
      inc[#inc + 1] = clock() - t
      grid:remove_obstruction(id)
      grid:is_reachable(0, 0, 0, 0)
    end
    -- nearest-reachable queries for scale: 1000 random pairs
    local t = clock()
    local rq = rng(5)
    for _ = 1, 1000 do
      grid:nearest_reachable(rq(1024) + 0.5, rq(1024) + 0.5, rq(1024) + 0.5, rq(1024) + 0.5)
    end
    local q = (clock() - t) / 1000
    local info = grid:regions("small")
    local ncells = grid:width() * grid:height()
    local mi, mf = median(inc), median(full)
    print(("   %-6d %8d %s %s %s %9.2f %9.3f %10.2f %9.1f %9.2f"):format(chunk, info.regions,
      us(mi), us(quantile(inc, 0.9)), us(quantile(inc, 1)), mf * 1e3, mi / mf * 100,
      median(relabel) * 1e3, q * 1e6, info.memory / ncells))
  end
  print("   (B/navcell: all region data of both classes over the navcell count;")
  print("    the labels themselves are 2 bytes per navcell per class)")
  grid:close()
  print()
end

-- ------------------------------------------------------- 3. the queue --

local AGENTS = 1000
local BUDGET = 20000

local function drive(queue, handles)
  local ticks, total, worst = 0, 0, 0
  local t0 = clock()
  while queue:pending() > 0 do
    local t = clock()
    total = total + queue:run(BUDGET)
    local dt = clock() - t
    if dt > worst then worst = dt end
    ticks = ticks + 1
  end
  local cpu = clock() - t0
  local failed = 0
  for _, h in ipairs(handles) do
    if h:status() ~= "done" then failed = failed + 1 end
  end
  return ticks, total, cpu, worst, failed
end

local function report(label, n, ticks, total, cpu, worst, failed)
  print(("   %-30s %5d %6d %9d %8.1f %8.1f %8.3f %8.2f %7.2f %6d"):format(label, n, ticks,
    total, total / n, cpu * 1e3, cpu * 1e6 / total, cpu * 1e3 / ticks, worst * 1e3, failed))
end

local function bench_queue()
  print(("== 3. %d agents on Berlin_0_1024.map through wayfinder.queue, budget %d"):format(
    AGENTS, BUDGET))
  print("   expansions per queue:run (one tick); requests from the .scen queries of")
  print("   length >= 512, picked with a fixed seed")
  local grid, scen = load("Berlin_0_1024.map")
  if not grid then print(); return end
  local long = {}
  for _, q in ipairs(scen) do
    if q.length >= 512 then long[#long + 1] = q end
  end
  local r = rng(2024)
  local picks = {}
  for i = 1, AGENTS do picks[i] = long[r(#long) + 1] end
  local goals = {}
  for i = 1, 10 do goals[i] = long[r(#long) + 1] end
  grid:is_reachable(0, 0, 0, 0)
  print(("   %-30s %5s %6s %9s %8s %8s %8s %8s %7s %6s"):format("", "agents", "ticks",
    "expanded", "exp/req", "cpu ms", "us/exp", "ms/tick", "max ms", "failed"))
  local function run(label, make, n)
    n = n or AGENTS
    local queue = wayfinder.queue.new(grid)
    local handles = {}
    for i = 1, n do handles[i] = queue:submit(make(i)) end
    report(label, n, drive(queue, handles))
    queue:close()
  end
  run("random long requests", function(i)
    local q = picks[i]
    return { sx = q.sx + 0.5, sy = q.sy + 0.5, gx = q.gx + 0.5, gy = q.gy + 0.5 }
  end)
  local function to_goal(shared, algorithm)
    return function(i)
      local q, g = picks[i], goals[i % 10 + 1]
      return { sx = q.sx + 0.5, sy = q.sy + 0.5, gx = g.gx + 0.5, gy = g.gy + 0.5,
               shared = shared, algorithm = algorithm }
    end
  end
  run("10 goals, one JPS search each", to_goal(false))
  run("10 goals, one A* search each", to_goal(false, "astar"), compat.idiv(AGENTS, 10))
  run("10 goals, shared fields", to_goal(true))
  print("   (the A* row serves the first tenth of the agents only, to keep the run")
  print("    short; on costed terrain A* is the only search)")
  print("   (a shared field settles every navcell connected to its goal once;")
  print("    exp/req counts those settlements spread over the agents; a JPS")
  print("    expansion scans whole rows and costs far more than a settlement)")
  grid:close()
  print()
end

print("wayfinder scale bench, maps from " .. MAPS)
print()
bench_unreachable()
bench_updates()
bench_queue()
if #skipped > 0 then
  print("skipped (maps absent):")
  for _, s in ipairs(skipped) do print("   " .. s) end
else
  print("nothing skipped")
end
