--- A brute-force reference for wayfinder.graph: Dijkstra over the cost
-- model docs/graph.md states (start, goal and "arrived at portal p from
-- side a or b" states; walking inside a sector costs the rounded-up
-- distance times the surface multiplier; crossing adds the portal cost and
-- the danger of the sector entered), read only through the public API and
-- written without the solver's heuristic, heap or tie rules.
local M = {}

local FIX <const> = 65536

local function fx(v) return math.floor(v * FIX + 0.5) end

local function isqrt(n)
  local r = math.floor(math.sqrt(n))
  while r > 0 and r * r > n do r = r - 1 end
  while (r + 1) * (r + 1) <= n do r = r + 1 end
  return r
end

local function dist_ceil(ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local n = dx * dx + dy * dy
  local r = isqrt(n)
  return r * r == n and r or r + 1
end
M.dist_ceil = dist_ceil

local function mid(a, b) return (a + b) // 2 end

local function sector_of(g, x, y)
  for i = 1, g:sector_count() do
    local s = g:sector(i)
    if x >= s.x0 and x < s.x1 and y >= s.y0 and y < s.y1 then return i end
  end
  return nil
end
M.sector_of = sector_of

--- Least cost in fixed units, or nil, reason.
-- mult: surface name -> multiplier for the class (missing: forbidden)
-- class_bit, abilities: masks as the solver sees them
function M.solve(g, sx, sy, gx, gy, mult, class_bit, abilities)
  local ss, gs = sector_of(g, sx, sy), sector_of(g, gx, gy)
  if not ss then return nil, "start_outside" end
  if not gs then return nil, "goal_outside" end
  local sectors = {}
  for i = 1, g:sector_count() do
    local s = g:sector(i)
    s.mult = mult[s.surface] or 0
    s.danger_units = fx(s.danger)
    sectors[i] = s
  end
  if sectors[ss].mult == 0 then return nil, "start_blocked" end
  if sectors[gs].mult == 0 then return nil, "goal_blocked" end
  local ports = {}
  for _, id in ipairs(g:portals()) do
    local p = g:portal(id)
    local ax, ay, bx, by
    if p.span then
      ax = mid(fx(p.span[1]), fx(p.span[3]))
      ay = mid(fx(p.span[2]), fx(p.span[4]))
      bx, by = ax, ay
    else
      ax, ay, bx, by = fx(p.from[1]), fx(p.from[2]), fx(p.to[1]), fx(p.to[2])
    end
    if (p.class_mask & class_bit) ~= 0 and (p.needs_mask & ~abilities) == 0 then
      ports[#ports + 1] = { a = p.a, b = p.b, ax = ax, ay = ay, bx = bx, by = by,
        cost = fx(p.cost), one_way = p.one_way }
    end
  end
  -- states: 1 start, 2 goal, then two per portal
  local pos = { { fx(sx), fx(sy), ss }, { fx(gx), fx(gy), gs } }
  for k, p in ipairs(ports) do
    pos[1 + 2 * k] = { p.bx, p.by, p.b }
    pos[2 + 2 * k] = { p.ax, p.ay, p.a }
  end
  local dist, done = { [1] = 0 }, {}
  while true do
    local u, best = nil, math.huge
    for v, d in pairs(dist) do
      if not done[v] and d < best then u, best = v, d end
    end
    if not u then return nil, "unreachable" end
    if u == 2 then return best end
    done[u] = true
    local x, y, s = pos[u][1], pos[u][2], pos[u][3]
    local m = sectors[s].mult
    local function relax(v, c)
      if not dist[v] or c < dist[v] then dist[v] = c end
    end
    if s == gs then relax(2, best + dist_ceil(x, y, pos[2][1], pos[2][2]) * m) end
    for k, p in ipairs(ports) do
      if p.a == s and sectors[p.b].mult > 0 then
        relax(1 + 2 * k, best + dist_ceil(x, y, p.ax, p.ay) * m + p.cost
          + sectors[p.b].danger_units)
      end
      if p.b == s and not p.one_way and sectors[p.a].mult > 0 then
        relax(2 + 2 * k, best + dist_ceil(x, y, p.bx, p.by) * m + p.cost
          + sectors[p.a].danger_units)
      end
    end
  end
end

--- Random boxes cutting a w x h area (guillotine cuts on whole navcells).
function M.random_boxes(w, h, n)
  local boxes = { { 0, 0, w, h } }
  local tries = 0
  while #boxes < n and tries < 1000 do
    tries = tries + 1
    local i = math.random(#boxes)
    local b = boxes[i]
    if math.random(2) == 1 and b[3] - b[1] > 1 then
      local c = math.random(b[1] + 1, b[3] - 1)
      boxes[i] = { b[1], b[2], c, b[4] }
      boxes[#boxes + 1] = { c, b[2], b[3], b[4] }
    elseif b[4] - b[2] > 1 then
      local c = math.random(b[2] + 1, b[4] - 1)
      boxes[i] = { b[1], b[2], b[3], c }
      boxes[#boxes + 1] = { b[1], c, b[3], b[4] }
    end
  end
  return boxes
end

--- Does the segment stay inside the union of the given (closed) boxes?
-- Checked at 64 points per navcell of length.
function M.segment_inside(boxes, ax, ay, bx, by)
  local len = math.sqrt((bx - ax) ^ 2 + (by - ay) ^ 2)
  local n = math.max(1, math.ceil(len * 64))
  for k = 0, n do
    local x, y = ax + (bx - ax) * k / n, ay + (by - ay) * k / n
    local inside = false
    for _, s in ipairs(boxes) do
      if x >= s.x0 - 1e-9 and x <= s.x1 + 1e-9 and y >= s.y0 - 1e-9 and y <= s.y1 + 1e-9 then
        inside = true
        break
      end
    end
    if not inside then return false, x, y end
  end
  return true
end

return M
