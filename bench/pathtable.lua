-- luacheck: max line length 130
--- bench/pathtable.lua: path tables, measured beside searches in one run.
-- 1. Next-hop tables: build time and bytes per node for a random graph, a
--    house world's rooms and doors, and a grid's regions (arena); a route
--    read from the table against a search for the same pairs (a Dijkstra
--    search over the same graph; graph:find_path for regions); incremental
--    edge changes (rows searched again, time) against full rebuilds.
-- 2. Compressed grid tables on the Moving AI maps found (bytes per
--    passable navcell, build time, save and load, query time against
--    grid:find_path (JPS), path costs identical). Maps with more passable
--    navcells than --max-passable (default 4000) are listed as skipped: the
--    build is one search per passable navcell.
-- 3. A pursuer chasing a wandering target for --steps ticks (default 1000)
--    on arena and on Berlin_0_1024 (from the maps directory, skipped with a
--    message when absent; there the target stays within 64 navcells):
--    moving-target adaptive A* against a fresh A* every step (the same
--    code without learning) and grid:find_path every step.
--
--   lua5.4 bench/pathtable.lua [maps_dir] [--maps a,b] [--max-passable N] [--steps N]
--
-- Exits 1 when a table's path cost differs from the search's, 2 on bad
-- arguments, 0 otherwise, including when maps are missing (listed).
-- Written in the subset of Lua that 5.1 to 5.4 share.

local script_dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local function lib(name)
  return dofile(("%s/lib/%s.lua"):format(script_dir, name))
end
local cli = lib("cli")
local root = cli.setup(script_dir)

io.stdout:setvbuf("line")

local EXPECTED = lib("maps")
local USAGE = "usage: lua5.4 bench/pathtable.lua [maps_dir] [--maps a,b] [--max-passable N] [--steps N]"

local function whole(name)
  return function(o, v)
    local n = tonumber(v or "")
    if not n or n < 1 or n ~= math.floor(n) then return nil, name .. " needs a whole number >= 1" end
    o[name] = n
    return 1
  end
end
local opts = cli.options_or_exit("bench/pathtable.lua", USAGE, cli.parse(arg or {}, root, {
  ["--max-passable"] = whole("--max-passable"),
  ["--steps"] = whole("--steps"),
}))
local MAX_PASSABLE = opts["--max-passable"] or 4000
local STEPS = opts["--steps"] or 1000

local wayfinder = cli.load_wayfinder("bench/pathtable.lua")
local pathtable = wayfinder.pathtable
local PLAIN = { rewrite_goal = false, escape = false }
local failures = 0

local function lcg(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 1103515245 + 12345) % 2147483648
    return lo + math.floor(s / 65536) % (hi - lo + 1)
  end
end

local function f(fmt, ...) print(string.format(fmt, ...)) end

-- A plain Dijkstra from a to b over {nodes, edges}: the search a table
-- lookup replaces.
local function dijkstra(n, adj, a, b)
  local d, done = { [a] = 0 }, {}
  for _ = 1, n do
    local u, du
    for v, dv in pairs(d) do
      if not done[v] and (du == nil or dv < du or (dv == du and v < u)) then u, du = v, dv end
    end
    if not u then return nil end
    if u == b then return du end
    done[u] = true
    for _, e in ipairs(adj[u]) do
      local v, nd = e[1], du + e[2]
      if not done[v] and (d[v] == nil or nd < d[v]) then d[v] = nd end
    end
  end
  return nil
end

local function adjacency(n, edges)
  local adj = {}
  for v = 1, n do adj[v] = {} end
  for _, e in ipairs(edges) do
    if e[3] then
      adj[e[1]][#adj[e[1]] + 1] = { e[2], e[3] }
      if not e.one_way then adj[e[2]][#adj[e[2]] + 1] = { e[1], e[3] } end
    end
  end
  return adj
end

local function table_section(name, t, pairs_list, search)
  local q0 = os.clock()
  local total = 0
  for _, p in ipairs(pairs_list) do
    local _, c = t:route(p[1], p[2])
    if c then total = total + c end
  end
  local tq = os.clock() - q0
  local s0 = os.clock()
  local stotal = 0
  for _, p in ipairs(pairs_list) do stotal = stotal + (search(p[1], p[2]) or 0) end
  local ts = os.clock() - s0
  f("  %-10s %d route lookups %.3f ms, searches %.3f ms for the same pairs: search/lookup %.1fx%s",
    name, #pairs_list, tq * 1000, ts * 1000, ts / math.max(tq, 1e-9),
    total == stotal and "" or "  COST MISMATCH")
  if total ~= stotal then failures = failures + 1 end
end

-- ------------------------------------------------ 1. next-hop tables --
print("next-hop tables")
do
  local rand = lcg(1)
  local n = 256
  local edges = {}
  for v = 2, n do edges[#edges + 1] = { v, rand(1, v - 1), rand(1, 100) } end
  for _ = 1, 2 * n do edges[#edges + 1] = { rand(1, n), rand(1, n), rand(1, 100) } end
  local t0 = os.clock()
  local t = pathtable.new { nodes = n, edges = edges }
  local tb = os.clock() - t0
  f("  random     %d nodes %d edges: build %.3f s, %d bytes (%.0f per node)",
    n, #edges, tb, t:memory(), t:memory() / n)
  local adj = adjacency(n, edges)
  local list = {}
  for i = 1, 200 do list[i] = { rand(1, n), rand(1, n) } end
  table_section("random", t, list, function(a, b) return dijkstra(n, adj, a, b) end)
  -- one method call through the checks every public method goes through
  -- (wayfinder.util.public_methods): the best of 5 rounds of 200 000
  local calls, best = 200000, math.huge
  for _ = 1, 5 do
    local c0 = os.clock()
    for i = 1, calls do t:next_hop(i % n + 1, 1) end
    best = math.min(best, os.clock() - c0)
  end
  f("  random     next_hop: %.0f ns a call", best / calls * 1e9)
  -- incremental changes against full rebuilds
  local rows, inc_time = 0, 0
  local changes = 50
  for _ = 1, changes do
    local id = rand(1, #edges)
    local c = rand(1, 150)
    local i0 = os.clock()
    rows = rows + t:set_cost(id, c)
    inc_time = inc_time + os.clock() - i0
  end
  local r0 = os.clock()
  t:rebuild()
  local full = os.clock() - r0
  f("  random     %d edge changes: %.1f rows searched again per change of %d, %.4f s per change;"
    .. " full rebuild %.4f s: rebuild/incremental %.1fx",
    changes, rows / changes, n, inc_time / changes, full, full / math.max(inc_time / changes, 1e-9))
end

do
  -- a house of 8 x 6 rooms, each 2 x 2 tiles, doors between neighbours
  local RW, RH = 8, 6
  local lines = {}
  local legend, letters = {}, {}
  local code = 33
  local function door_char()
    repeat code = code + 1 until not string.char(code):match("[%s%.|%-=#+]")
    local c = string.char(code)
    legend[c] = { type = "door" }
    letters[#letters + 1] = c
    return c
  end
  local W, H = RW * 2, RH * 2
  for y = 0, 2 * H do
    local row = {}
    for x = 0, 2 * W do
      local ch
      if y % 2 == 0 and x % 2 == 0 then ch = "+"
      elseif y % 2 == 0 then
        local ty = y / 2
        if ty == 0 or ty == H then ch = "-"
        elseif ty % 2 == 0 then
          local tx = (x - 1) / 2
          ch = (tx % 2 == 0) and door_char() or "-"
        else ch = " " end
      elseif x % 2 == 0 then
        local tx = x / 2
        if tx == 0 or tx == W then ch = "|"
        elseif tx % 2 == 0 then
          local ty = (y - 1) / 2
          ch = (ty % 2 == 0) and door_char() or "|"
        else ch = " " end
      else ch = "." end
      row[#row + 1] = ch
    end
    lines[#lines + 1] = table.concat(row)
  end
  local w = wayfinder.world.from_ascii(table.concat(lines, "\n") .. "\n", { legend = legend })
  local t0 = os.clock()
  local t = pathtable.from_doors(w)
  local tb = os.clock() - t0
  local n = t:node_count()
  f("  doors      %d rooms %d doors: build %.4f s, %d bytes (%.0f per node)",
    n, t:edge_count(), tb, t:memory(), t:memory() / n)
  local edges = {}
  for i = 1, t:edge_count() do
    local a, b, c = t:edge(i)
    edges[i] = { a, b, c }
  end
  local adj = adjacency(n, edges)
  local rand = lcg(2)
  local list = {}
  for i = 1, 200 do list[i] = { rand(1, n), rand(1, n) } end
  table_section("doors", t, list, function(a, b) return dijkstra(n, adj, a, b) end)
end

-- ---------------------------------------------------------- maps --
local function map_path(name)
  local p = opts.dir .. "/" .. name .. ".map"
  if cli.exists(p) then return p end
  p = root .. "/spec/data/maps/" .. name .. ".map"
  if cli.exists(p) then return p end
  return nil
end

local names = opts.only or EXPECTED
local skipped = {}

do
  local p = map_path("arena")
  if p then
    local grid = wayfinder.grid.load_movingai(p)
    local t0 = os.clock()
    local t, _, graph = pathtable.from_regions(grid)
    local tb = os.clock() - t0
    local n = t:node_count()
    f("  regions    arena: %d sectors: build (graph and table) %.3f s, %d bytes (%.0f per node)",
      n, tb, t:memory(), t:memory() / n)
    local secs = {}
    for s = 1, n do
      local r = graph:sector(s)
      secs[s] = { (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2 }
    end
    local rand = lcg(3)
    local list = {}
    for i = 1, 200 do list[i] = { rand(1, n), rand(1, n) } end
    local q0 = os.clock()
    for _, q in ipairs(list) do t:route(q[1], q[2]) end
    local tq = os.clock() - q0
    local s0 = os.clock()
    for _, q in ipairs(list) do
      local a, b = secs[q[1]], secs[q[2]]
      graph:find_path(a[1], a[2], b[1], b[2])
    end
    local ts = os.clock() - s0
    f("  regions    %d route lookups %.3f ms, graph:find_path %.3f ms for the same sector centres:"
      .. " search/lookup %.1fx", #list, tq * 1000, ts * 1000, ts / math.max(tq, 1e-9))
  else
    print("  regions    skipped: arena.map not found")
  end
end

-- -------------------------------------------- 2. compressed grid tables --
print("compressed grid tables (max " .. MAX_PASSABLE .. " passable navcells; --max-passable N)")
local function passable_cells(g)
  local cells = {}
  for y = 0, g:height() - 1 do
    for x = 0, g:width() - 1 do
      if g:is_passable(x, y) then cells[#cells + 1] = { x, y } end
    end
  end
  return cells
end

for _, name in ipairs(names) do
  local p = map_path(name)
  if not p then
    skipped[#skipped + 1] = name .. " (not found)"
  else
    local grid = wayfinder.grid.load_movingai(p)
    local cells = passable_cells(grid)
    if #cells > MAX_PASSABLE then
      skipped[#skipped + 1] = string.format("%s (%d passable navcells)", name, #cells)
    else
      local t0 = os.clock()
      local t = pathtable.build_grid(grid)
      local tb = os.clock() - t0
      local st = t:stats()
      local file = os.tmpname()
      local s0 = os.clock()
      t:save(file)
      local tsave = os.clock() - s0
      local fh = io.open(file, "rb")
      local size = fh:seek("end")
      fh:close()
      local l0 = os.clock()
      local u = assert(pathtable.load_grid(file, grid))
      local tload = os.clock() - l0
      os.remove(file)
      f("  %-10s %dx%d, %d passable: build %.2f s, %.1f runs per row, %d run bytes"
        .. " (%.0f bytes per passable navcell; %d bytes held), file %d bytes, save %.3f s, load %.3f s",
        name, grid:width(), grid:height(), #cells, tb, st.runs / #cells, st.run_bytes,
        st.run_bytes / #cells, t:memory(), size, tsave, tload)
      local rand = lcg(4)
      local list = {}
      for i = 1, 500 do
        local a, b = cells[rand(1, #cells)], cells[rand(1, #cells)]
        list[i] = { a[1], a[2], b[1], b[2] }
      end
      local q0 = os.clock()
      local costs = {}
      for i, q in ipairs(list) do
        local _, _, info = u:find_path(q[1], q[2], q[3], q[4])
        costs[i] = info and info.cost_units or -1
      end
      local tq = os.clock() - q0
      local j0 = os.clock()
      local same = 0
      for i, q in ipairs(list) do
        local _, _, info = grid:find_path(q[1] + 0.5, q[2] + 0.5, q[3] + 0.5, q[4] + 0.5, PLAIN)
        if (info and info.cost_units or -1) == costs[i] then same = same + 1 end
      end
      local tj = os.clock() - j0
      f("  %-10s %d queries: table %.3f ms each, grid:find_path (JPS) %.3f ms each:"
        .. " search/table %.2fx; costs identical %d of %d",
        name, #list, tq * 1000 / #list, tj * 1000 / #list, tj / math.max(tq, 1e-9), same, #list)
      if same ~= #list then failures = failures + 1 end
    end
  end
end
if #skipped > 0 then print("  skipped: " .. table.concat(skipped, ", ")) end

-- --------------------------------------------------------- 3. pursuit --
-- `near`: on a large map the chase starts with the target within `near`
-- navcells of the pursuer (both in the same piece of the map) and the
-- target's jumps land within `near` of the pursuer, so a search in Lua
-- stays affordable; no table is built there (too many passable navcells).
local function pursuit(name, near)
  local p = map_path(name)
  if not p then
    print(string.format("pursuit on %s: skipped, %s.map not found", name, name))
  else
    local grid = wayfinder.grid.load_movingai(p)
    local cells = passable_cells(grid)
    -- the chase is driven by the search's paths; the other two replay the
    -- same positions and must find the same cost at every step
    local steps = {}
    local function run(mode)
      local rand = lcg(5)
      local a, b = cells[rand(1, #cells)], cells[rand(1, #cells)]
      if near then
        -- a target within `near` the search can reach from the pursuer
        while true do
          a = cells[rand(1, #cells)]
          local bx = math.max(0, math.min(grid:width() - 1, a[1] + rand(-near, near)))
          local by = math.max(0, math.min(grid:height() - 1, a[2] + rand(-near, near)))
          if grid:is_passable(bx, by)
            and grid:find_path(a[1] + 0.5, a[2] + 0.5, bx + 0.5, by + 0.5, PLAIN) then
            b = { bx, by }
            break
          end
        end
      end
      local sx, sy, tx, ty = a[1], a[2], b[1], b[2]
      local pursuer
      if mode == "table" then
        pursuer = pathtable.pursuer(grid, { table = pathtable.build_grid(grid) })
      else
        pursuer = pathtable.pursuer(grid, { learn = mode == "adaptive" })
      end
      local expanded, differ = 0, 0
      local t0 = os.clock()
      for i = 1, STEPS do
        local path, info, _
        if mode == "search" then
          path, _, info = grid:find_path(sx + 0.5, sy + 0.5, tx + 0.5, ty + 0.5, PLAIN)
          steps[i] = { sx, sy, tx, ty, info and info.cost_units }
        else
          local st = steps[i]
          sx, sy, tx, ty = st[1], st[2], st[3], st[4]
          path, _, info = pursuer:plan(sx, sy, tx, ty)
          if (info and info.cost_units) ~= st[5] then differ = differ + 1 end
        end
        if path then expanded = expanded + info.expanded end
        if mode == "search" then
          -- one navcell towards the next waypoint (waypoints are turning points)
          if path and path[2] and rand(1, 2) == 1 then
            local dx, dy = path[2].x - sx, path[2].y - sy
            sx = sx + (dx > 0 and 1 or (dx < 0 and -1 or 0))
            sy = sy + (dy > 0 and 1 or (dy < 0 and -1 or 0))
          end
          -- the target wanders, or jumps to a random navcell now and then
          if rand(1, 50) == 1 then
            local c = cells[rand(1, #cells)]
            if near then
              local cx = math.max(0, math.min(grid:width() - 1, sx + rand(-near, near)))
              local cy = math.max(0, math.min(grid:height() - 1, sy + rand(-near, near)))
              if grid:is_passable(cx, cy) then c = { cx, cy } else c = { tx, ty } end
            end
            tx, ty = c[1], c[2]
          else
            for _ = 1, 2 do
              local nx, ny = tx + rand(-1, 1), ty + rand(-1, 1)
              if nx >= 0 and ny >= 0 and nx < grid:width() and ny < grid:height()
                and grid:is_passable(nx, ny) then tx, ty = nx, ny end
            end
          end
        end
      end
      return os.clock() - t0, expanded, differ
    end
    local tj, ej = run("search")
    local ta, ea, da = run("adaptive")
    local tf, ef, df = run("fresh")
    local tt, dt = nil, 0
    if not near then
      local t3, _, d3 = run("table")
      tt, dt = t3, d3
    end
    f("pursuit on %s, %d steps (pursuer steps on 1 tick of 2; the target takes 2 random steps a tick, jumps 1 in 50%s):",
      name, STEPS, near and string.format(", within %d navcells", near) or "")
    f("  adaptive A* (learning, Lua) %.3f s, %d navcells expanded", ta, ea)
    f("  fresh A* every step (Lua)   %.3f s, %d navcells expanded: fresh/adaptive expansions %.2fx",
      tf, ef, ef / math.max(ea, 1))
    f("  grid:find_path each step    %.3f s (C core, JPS, %d jump points expanded)", tj, ej)
    if tt then
      f("  grid table (Lua reads)      %.3f s (table built beforehand), 0 expanded", tt)
    else
      f("  grid table: not built (%d passable navcells: one search each)", #cells)
    end
    f("  steps whose cost differs from grid:find_path: adaptive %d, fresh %d, table %d", da, df, dt)
    if da + df + dt > 0 then failures = failures + 1 end
  end
end

pursuit("arena")
pursuit("Berlin_0_1024", 64)

-- ------------------------------------------------------------ 4. cache --
do
  local p = map_path("arena")
  if not p then
    print("path cache: skipped, arena.map not found")
  else
    local grid = wayfinder.grid.load_movingai(p)
    grid:set_chunk_size(8)
    local cells = passable_cells(grid)
    local cache = pathtable.cache(grid, { capacity = 1024 })
    local rand = lcg(6)
    -- 1000 agents in 20 groups: each group starts round a spot and heads
    -- for one of 10 goals; 5 rounds, with 3 random edits between rounds
    local goals, spots = {}, {}
    for i = 1, 10 do goals[i] = cells[rand(1, #cells)] end
    for i = 1, 20 do spots[i] = cells[rand(1, #cells)] end
    local expanded_plain, requests = 0, 0
    local t0 = os.clock()
    for round = 1, 5 do
      for agent = 1, 1000 do
        local spot = spots[(agent % 20) + 1]
        local sx = math.max(0, math.min(grid:width() - 1, spot[1] + rand(-1, 1)))
        local sy = math.max(0, math.min(grid:height() - 1, spot[2] + rand(-1, 1)))
        local g = goals[(agent % 10) + 1]
        if grid:is_passable(sx, sy) then
          requests = requests + 1
          cache:request(sx, sy, g[1], g[2])
          local _, _, info = grid:find_path(sx + 0.5, sy + 0.5, g[1] + 0.5, g[2] + 0.5, PLAIN)
          expanded_plain = expanded_plain + (info and info.expanded or 0)
        end
      end
      if round < 5 then
        for _ = 1, 3 do
          local c = cells[rand(1, #cells)]
          cache:set_passable(c[1], c[2], not grid:is_passable(c[1], c[2]))
        end
        cache:advance()
      end
    end
    local st = cache:stats()
    f("path cache on arena (chunks of 8), %d requests in 5 rounds, 3 edits between rounds:"
      .. " %.2f s with a plain search beside each request", requests, os.clock() - t0)
    f("  hits %d, spliced %d, searched %d: reuse rate %.1f%%; paths marked stale %d;"
      .. " expansions saved %d of %d a search every time would make",
      st.hits, st.spliced, st.misses, 100 * (st.hits + st.spliced) / math.max(requests, 1),
      st.stale_marked, st.saved, expanded_plain)
  end
end

if failures > 0 then
  print(failures .. " mismatches")
  os.exit(1)
end
