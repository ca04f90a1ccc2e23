--- Slow, obvious reimplementations of the grid rules, written from the
-- documented semantics (src/wayfinder.h), for the specs to compare against.
-- Nothing here is fast or clever on purpose.
local compat = require("wayfinder.compat")
local M = {}

-- Path cost units documented in src/wayfinder.h: an orthogonal step on
-- cost-1 ground costs 2 * WF_COST_SCALE, a diagonal one 2 * WF_COST_DIAG.
M.SCALE = 16777216
M.DIAG = 23726566
M.UNIT = 2 * M.SCALE -- cost units per navcell of length

local SQRT2 = math.sqrt(2)

--------------------------------------------------------------- grids --

--- Passability of every navcell of a grid for one class, as a table
-- indexed by y * w + x + 1 (true = passable).
function M.snapshot(g, class)
  local w, h = g:width(), g:height()
  local t = {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      t[y * w + x + 1] = g:is_passable(x, y, class)
    end
  end
  return t
end

--- Every navcell where two snapshots differ, as "x,y" strings (for messages).
function M.diff(a, b, w)
  local out = {}
  for i = 1, math.max(#a, #b) do
    if a[i] ~= b[i] then
      out[#out + 1] = ("%d,%d"):format((i - 1) % w, compat.idiv(i - 1, w))
    end
  end
  return out
end

--- Builds an ASCII picture from a predicate blocked(x, y).
function M.picture(w, h, blocked)
  local rows = {}
  for y = 0, h - 1 do
    local r = {}
    for x = 0, w - 1 do r[#r + 1] = blocked(x, y) and "@" or "." end
    rows[#rows + 1] = table.concat(r) .. "\n"
  end
  return table.concat(rows)
end

--- The navcells outside the forced map border. Square: a ring of b
-- navcells. Circle: the navcell centre lies strictly inside the circle
-- centred on the map whose radius is min(w, h) / 2 - b.
function M.border_blocked(w, h, b, shape)
  return function(x, y)
    if shape == "circle" then
      local r = math.min(w, h) / 2 - b
      local dx, dy = x + 0.5 - w / 2, y + 0.5 - h / 2
      return not (r > 0 and dx * dx + dy * dy < r * r)
    end
    return x < b or y < b or x > w - 1 - b or y > h - 1 - b
  end
end

--- Clearance expansion by brute force: navcell (x, y) is blocked when any
-- navcell of the (2c+1)^2 square around it is terrain-blocked; off the
-- grid counts as blocked. terrain_blocked(x, y) is asked only on the grid.
function M.clearance(w, h, c, terrain_blocked)
  return function(x, y)
    for j = y - c, y + c do
      for i = x - c, x + c do
        if i < 0 or j < 0 or i >= w or j >= h or terrain_blocked(i, j) then
          return true
        end
      end
    end
    return false
  end
end

---------------------------------------------------------- obstructions --

--- The effective clearance of an obstruction: max(c, (3 - min(w, h)) / 2)
-- with w, h the full sizes.
function M.effective_clearance(shape, c)
  local m = math.min(shape.half_width, shape.half_height)
  return math.max(c, (3 - 2 * m) / 2)
end

--- Signed margin of world point (px, py) for the corner rule: effective
-- clearance minus the signed distance from the point to the rectangle
-- (negative inside).
-- shape = {x, y, half_width, half_height, u = {ux, uy}}, v = u turned a
-- quarter anticlockwise. >= 0 means "inside or within the clearance".
function M.corner_margin(shape, ce, px, py)
  local ux, uy = shape.u[1], shape.u[2]
  local vx, vy = -uy, ux
  local dx, dy = px - shape.x, py - shape.y
  local du = math.abs(dx * ux + dy * uy) - shape.half_width
  local dv = math.abs(dx * vx + dy * vy) - shape.half_height
  if du <= 0 and dv <= 0 then
    return ce + math.min(-du, -dv) -- inside: the depth counts too
  end
  local au, av = math.max(0, du), math.max(0, dv)
  return ce - math.sqrt(au * au + av * av)
end

--- Exact variant for shapes whose numbers are exact binary fractions and
-- u is an axis: compares squared distances, no square root.
function M.corner_near_exact(shape, ce, px, py)
  local ux, uy = shape.u[1], shape.u[2]
  local vx, vy = -uy, ux
  local dx, dy = px - shape.x, py - shape.y
  local au = math.max(0, math.abs(dx * ux + dy * uy) - shape.half_width)
  local av = math.max(0, math.abs(dx * vx + dy * vy) - shape.half_height)
  return au * au + av * av <= ce * ce
end

--- The corner rule for one navcell. Returns true (blocked), false (not
-- blocked) or nil when a corner lies within eps of the clearance boundary,
-- where fixed-point rounding may decide either way. eps = 0 asks for the
-- exact squared-distance test.
function M.cell_blocked(shape, c, x, y, eps)
  local ce = M.effective_clearance(shape, c)
  local unsure = false
  for _, p in ipairs({ { x, y }, { x + 1, y }, { x, y + 1 }, { x + 1, y + 1 } }) do
    if eps == 0 then
      if not M.corner_near_exact(shape, ce, p[1], p[2]) then return false end
    else
      local m = M.corner_margin(shape, ce, p[1], p[2])
      if m < -eps then return false end
      if m <= eps then unsure = true end
    end
  end
  if unsure then return nil end
  return true
end

---------------------------------------------------------------- goals --

--- Distance from point (px, py) to the closed navcell square (i, j).
local function point_cell_dist2(px, py, i, j)
  local dx = px < i and i - px or (px > i + 1 and px - i - 1 or 0)
  local dy = py < j and j - py or (py > j + 1 and py - j - 1 or 0)
  return dx * dx + dy * dy
end

--- Circle goal: any point of the closed navcell within r of the centre.
-- Exact for binary-fraction inputs.
function M.circle_touches(cx, cy, r, i, j)
  return point_cell_dist2(cx, cy, i, j) <= r * r
end

--- Corners of a rotated rectangle (centre, half sizes, axis u) grown by e.
local function rect_corners(cx, cy, hw, hh, ux, uy, e)
  local vx, vy = -uy, ux
  hw, hh = hw + e, hh + e
  return {
    { cx - hw * ux - hh * vx, cy - hw * uy - hh * vy },
    { cx + hw * ux - hh * vx, cy + hw * uy - hh * vy },
    { cx + hw * ux + hh * vx, cy + hw * uy + hh * vy },
    { cx - hw * ux + hh * vx, cy - hw * uy + hh * vy },
  }
end

local function cross(ax, ay, bx, by, cx, cy)
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
end

local function point_in_convex(poly, px, py)
  local sign = 0
  for k = 1, #poly do
    local a, b = poly[k], poly[k % #poly + 1]
    local c = cross(a[1], a[2], b[1], b[2], px, py)
    if c ~= 0 then
      local s = c > 0 and 1 or -1
      if sign == 0 then sign = s elseif s ~= sign then return false end
    end
  end
  return true
end

local function on_segment(ax, ay, bx, by, px, py)
  return math.min(ax, bx) <= px and px <= math.max(ax, bx)
    and math.min(ay, by) <= py and py <= math.max(ay, by)
end

local function segments_meet(a, b, c, d)
  local d1 = cross(c[1], c[2], d[1], d[2], a[1], a[2])
  local d2 = cross(c[1], c[2], d[1], d[2], b[1], b[2])
  local d3 = cross(a[1], a[2], b[1], b[2], c[1], c[2])
  local d4 = cross(a[1], a[2], b[1], b[2], d[1], d[2])
  if ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0))
    and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0)) then
    return true
  end
  if d1 == 0 and on_segment(c[1], c[2], d[1], d[2], a[1], a[2]) then return true end
  if d2 == 0 and on_segment(c[1], c[2], d[1], d[2], b[1], b[2]) then return true end
  if d3 == 0 and on_segment(a[1], a[2], b[1], b[2], c[1], c[2]) then return true end
  if d4 == 0 and on_segment(a[1], a[2], b[1], b[2], d[1], d[2]) then return true end
  return false
end

--- Two closed convex polygons share a point: a vertex of one inside the
-- other, or two edges meet.
local function polygons_meet(p, q)
  for _, v in ipairs(p) do if point_in_convex(q, v[1], v[2]) then return true end end
  for _, v in ipairs(q) do if point_in_convex(p, v[1], v[2]) then return true end end
  for k = 1, #p do
    for m = 1, #q do
      if segments_meet(p[k], p[k % #p + 1], q[m], q[m % #q + 1]) then return true end
    end
  end
  return false
end

--- Square goal: the closed navcell square and the closed rectangle share
-- a point. With eps > 0, returns nil when growing or shrinking the
-- rectangle by eps changes the answer (rounding may then decide).
function M.square_touches(cx, cy, hw, hh, ux, uy, i, j, eps)
  local cell = { { i, j }, { i + 1, j }, { i + 1, j + 1 }, { i, j + 1 } }
  if not eps or eps == 0 then
    return polygons_meet(cell, rect_corners(cx, cy, hw, hh, ux, uy, 0))
  end
  local inner = polygons_meet(cell, rect_corners(cx, cy, hw, hh, ux, uy, -eps))
  local outer = polygons_meet(cell, rect_corners(cx, cy, hw, hh, ux, uy, eps))
  if inner ~= outer then return nil end
  return inner
end

--- The unit vector the binding derives from an angle (Q16.16, rounded).
function M.axis(angle)
  local function q(v)
    local s = v * 65536
    return (s >= 0 and math.floor(s + 0.5) or -math.floor(-s + 0.5)) / 65536
  end
  return q(math.cos(angle)), q(math.sin(angle))
end

---------------------------------------------------------------- search --

-- A plain binary heap of {key, value}.
local function heap_push(hp, k, v)
  hp[#hp + 1] = { k, v }
  local i = #hp
  while i > 1 do
    local p = compat.idiv(i, 2)
    if hp[p][1] <= hp[i][1] then break end
    hp[p], hp[i] = hp[i], hp[p]
    i = p
  end
end

local function heap_pop(hp)
  local top = hp[1]
  local last = table.remove(hp)
  if #hp > 0 then
    hp[1] = last
    local i, n = 1, #hp
    while true do
      local l, r, m = 2 * i, 2 * i + 1, i
      if l <= n and hp[l][1] < hp[m][1] then m = l end
      if r <= n and hp[r][1] < hp[m][1] then m = r end
      if m == i then break end
      hp[m], hp[i] = hp[i], hp[m]
      i = m
    end
  end
  return top[1], top[2]
end

local DIRS = {
  { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },
  { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 },
}

--- Dijkstra over the 8-connected grid with no corner cutting, each step
-- costing (orthogonal SCALE or diagonal DIAG) * (cost(a) + cost(b)), the
-- documented integer rule. pass(x, y) and cost(x, y) describe the grid.
-- Returns dist[y * w + x + 1] in cost units (nil = unreachable).
function M.dijkstra(w, h, pass, cost, sx, sy)
  local function ok(x, y) return x >= 0 and y >= 0 and x < w and y < h and pass(x, y) end
  local dist = {}
  local hp = {}
  dist[sy * w + sx + 1] = 0
  heap_push(hp, 0, sy * w + sx)
  while #hp > 0 do
    local d, v = heap_pop(hp)
    if d == dist[v + 1] then
      local x, y = v % w, compat.idiv(v, w)
      for _, dir in ipairs(DIRS) do
        local nx, ny = x + dir[1], y + dir[2]
        if ok(nx, ny) then
          local diag = dir[1] ~= 0 and dir[2] ~= 0
          if not diag or (ok(nx, y) and ok(x, ny)) then
            local nd = d + (diag and M.DIAG or M.SCALE) * (cost(x, y) + cost(nx, ny))
            local k = ny * w + nx + 1
            if not dist[k] or nd < dist[k] then
              dist[k] = nd
              heap_push(hp, nd, k - 1)
            end
          end
        end
      end
    end
  end
  return dist
end

--- Dijkstra on a grid object for one class, using its own costs.
function M.grid_dijkstra(g, class, sx, sy)
  return M.dijkstra(g:width(), g:height(),
    function(x, y) return g:is_passable(x, y, class) end,
    function(x, y) return g:cost(x, y) end, sx, sy)
end

--- Expands waypoints into every navcell of the path, checking that each
-- leg is a straight octile line. Returns the cell list, or nil, why.
function M.expand(path)
  local cells = { { path[1][1], path[1][2] } }
  for k = 2, #path do
    local ax, ay = path[k - 1][1], path[k - 1][2]
    local bx, by = path[k][1], path[k][2]
    local dx, dy = bx - ax, by - ay
    if (dx == 0 and dy == 0) or (dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy)) then
      return nil, ("leg %d from %d,%d to %d,%d is not an octile line"):format(k - 1, ax, ay, bx, by)
    end
    local sx = dx > 0 and 1 or (dx < 0 and -1 or 0)
    local sy = dy > 0 and 1 or (dy < 0 and -1 or 0)
    for t = 1, math.max(math.abs(dx), math.abs(dy)) do
      cells[#cells + 1] = { ax + sx * t, ay + sy * t }
    end
  end
  return cells
end

--- The string-pulling used before the fewest-waypoint smoothing, kept as
-- a baseline (the smoothing specs and bench/smooth.lua compare with it):
-- walk the path's navcells and make the last visible navcell a waypoint
-- when the next one is hidden from the previous waypoint; then drop every
-- waypoint whose neighbours see each other until none is left. sees(a, b)
-- tells whether navcells {x, y} a and b see each other.
function M.greedy_smooth(cells, sees)
  local out = { cells[1] }
  local anchor, prev = cells[1], cells[1]
  for k = 2, #cells do
    local c = cells[k]
    if not sees(anchor, c) then
      out[#out + 1] = prev
      anchor = prev
    end
    prev = c
  end
  out[#out + 1] = prev
  local changed = true
  while changed and #out > 2 do
    changed = false
    local kept = { out[1] }
    for i = 2, #out - 1 do
      if sees(kept[#kept], out[i + 1]) then
        changed = true
      else
        kept[#kept + 1] = out[i]
      end
    end
    kept[#kept + 1] = out[#out]
    out = kept
  end
  return out
end

--- Checks a returned waypoint path against the grid: octile legs, the
-- direction changes at every interior waypoint, every navcell passable,
-- no cut corner. Returns its cost in cost units (the documented rule), or
-- nil, why.
function M.check_path(g, class, path)
  for k, p in ipairs(path) do
    if p[1] ~= p.x or p[2] ~= p.y then
      return nil, ("waypoint %d: [1], [2] and .x, .y disagree"):format(k)
    end
  end
  for k = 2, #path - 1 do
    local a, b, c = path[k - 1], path[k], path[k + 1]
    local function sgn(v) return v > 0 and 1 or (v < 0 and -1 or 0) end
    if sgn(b[1] - a[1]) == sgn(c[1] - b[1]) and sgn(b[2] - a[2]) == sgn(c[2] - b[2]) then
      return nil, ("waypoint %d (%d,%d) does not change direction"):format(k, b[1], b[2])
    end
  end
  local cells, why = M.expand(path)
  if not cells then return nil, why end
  local total = 0
  for k, c in ipairs(cells) do
    if not g:is_passable(c[1], c[2], class) then
      return nil, ("navcell %d,%d is blocked"):format(c[1], c[2])
    end
    if k > 1 then
      local p = cells[k - 1]
      local diag = p[1] ~= c[1] and p[2] ~= c[2]
      if diag and not (g:is_passable(c[1], p[2], class) and g:is_passable(p[1], c[2], class)) then
        return nil, ("step %d,%d -> %d,%d cuts a corner"):format(p[1], p[2], c[1], c[2])
      end
      total = total + (diag and M.DIAG or M.SCALE) * (g:cost(p[1], p[2]) + g:cost(c[1], c[2]))
    end
  end
  return total, cells
end

--- Euclidean length of a waypoint list.
function M.polyline_length(path)
  local len = 0
  for k = 2, #path do
    local dx, dy = path[k][1] - path[k - 1][1], path[k][2] - path[k - 1][2]
    len = len + math.sqrt(dx * dx + dy * dy)
  end
  return len
end

--- Octile length of a move of (dx, dy) on cost-1 ground.
function M.octile(dx, dy)
  dx, dy = math.abs(dx), math.abs(dy)
  return math.max(dx, dy) + (SQRT2 - 1) * math.min(dx, dy)
end

--- A random grid: every navcell blocked with probability density, drawn
-- from math.random (seed it first). Returns the ASCII text.
function M.random_ascii(w, h, density)
  local rows = {}
  for _ = 1, h do
    local r = {}
    for _ = 1, w do r[#r + 1] = math.random() < density and "@" or "." end
    rows[#rows + 1] = table.concat(r)
  end
  return table.concat(rows, "\n") .. "\n"
end

------------------------------------------------------------ smoothing --

--- Line of sight by the documented rule (docs/grid.md, "Waypoints and
-- smoothing"), written directly from it: the closed segment between the
-- two navcell centres, and every navcell whose closed square it meets must
-- be passable. A closed segment and a closed square meet when their boxes
-- overlap and the square's corners are not all strictly on one side of the
-- segment's line. passable(x, y) describes the grid (false off the grid).
function M.sees(passable, ax, ay, bx, by)
  -- doubled coordinates: centres are odd, navcell edges even
  local x0, y0, x1, y1 = 2 * ax + 1, 2 * ay + 1, 2 * bx + 1, 2 * by + 1
  local dx, dy = x1 - x0, y1 - y0
  for cy = math.min(ay, by), math.max(ay, by) do
    for cx = math.min(ax, bx), math.max(ax, bx) do
      local lx, ly, hx, hy = 2 * cx, 2 * cy, 2 * cx + 2, 2 * cy + 2
      local pos, neg = false, false
      for _, c in ipairs({ { lx, ly }, { hx, ly }, { lx, hy }, { hx, hy } }) do
        local s = dx * (c[2] - y0) - dy * (c[1] - x0)
        if s > 0 then pos = true elseif s < 0 then neg = true else pos, neg = true, true end
      end
      if pos and neg and not passable(cx, cy) then return false end
    end
  end
  return true
end

--- floor(sqrt(v)) for a non-negative integer v, exactly.
function M.isqrt(v)
  local r = math.floor(math.sqrt(v))
  while r * r > v do r = r - 1 end
  while (r + 1) * (r + 1) <= v do r = r + 1 end
  return r
end

--- Length of the segment between navcells a and b in whole 1/65536 units
-- (the floor of the Euclidean length), the unit the smoothed length sums.
function M.segment_units(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  return M.isqrt((dx * dx + dy * dy) * 4294967296)
end

--- The documented smoothing by brute force over every pair of a path's
-- navcells (cells = { {x, y}, ... }, start first): the subsequence from the
-- first to the last navcell whose consecutive members see each other, with
-- the fewest members; among those, the shortest (summed segment_units);
-- among those, the one whose second member comes first along the path,
-- then the third, and so on. Returns the list of {x, y} waypoints and the
-- length in units.
function M.fewest_waypoints(passable, cells)
  local n = #cells
  local hops, rest, succ = { [n] = 0 }, { [n] = 0 }, {}
  for i = n - 1, 1, -1 do
    local a = cells[i]
    for j = i + 1, n do
      local b = cells[j]
      if hops[j] + 1 <= (hops[i] or math.huge) then
        local len = M.segment_units(a[1], a[2], b[1], b[2]) + rest[j]
        local better = not hops[i] or hops[j] + 1 < hops[i] or len < rest[i]
        if better and M.sees(passable, a[1], a[2], b[1], b[2]) then
          hops[i], rest[i], succ[i] = hops[j] + 1, len, j
        end
      end
    end
  end
  local out, k = {}, 1
  while k do
    out[#out + 1] = { cells[k][1], cells[k][2] }
    k = succ[k]
  end
  return out, rest[1]
end

return M
