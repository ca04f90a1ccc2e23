--- wayfinder.bezier: curved paths through a polyline, kept inside a set of
-- boxes (a corridor of sectors). Each walked segment becomes a cubic
-- Bezier whose tangents follow the neighbouring points (Catmull-Rom
-- style); each control point is clipped towards its end point, halving
-- the offset until the straight line between them stays in the boxes; the
-- curve is sampled with integer arithmetic in fixed point (Q16.16), and a
-- segment whose sampled polyline would leave the boxes (tested exactly,
-- piece by piece) is kept straight. No
-- float takes part in a decision; floats appear only in the output. Every
-- intermediate stays below 2^50, so the arithmetic is exact on every Lua.
local M = {}

--- floor(a / b) for integers below 2^53 (b > 0), exact on every Lua: the
-- float quotient is corrected by the remainder.
local function idiv(a, b)
  local q = math.floor(a / b)
  local r = a - q * b
  while r < 0 do q, r = q - 1, r + b end
  while r >= b do q, r = q + 1, r - b end
  return q
end

local FIX = 65536
local LONG = 33554432      -- [fixed] 2^25 (512 navcells): longer segments fail
local HALVINGS = 6

local function to_fix(v) return math.floor(v * FIX + 0.5) end

-- whether the point n / d of the way along (dx, dy) is in box b (relative
-- to the segment's start; d > 0, so no division is needed)
local function holds(b, dx, dy, n, d)
  local x, y = dx * n, dy * n
  return b[1] * d <= x and x <= b[3] * d and b[2] * d <= y and y <= b[4] * d
end

--- Whether the segment between two fixed points lies in the union of the
-- closed boxes, exactly. The lines of the boxes' edges cut the segment
-- into pieces; each box holds a piece whole or meets it in no inner point,
-- so the segment is inside exactly when some box holds both ends of every
-- piece. A cut is the fraction n / d of the way (0 <= n <= d <= LONG);
-- box coordinates are taken relative to the segment's start and clamped
-- to one past its bounds, so every product is below 2^52.
local function segment_inside(boxes, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  if math.abs(dx) > LONG or math.abs(dy) > LONG then return false end
  local lx, hx = math.min(0, dx) - 1, math.max(0, dx) + 1
  local ly, hy = math.min(0, dy) - 1, math.max(0, dy) + 1
  local near = {}
  for _, b in ipairs(boxes) do
    local x0, y0, x1, y1 = b[1] - ax, b[2] - ay, b[3] - ax, b[4] - ay
    if x0 < hx and x1 > lx and y0 < hy and y1 > ly then
      near[#near + 1] = { math.max(x0, lx), math.max(y0, ly), math.min(x1, hx),
        math.min(y1, hy) }
    end
  end
  local cuts = { { 0, 1 }, { 1, 1 } }
  local function cut(c, e)
    local n, d = c, e
    if e < 0 then n, d = -c, -e end
    if n > 0 and n < d then cuts[#cuts + 1] = { n, d } end
  end
  for _, b in ipairs(near) do
    if dx ~= 0 then cut(b[1], dx); cut(b[3], dx) end
    if dy ~= 0 then cut(b[2], dy); cut(b[4], dy) end
  end
  table.sort(cuts, function(p, q) return p[1] * q[2] < q[1] * p[2] end)
  for i = 2, #cuts do
    local p, q = cuts[i - 1], cuts[i]
    local ok = false
    for _, b in ipairs(near) do
      if holds(b, dx, dy, p[1], p[2]) and holds(b, dx, dy, q[1], q[2]) then
        ok = true
        break
      end
    end
    if not ok then return false end
  end
  return true
end
M.segment_inside = segment_inside

-- Moves control point c towards anchor a until the line a-c stays inside.
local function clip(boxes, ax, ay, cx, cy)
  local dx, dy = cx - ax, cy - ay
  for _ = 0, HALVINGS do
    if segment_inside(boxes, ax, ay, ax + dx, ay + dy) then return ax + dx, ay + dy, false end
    dx, dy = idiv(dx, 2), idiv(dy, 2)
  end
  return ax, ay, true
end

--- curve(points, boxes, via, samples) -> points, info
-- points: {{x, y}, ...} world; boxes: {{x0, y0, x1, y1}, ...} world;
-- via[i]: truthy when point i is reached from point i - 1 by a link (kept
-- straight); samples: points per curved segment.
function M.curve(points, boxes, via, samples)
  local fb = {}
  for i, b in ipairs(boxes) do
    fb[i] = { to_fix(b[1]), to_fix(b[2]), to_fix(b[3]), to_fix(b[4]) }
  end
  local X, Y = {}, {}
  for i, p in ipairs(points) do X[i], Y[i] = to_fix(p[1]), to_fix(p[2]) end
  local n = #points
  local ox, oy = { X[1] }, { Y[1] }
  local info = { clipped = 0, straight = 0, curved = 0 }
  -- run boundaries: a link segment ends a run
  local function tangent(i, first, last)
    local a, b = math.max(i - 1, first), math.min(i + 1, last)
    local div = (b - a == 2) and 2 or 1
    return idiv(X[b] - X[a], div), idiv(Y[b] - Y[a], div)
  end
  local first = 1
  for i = 2, n do
    if via[i] then
      -- a link: keep the jump straight, start a new run at its exit
      ox[#ox + 1], oy[#oy + 1] = X[i], Y[i]
      first = i
    else
      local last = i
      while last < n and not via[last + 1] do last = last + 1 end
      local tx0, ty0 = tangent(i - 1, first, last)
      local tx1, ty1 = tangent(i, first, last)
      local c1x, c1y, k1 = clip(fb, X[i - 1], Y[i - 1], X[i - 1] + idiv(tx0, 3),
        Y[i - 1] + idiv(ty0, 3))
      local c2x, c2y, k2 = clip(fb, X[i], Y[i], X[i] - idiv(tx1, 3), Y[i] - idiv(ty1, 3))
      if k1 then info.clipped = info.clipped + 1 end
      if k2 then info.clipped = info.clipped + 1 end
      local sx, sy = {}, {}
      local px, py, ok = X[i - 1], Y[i - 1], true
      local m = samples
      local m3 = m * m * m
      for k = 1, m do
        local u = m - k
        local bx = idiv(u * u * u * X[i - 1] + 3 * u * u * k * c1x + 3 * u * k * k * c2x
          + k * k * k * X[i], m3)
        local by = idiv(u * u * u * Y[i - 1] + 3 * u * u * k * c1y + 3 * u * k * k * c2y
          + k * k * k * Y[i], m3)
        if not segment_inside(fb, px, py, bx, by) then ok = false; break end
        sx[k], sy[k], px, py = bx, by, bx, by
      end
      if ok and last - first >= 2 then
        for k = 1, m do ox[#ox + 1], oy[#oy + 1] = sx[k], sy[k] end
        info.curved = info.curved + 1
      else
        ox[#ox + 1], oy[#oy + 1] = X[i], Y[i]
        info.straight = info.straight + 1
      end
    end
  end
  local out = {}
  for i = 1, #ox do out[i] = { ox[i] / FIX, oy[i] / FIX } end
  return out, info
end

return M
