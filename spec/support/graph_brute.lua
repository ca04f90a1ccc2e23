--- A brute-force reference for wayfinder.graph: Dijkstra over the cost
-- model docs/graph.md states (start, goal and "arrived at portal p from
-- side a or b" states; walking inside a sector costs the rounded-up
-- distance times the surface multiplier; crossing adds the portal cost and
-- the danger of the sector entered), read only through the public API and
-- written without the solver's heuristic, heap or tie rules.
local M = {}

local FIX = 65536

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

local function mid(a, b) return math.floor((a + b) / 2) end

-- whether bit value `b` (a power of two) is set in mask m
local function has(m, b) return math.floor(m / b) % 2 == 1 end

-- whether every bit of mask `need` is set in mask `have` (32 bits)
local function subset(need, have)
  local b = 1
  for _ = 1, 32 do
    if has(need, b) and not has(have, b) then return false end
    b = b * 2
  end
  return true
end

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
-- time: the query's start time (navcells), for elevator schedules
function M.solve(g, sx, sy, gx, gy, mult, class_bit, abilities, time)
  local t0 = fx(time or 0)
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
    if has(p.class_mask, class_bit) and subset(p.needs_mask, abilities) then
      ports[#ports + 1] = { a = p.a, b = p.b, ax = ax, ay = ay, bx = bx, by = by,
        cost = fx(p.cost), one_way = p.one_way,
        period = p.schedule and fx(p.schedule.period) or 0,
        offset = p.schedule and fx(p.schedule.offset) or 0 }
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
    -- an elevator leaves at offset + k * period: wait for the next one
    local function depart(p, arrive)
      if p.period == 0 then return arrive end
      local dep = p.offset
      while dep < t0 + arrive do dep = dep + p.period end
      return dep - t0
    end
    if s == gs then relax(2, best + dist_ceil(x, y, pos[2][1], pos[2][2]) * m) end
    for k, p in ipairs(ports) do
      if p.a == s and sectors[p.b].mult > 0 then
        relax(1 + 2 * k, depart(p, best + dist_ceil(x, y, p.ax, p.ay) * m) + p.cost
          + sectors[p.b].danger_units)
      end
      if p.b == s and not p.one_way and sectors[p.a].mult > 0 then
        relax(2 + 2 * k, depart(p, best + dist_ceil(x, y, p.bx, p.by) * m) + p.cost
          + sectors[p.a].danger_units)
      end
    end
  end
end

--- Random boxes cutting a w x h area (guillotine cuts on whole navcells),
-- drawn with random(n) in [1, n] and random(a, b) in [a, b] (a generator
-- the same on every Lua version, such as support.prng's int).
function M.random_boxes(w, h, n, random)
  local boxes = { { 0, 0, w, h } }
  local tries = 0
  while #boxes < n and tries < 1000 do
    tries = tries + 1
    local i = random(#boxes)
    local b = boxes[i]
    if random(2) == 1 and b[3] - b[1] > 1 then
      local c = random(b[1] + 1, b[3] - 1)
      boxes[i] = { b[1], b[2], c, b[4] }
      boxes[#boxes + 1] = { c, b[2], b[3], b[4] }
    elseif b[4] - b[2] > 1 then
      local c = random(b[2] + 1, b[4] - 1)
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

--- The proven bound on a grid-built graph's path (docs/graph.md, "against
-- the grid's optimum"): the least, over 8-connected grid paths from navcell
-- (sx, sy) to (gx, gy) (no corner cutting), of the path's length plus, for
-- each sector boundary it crosses at point c on a portal span with
-- midpoint m, 2 |m - c| (moving the crossing to the midpoint the solver
-- uses lengthens the path by at most that). A diagonal step crosses at its
-- corner through either orthogonal neighbour's sector. Raises when a step
-- crosses a shared sector edge that no walk portal covers (a missing
-- portal). grid_bounds(grid, g) reads the grid and the graph once and
-- returns bound(sx, sy, gx, gy): the bound, or nil when the goal cannot be
-- reached on the grid.
function M.grid_bounds(grid, g)
  local w, h = grid:width(), grid:height()
  local sector, open = {}, {}
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      if grid:is_passable(x, y) then
        open[y * w + x] = true
        sector[y * w + x] = g:sector_at(x + 0.5, y + 0.5)
      end
    end
  end
  local function pass(x, y) return x >= 0 and y >= 0 and x < w and y < h and open[y * w + x] end
  -- unit edges -> the midpoint of the walk portal span holding them
  local mid_of = {}
  for _, id in ipairs(g:portals()) do
    local p = g:portal(id)
    if p.span and p.kind == "walk" then
      local s = p.span
      local mx, my = (s[1] + s[3]) / 2, (s[2] + s[4]) / 2
      if s[1] == s[3] then
        for y = s[2], s[4] - 1 do mid_of[2 * (y * (w + 1) + s[1])] = { mx, my } end
      else
        for x = s[1], s[3] - 1 do mid_of[2 * (s[2] * (w + 1) + x) + 1] = { mx, my } end
      end
    end
  end
  -- the detour of crossing from navcell (x, y) to its 4-neighbour (x2, y2) at point (cx, cy)
  local function cross(x, y, x2, y2, cx, cy)
    if sector[y * w + x] == sector[y2 * w + x2] then return 0 end
    local key
    if y == y2 then
      key = 2 * (y * (w + 1) + math.max(x, x2))
    else
      key = 2 * (math.max(y, y2) * (w + 1) + x) + 1
    end
    local m = mid_of[key]
    if not m then
      error(("no portal on the edge between navcells %d,%d and %d,%d"):format(x, y, x2, y2))
    end
    return 2 * math.sqrt((m[1] - cx) ^ 2 + (m[2] - cy) ^ 2)
  end
  return function(sx, sy, gx, gy)
    local dist, heap = {}, {}
    local function push(d, k)
      heap[#heap + 1] = { d, k }
      local i = #heap
      while i > 1 and heap[math.floor(i / 2)][1] > heap[i][1] do
        local j = math.floor(i / 2)
        heap[i], heap[j] = heap[j], heap[i]
        i = j
      end
    end
    local function pop()
      local top = heap[1]
      heap[1] = heap[#heap]
      heap[#heap] = nil
      local i = 1
      while true do
        local l, r, m = 2 * i, 2 * i + 1, i
        if heap[l] and heap[l][1] < heap[m][1] then m = l end
        if heap[r] and heap[r][1] < heap[m][1] then m = r end
        if m == i then break end
        heap[i], heap[m] = heap[m], heap[i]
        i = m
      end
      return top
    end
    local start, goal = sy * w + sx, gy * w + gx
    dist[start] = 0
    push(0, start)
    while heap[1] do
      local top = pop()
      local d, k = top[1], top[2]
      if k == goal then return d end
      if d <= dist[k] then
        local x, y = k % w, math.floor(k / w)
        for dy = -1, 1 do
          for dx = -1, 1 do
            local x2, y2 = x + dx, y + dy
            if (dx ~= 0 or dy ~= 0) and pass(x2, y2) then
              local step
              if dx == 0 or dy == 0 then
                local cx = dx == 0 and x + 0.5 or math.max(x, x2)
                local cy = dy == 0 and y + 0.5 or math.max(y, y2)
                step = 1 + cross(x, y, x2, y2, cx, cy)
              elseif pass(x2, y) and pass(x, y2) then
                local cx, cy = math.max(x, x2), math.max(y, y2)
                step = math.sqrt(2) + math.min(
                  cross(x, y, x2, y, cx, cy) + cross(x2, y, x2, y2, cx, cy),
                  cross(x, y, x, y2, cx, cy) + cross(x, y2, x2, y2, cx, cy))
              end
              if step then
                local k2 = y2 * w + x2
                if not dist[k2] or d + step < dist[k2] then
                  dist[k2] = d + step
                  push(d + step, k2)
                end
              end
            end
          end
        end
      end
    end
    return nil
  end
end

function M.grid_bound(grid, g, sx, sy, gx, gy)
  return M.grid_bounds(grid, g)(sx, sy, gx, gy)
end

return M
