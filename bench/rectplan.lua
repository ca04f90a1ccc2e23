-- bench/rectplan.lua: the rectangle planner on random furnished rooms.
--   lua5.4 bench/rectplan.lua [rooms per size] [key=value tuning ...]
-- With RECTS_BENCH_ROUTES=<directory> set, the route with the worst ratio
-- of each size is written there as a route file for the route tester.
-- For rooms of 8x8, 16x16 and 32x32 tiles with 10 to 40 objects it prints,
-- side by side: plans per second of wayfinder.rectplan.plan and of the grid
-- planner (grid:find_path with smoothing on the same room rasterized at
-- 4 navcells per tile), and the length of each route divided by the true
-- shortest (any-angle) length, found here with a visibility graph over the
-- inflated obstacles' corners.
local compat = require("wayfinder.compat")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = (os.getenv("WAYFINDER_CPATH") or "build/?.so") .. ";" .. package.cpath

local wayfinder = require("wayfinder")
local rooms = wayfinder.rectplan

local PER_SIZE = tonumber(arg[1]) or 40
local QUERIES = 6                  -- start/goal pairs per room
local WIDTH = 0.5                  -- person width
local RES = 4                      -- grid navcells per tile
local EPS = 1e-7                   -- visibility graph clearance
local tuning = {}
for i = 2, #arg do
  local k, v = arg[i]:match("^([%w_]+)=(.+)$")
  if k then tuning[k] = tonumber(v) end
end
if next(tuning) == nil then tuning = nil end

-- ------------------------------------------------------------- rooms --

-- A room of n x n tiles inside a one-tile border of another room, with a
-- closet of a third room in a corner (sometimes), stray thin walls, a
-- door, and objects that do not overlap except contained ones.
local function make_room(n, nobj)
  local W, H = n + 2, n + 2
  local ids = {}
  for y = 0, H - 1 do
    for x = 0, W - 1 do
      local border = x == 0 or y == 0 or x == W - 1 or y == H - 1
      ids[y * W + x + 1] = border and 0 or 1
    end
  end
  if n >= 16 and math.random() < 0.5 then
    local cw, ch = math.random(2, compat.idiv(n, 4)), math.random(2, compat.idiv(n, 4))
    for y = 1, ch do for x = W - 1 - cw, W - 2 do ids[y * W + x + 1] = 2 end end
  end
  local walls = {}
  for _ = 1, math.random(0, compat.idiv(n, 8) + 1) do
    local x, y, len = math.random(2, n - 2), math.random(2, n - 2), math.random(1, compat.idiv(n, 3))
    if math.random() < 0.5 then
      walls[#walls + 1] = { x, y, math.min(x + len, n), y }
    else
      walls[#walls + 1] = { x, y, x, math.min(y + len, n) }
    end
  end
  local doors = { [math.random(2, n - 1) + 1] = true }     -- top border
  local objects = {}
  local tries = 0
  while #objects < nobj and tries < nobj * 30 do
    tries = tries + 1
    local w = math.random(2, 8) / 4
    local h = math.random(2, 8) / 4
    local x0 = 1 + math.random(0, math.floor((n - w) * 4)) / 4
    local y0 = 1 + math.random(0, math.floor((n - h) * 4)) / 4
    local ok = true
    for _, o in ipairs(objects) do
      if not o.contained and x0 < o.x1 and o.x0 < x0 + w and y0 < o.y1 and o.y0 < y0 + h then
        ok = false
        break
      end
    end
    if ok then
      local kind = math.random()
      local o = { id = #objects + 1, x0 = x0, y0 = y0, x1 = x0 + w, y1 = y0 + h, room = 1 }
      if kind < 0.08 then o.walk_over = true end
      if kind > 0.95 then o.person = true end
      objects[#objects + 1] = o
      if kind > 0.85 and kind <= 0.95 then  -- something on it
        objects[#objects + 1] = { id = #objects + 1, x0 = x0 + w / 4, y0 = y0 + h / 4,
          x1 = x0 + w / 2, y1 = y0 + h / 2, room = 1, contained = true }
      end
    end
  end
  return { width = W, height = H, rooms = ids, doors = doors, walls = walls,
    objects = objects }
end

-- ------------------------------------------------- true shortest path --

local function blockers(inflated)
  local out = {}
  for _, a in ipairs(inflated) do
    if a.penalty == nil and a[3] > a[1] and a[4] > a[2] then
      out[#out + 1] = { a[1] - EPS, a[2] - EPS, a[3] + EPS, a[4] + EPS }
    end
  end
  return out
end

local function inside(b, x, y)
  for _, r in ipairs(b) do
    if r[1] < x and x < r[3] and r[2] < y and y < r[4] then return true end
  end
  return false
end

-- Does segment (ax, ay)-(bx, by) meet an open rectangle?
local function hits(r, ax, ay, bx, by)
  local t0, t1 = 0, 1
  local dx, dy = bx - ax, by - ay
  if dx == 0 then
    if not (r[1] < ax and ax < r[3]) then return false end
  else
    local u0, u1 = (r[1] - ax) / dx, (r[3] - ax) / dx
    if u0 > u1 then u0, u1 = u1, u0 end
    if u0 > t0 then t0 = u0 end
    if u1 < t1 then t1 = u1 end
  end
  if dy == 0 then
    if not (r[2] < ay and ay < r[4]) then return false end
  else
    local u0, u1 = (r[2] - ay) / dy, (r[4] - ay) / dy
    if u0 > u1 then u0, u1 = u1, u0 end
    if u0 > t0 then t0 = u0 end
    if u1 < t1 then t1 = u1 end
  end
  return t0 < t1
end

local function visible(b, ax, ay, bx, by)
  local lx, hx = math.min(ax, bx), math.max(ax, bx)
  local ly, hy = math.min(ay, by), math.max(ay, by)
  for _, r in ipairs(b) do
    if r[1] < hx and r[3] > lx and r[2] < hy and r[4] > ly and hits(r, ax, ay, bx, by) then
      return false
    end
  end
  return true
end

-- Corners of the blockers, pushed out diagonally, that are free.
local function corners(b)
  local out = {}
  for _, r in ipairs(b) do
    for _, c in ipairs({ { r[1] - EPS, r[2] - EPS }, { r[3] + EPS, r[2] - EPS },
      { r[1] - EPS, r[4] + EPS }, { r[3] + EPS, r[4] + EPS } }) do
      if not inside(b, c[1], c[2]) then out[#out + 1] = c end
    end
  end
  return out
end

-- Dijkstra over the visibility graph, edges found lazily.
local function shortest(b, verts, sx, sy, gx, gy)
  local pts = { { sx, sy }, { gx, gy } }
  for _, c in ipairs(verts) do pts[#pts + 1] = c end
  local dist, done = { [1] = 0 }, {}
  while true do
    local u, best = nil, math.huge
    for i, d in pairs(dist) do
      if not done[i] then
        local f = d + math.sqrt((pts[i][1] - gx) ^ 2 + (pts[i][2] - gy) ^ 2)
        if f < best then u, best = i, f end
      end
    end
    if not u then return nil end
    if u == 2 then return dist[2] end
    done[u] = true
    local ux, uy = pts[u][1], pts[u][2]
    for v = 2, #pts do
      if not done[v] then
        local nd = dist[u] + math.sqrt((pts[v][1] - ux) ^ 2 + (pts[v][2] - uy) ^ 2)
        if (dist[v] == nil or nd < dist[v]) and visible(b, ux, uy, pts[v][1], pts[v][2]) then
          dist[v] = nd
        end
      end
    end
  end
end

-- ---------------------------------------------------------------- grid --

local function rasterize(room, inflated)
  local gw, gh = room.width * RES, room.height * RES
  local g = wayfinder.grid.new(gw, gh)
  g:batch(function()
    for _, a in ipairs(inflated) do
      if a.penalty == nil and a[3] > a[1] and a[4] > a[2] then
        local x0 = math.max(0, math.floor(a[1] * RES))
        local x1 = math.min(gw - 1, math.ceil(a[3] * RES) - 1)
        local y0 = math.max(0, math.floor(a[2] * RES))
        local y1 = math.min(gh - 1, math.ceil(a[4] * RES) - 1)
        for y = y0, y1 do
          for x = x0, x1 do g:set_passable(x, y, false) end
        end
      end
    end
  end)
  return g
end

-- ---------------------------------------------------------------- main --

local function free_point(room, b)
  for _ = 1, 200 do
    local x = 1 + math.random(0, (room.width - 2) * 1024 - 1) / 1024
    local y = 1 + math.random(0, (room.height - 2) * 1024 - 1) / 1024
    local near = false
    for _, r in ipairs(b) do
      if r[1] - 1e-3 < x and x < r[3] + 1e-3 and r[2] - 1e-3 < y and y < r[4] + 1e-3 then
        near = true
        break
      end
    end
    if not near then return x, y end
  end
end

local function run_size(n)
  local cases = {}
  local build_s, builds = 0, 0
  for k = 1, PER_SIZE do
    local nobj = 10 + compat.idiv((k - 1) * 30, math.max(PER_SIZE - 1, 1))
    local room = make_room(n, nobj)
    local probe = { start = { 1.5, 1.5 }, goal = { 1.5, 1.5 }, width = WIDTH, tuning = tuning }
    local _, inflated = rooms.obstacles(room, probe)
    local b = blockers(inflated)
    local verts = corners(b)
    local t = os.clock()
    local grid = rasterize(room, inflated)
    build_s, builds = build_s + (os.clock() - t), builds + 1
    for _ = 1, QUERIES do
      local sx, sy = free_point(room, b)
      local gx, gy = free_point(room, b)
      if sx and gx then
        cases[#cases + 1] = { room = room, b = b, verts = verts, grid = grid,
          q = { start = { sx, sy }, goal = { gx, gy }, width = WIDTH, tuning = tuning } }
      end
    end
  end
  -- speed: each side timed over all cases, several rounds
  local rounds = n == 32 and 2 or 5
  local t0 = os.clock()
  for _ = 1, rounds do
    for _, c in ipairs(cases) do c.pts, c.info = rooms.plan(c.room, c.q) end
  end
  local rect_s = (os.clock() - t0) / (rounds * #cases)
  t0 = os.clock()
  for _ = 1, rounds do
    for _, c in ipairs(cases) do
      local s, g = c.q.start, c.q.goal
      c.gpts, c.glen = c.grid:find_path(s[1] * RES, s[2] * RES, g[1] * RES, g[2] * RES,
        { smooth = true })
    end
  end
  local grid_s = (os.clock() - t0) / (rounds * #cases)
  -- quality
  local sum, worst, m, gsum, gm, both, disagree = 0, 0, 0, 0, 0, 0, 0
  local worst_case
  local nodes, expanded = 0, 0
  for _, c in ipairs(cases) do
    local s, g = c.q.start, c.q.goal
    local best = shortest(c.b, c.verts, s[1], s[2], g[1], g[2])
    if c.pts then
      nodes, expanded = nodes + c.info.nodes, expanded + c.info.expanded
    end
    if best and c.pts and best > 1e-9 then
      local r = c.info.length / best
      sum, m = sum + r, m + 1
      if r > worst then worst, worst_case = r, c end
      if c.gpts then
        -- grid waypoints are navcell indices: measure between cell centres,
        -- with the true start and goal at the ends
        local len, px, py = 0, s[1], s[2]
        for i = 2, #c.gpts do
          local x = i == #c.gpts and g[1] or (c.gpts[i][1] + 0.5) / RES
          local y = i == #c.gpts and g[2] or (c.gpts[i][2] + 0.5) / RES
          len = len + math.sqrt((x - px) ^ 2 + (y - py) ^ 2)
          px, py = x, y
        end
        gsum, gm = gsum + len / best, gm + 1
      end
    end
    if (best ~= nil) ~= (c.pts ~= nil) then disagree = disagree + 1 end
    if best and c.pts then both = both + 1 end
  end
  for _, c in ipairs(cases) do c.grid:close() end
  local dir = os.getenv("RECTS_BENCH_ROUTES")
  if dir and worst_case then
    local p = rooms.planner(worst_case.room, worst_case.q)
    p:run()
    assert(p:save_route(("%s/worst-%dx%d.route.json"):format(dir, n, n)))
  end
  return { n = n, cases = #cases, rect_ps = 1 / rect_s, grid_ps = 1 / grid_s,
    raster_ps = 1 / (grid_s + build_s / builds),
    mean = m > 0 and sum / m or 0, worst = worst, measured = m,
    grid_mean = gm > 0 and gsum / gm or 0, disagree = disagree,
    nodes = both > 0 and nodes / both or 0, expanded = both > 0 and expanded / both or 0 }
end

math.randomseed(20240607)
print(("rectangle planner on random furnished rooms (%d rooms per size, %d queries "
  .. "each, person width %.2f, 10-40 objects)"):format(PER_SIZE, QUERIES, WIDTH))
print(("%-7s %6s %10s %10s %12s %8s %8s %8s %7s %6s %6s"):format("room", "plans",
  "rects/s", "grid/s", "grid+rast/s", "mean", "worst", "grid", "differ", "nodes", "steps"))
local all_sum, all_m, all_worst = 0, 0, 0
for _, n in ipairs({ 8, 16, 32 }) do
  local r = run_size(n)
  print(("%-7s %6d %10.0f %10.0f %12.0f %8.4f %8.4f %8.4f %7d %6.1f %6.1f"):format(
    n .. "x" .. n, r.cases, r.rect_ps, r.grid_ps, r.raster_ps, r.mean, r.worst, r.grid_mean,
    r.disagree, r.nodes, r.expanded))
  all_sum, all_m = all_sum + r.mean * r.measured, all_m + r.measured
  if r.worst > all_worst then all_worst = r.worst end
end
print(("smoothed / shortest length over %d routes: mean %.4f, worst %.4f"):format(
  all_m, all_m > 0 and all_sum / all_m or 0, all_worst))
print("rects/s: wayfinder.rectplan.plan per query (obstacle scan included); grid/s: "
  .. "grid:find_path with smoothing on a prebuilt grid of " .. RES .. " navcells per tile;")
print("grid+rast/s: the same with the room rasterized into the grid (cell by cell with "
  .. "grid:set_passable) once per query;")
print("mean/worst: route length / shortest any-angle length; grid: the same for the "
  .. "grid route; differ: queries where one side found a route and the other not")
