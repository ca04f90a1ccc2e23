--- grid_paths.lua: optimal paths on a Moving AI map, drawn in ASCII.
--
--   lua5.4 examples/grid_paths.lua [map]
--
-- Loads a .map file (default: examples/maps/arena.map), picks a start and a
-- goal, and finds the path with A*, with jump point search (JPS), with JPS
-- plus smoothing, and with JPS towards a circle goal. Each result is printed
-- with its length and the number of nodes the search expanded, and drawn on
-- the part of the map it crosses. When a scenario file <map>.scen lies beside
-- the map, a few of its queries are also checked against the benchmark's
-- optimal lengths.
local compat = require("wayfinder.compat")

-- Find the repository from this file's location, so the example runs from
-- any directory without installing anything.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or "./"
local root = here .. "../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local found, wayfinder = pcall(require, "wayfinder")
if not found then
  io.stderr:write("grid_paths: cannot load wayfinder; build it first with `make build`\n",
    wayfinder, "\n")
  os.exit(1)
end

local VIEW_W = 49   -- the part of a large map the example draws
local VIEW_H = 22
local CIRCLE_RADIUS = 4

local map_path = arg and arg[1] or here .. "maps/arena.map"

local grid, err = wayfinder.grid.load_movingai(map_path)
if not grid then
  io.stderr:write("grid_paths: ", err, "\n")
  os.exit(1)
end
local W, H = grid:width(), grid:height()

-- The passability of every navcell, read once: rows[y + 1]:byte(x + 1) is
-- '.' for a passable navcell, '@' for a blocked one.
local rows = {}
for line in grid:to_ascii():gmatch("[^\n]+") do rows[#rows + 1] = line end

local function passable(x, y)
  return x >= 0 and y >= 0 and x < W and y < H and rows[y + 1]:byte(x + 1) == 46
end

-- The window to draw: at most VIEW_W x VIEW_H navcells, so that the output
-- fits a terminal. It starts around the centre of the map (see
-- choose_window below).
local vx0 = math.max(0, compat.idiv(W - VIEW_W, 2))
local vy0 = math.max(0, compat.idiv(H - VIEW_H, 2))
local vx1 = math.min(W - 1, vx0 + VIEW_W - 1)
local vy1 = math.min(H - 1, vy0 + VIEW_H - 1)

-- The largest set of passable navcells of the window joined by orthogonal
-- steps inside it (such steps are always legal, so any two of them are
-- connected on the grid).
local function largest_area()
  local seen, best = {}, {}
  for y0 = vy0, vy1 do
    for x0 = vx0, vx1 do
      if passable(x0, y0) and not seen[y0 * W + x0] then
        local area, stack = {}, { { x0, y0 } }
        seen[y0 * W + x0] = true
        while #stack > 0 do
          local c = table.remove(stack)
          area[#area + 1] = c
          for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
            local x, y = c[1] + d[1], c[2] + d[2]
            if x >= vx0 and x <= vx1 and y >= vy0 and y <= vy1 and passable(x, y)
                and not seen[y * W + x] then
              seen[y * W + x] = true
              stack[#stack + 1] = { x, y }
            end
          end
        end
        if #area > #best then best = area end
      end
    end
  end
  return best
end

-- The navcell of the area nearest (cx, cy); ties go to the lower row, then
-- the lower column.
local function nearest(area, cx, cy)
  local best, bd
  for _, c in ipairs(area) do
    local d = (c[1] - cx) ^ 2 + (c[2] - cy) ^ 2
    if not best or d < bd or (d == bd and (c[2] < best[2]
        or (c[2] == best[2] and c[1] < best[1]))) then
      best, bd = c, d
    end
  end
  return best
end

-- Windows to try, the centred one first, then others on a coarse lattice by
-- distance from the centre; take the first whose largest area covers a
-- quarter of it, else the one with the largest area.
local function choose_window()
  local cx, cy = vx0, vy0
  local candidates = {}
  local sx_step, sy_step = math.max(1, compat.idiv(VIEW_W, 2)), math.max(1, compat.idiv(VIEW_H, 2))
  for y = 0, math.max(0, H - VIEW_H), sy_step do
    for x = 0, math.max(0, W - VIEW_W), sx_step do
      candidates[#candidates + 1] = { x, y, (x - cx) ^ 2 + (y - cy) ^ 2 }
    end
  end
  table.sort(candidates, function(p, q)
    if p[3] ~= q[3] then return p[3] < q[3] end
    if p[2] ~= q[2] then return p[2] < q[2] end
    return p[1] < q[1]
  end)
  table.insert(candidates, 1, { cx, cy })
  local best, best_window
  for i = 1, math.min(#candidates, 200) do
    local c = candidates[i]
    vx0, vy0 = c[1], c[2]
    vx1, vy1 = math.min(W - 1, vx0 + VIEW_W - 1), math.min(H - 1, vy0 + VIEW_H - 1)
    local area = largest_area()
    if #area * 4 >= (vx1 - vx0 + 1) * (vy1 - vy0 + 1) then return area end
    if not best or #area > #best then best, best_window = area, { vx0, vy0, vx1, vy1 } end
  end
  vx0, vy0, vx1, vy1 = compat.unpack(best_window)
  return best
end

-- Start near the window's top-left corner, goal near its bottom-right one.
local area = choose_window()
if #area < 2 then
  io.stderr:write("grid_paths: found no two connected navcells to draw a path between\n")
  os.exit(1)
end
local sx, sy = compat.unpack(nearest(area, vx0, vy0))
local gx, gy = compat.unpack(nearest(area, vx1, vy1))

-- The navcells a straight segment between two navcell centres crosses, in
-- order (the same walk grid:line_of_sight checks).
local function segment_cells(ax, ay, bx, by, visit)
  local nx, ny = math.abs(bx - ax), math.abs(by - ay)
  local dx, dy = bx > ax and 1 or -1, by > ay and 1 or -1
  local x, y, ix, iy = ax, ay, 0, 0
  while ix < nx or iy < ny do
    local d = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
    if d == 0 then
      x, y, ix, iy = x + dx, y + dy, ix + 1, iy + 1
    elseif d < 0 then
      x, ix = x + dx, ix + 1
    else
      y, iy = y + dy, iy + 1
    end
    visit(x, y)
  end
end

-- A navcell touches the circle when the closest point of its square lies
-- within the radius (the rule find_path uses for circle goals).
local function touches_circle(x, y, cx, cy, r)
  local px = math.max(x, math.min(cx, x + 1))
  local py = math.max(y, math.min(cy, y + 1))
  return (px - cx) ^ 2 + (py - cy) ^ 2 <= r * r
end

-- Draws the window (grown to hold the whole path) with the path on it.
local function draw(path, circle)
  local marks = {}
  local function mark(x, y, ch) marks[y * W + x] = ch end
  local x0, y0, x1, y1 = vx0, vy0, vx1, vy1
  local function grow(x, y)
    x0, y0 = math.min(x0, x), math.min(y0, y)
    x1, y1 = math.max(x1, x), math.max(y1, y)
  end
  if circle then
    -- show the whole goal area, as far as it lies on the map
    local cx0, cy0 = math.floor(circle.x - circle.r), math.floor(circle.y - circle.r)
    local cx1, cy1 = math.floor(circle.x + circle.r), math.floor(circle.y + circle.r)
    grow(math.max(0, cx0), math.max(0, cy0))
    grow(math.min(W - 1, cx1), math.min(H - 1, cy1))
    for y = y0, y1 do
      for x = x0, x1 do
        if passable(x, y) and touches_circle(x, y, circle.x, circle.y, circle.r) then
          mark(x, y, "+")
        end
      end
    end
  end
  for i = 1, #path - 1 do
    local a, b = path[i], path[i + 1]
    segment_cells(a.x, a.y, b.x, b.y, function(x, y) mark(x, y, "o"); grow(x, y) end)
  end
  for i = 2, #path - 1 do mark(path[i].x, path[i].y, "*") end
  mark(path[1].x, path[1].y, "S")
  mark(path[#path].x, path[#path].y, "G")
  for y = y0, y1 do
    local line = {}
    for x = x0, x1 do
      line[#line + 1] = marks[y * W + x] or (passable(x, y) and "." or "#")
    end
    print("  " .. table.concat(line))
  end
end

-- The waypoints as lines of at most 50 columns.
local function print_waypoints(path)
  local line = "   waypoints:"
  for _, p in ipairs(path) do
    local item = (" (%d,%d)"):format(p.x, p.y)
    if #line + #item > 50 then
      print(line)
      line = "   " .. string.rep(" ", 10)
    end
    line = line .. item
  end
  print(line)
end

print(("wayfinder: paths on %s"):format(map_path))
print(("%d x %d navcells, start (%d,%d), goal (%d,%d)"):format(W, H, sx, sy, gx, gy))
print()
print("legend:  # blocked  . free  S start  G end of path")
print("         * waypoint  o path")
print("         + navcell touching the circle goal")

local runs = {
  { title = "A*", options = { algorithm = "astar" } },
  { title = "JPS (jump point search)", options = { algorithm = "jps" } },
  { title = "JPS, smoothed (string-pulled)", options = { algorithm = "jps", smooth = true } },
  {
    title = ("JPS to a circle goal of radius %d"):format(CIRCLE_RADIUS),
    options = { algorithm = "jps", goal = { shape = "circle", radius = CIRCLE_RADIUS } },
    circle = { x = gx + 0.5, y = gy + 0.5, r = CIRCLE_RADIUS },
  },
}

local expanded = {}
for i, run in ipairs(runs) do
  -- aim at navcell centres: world x + 0.5 lies inside navcell x
  local path, length, info = grid:find_path(sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, run.options)
  print()
  print(("%d. %s"):format(i, run.title))
  if not path then
    print("   no path: " .. length)
  else
    expanded[run.options.algorithm] = expanded[run.options.algorithm] or info.expanded
    print(("   length %.4f   %d waypoints   %d nodes expanded"):format(
      length, #path, info.expanded))
    if run.options.smooth then
      print(("   (grid path cost before smoothing: %.4f)"):format(info.cost))
    end
    print_waypoints(path)
    draw(path, run.circle)
  end
end

print()
print(("JPS expanded %d nodes and A* %d, for the same length.")
  :format(expanded.jps, expanded.astar))

-- Expected failures are values, not errors: nil and a reason string.
print()
print("No path is a value, not an error:")
local bx, by
for y = vy0, vy1 do
  for x = vx0, vx1 do
    if not bx and not passable(x, y) then bx, by = x, y end
  end
end
if bx then
  local _, reason = grid:find_path(sx + 0.5, sy + 0.5, bx + 0.5, by + 0.5)
  print(("  goal on blocked (%d,%d): nil, %q"):format(bx, by, reason))
end
local _, reason = grid:find_path(sx + 0.5, sy + 0.5, W + 10, 0.5)
print(("  goal off the map: nil, %q"):format(reason))

-- With the benchmark's scenario file beside the map, compare a few of its
-- queries with the optimal lengths it lists.
local scen = io.open(map_path .. ".scen", "rb")
if scen then
  scen:close()
  local queries = wayfinder.movingai.load_scenarios(map_path .. ".scen")
  print()
  print(("Benchmark queries from %s.scen"):format(map_path:match("[^/\\]*$")))
  print(("(%d queries in the file; optimal = the benchmark's length):"):format(#queries))
  print("  start -> goal          optimal   wayfinder  nodes A*/JPS")
  local picks = 5
  for k = 1, picks do
    -- evenly spread over the file; skip queries for other terrain (their
    -- start is blocked for a ground unit, see docs/movingai.md)
    local i = math.max(1, compat.idiv(#queries * k, picks))
    while i > 1 and not passable(queries[i].sx, queries[i].sy) do i = i - 1 end
    local q = queries[i]
    local function run(algorithm)
      local path, length, info = grid:find_path(q.sx + 0.5, q.sy + 0.5, q.gx + 0.5, q.gy + 0.5,
        { algorithm = algorithm })
      return path and length, path and info.expanded or length
    end
    local alen, aexp = run("astar")
    local jlen, jexp = run("jps")
    local ok = alen and jlen and math.abs(alen - q.length) <= q.tolerance
      and math.abs(jlen - q.length) <= q.tolerance
    print(("  %-21s %9.4f %11s  %s/%s %s"):format(
      ("(%d,%d)->(%d,%d)"):format(q.sx, q.sy, q.gx, q.gy), q.length,
      jlen and ("%.4f"):format(jlen) or "-", aexp, jexp, ok and "ok" or "MISMATCH"))
  end
end

grid:close()
