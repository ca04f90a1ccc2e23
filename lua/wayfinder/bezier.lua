--- wayfinder.bezier: curved paths through a polyline, kept inside a set of
-- boxes (a corridor of sectors). Each walked segment becomes a cubic
-- Bezier whose tangents follow the neighbouring points (Catmull-Rom
-- style); each control point is clipped towards its end point, halving
-- the offset until the straight line between them stays in the boxes; the
-- curve is sampled with integer arithmetic in fixed point (Q16.16), and a
-- segment whose samples would still leave the boxes is kept straight. No
-- float takes part in a decision; floats appear only in the output.
local M = {}

local FIX <const> = 65536
local STEP <const> = 4096          -- [fixed] containment checks every 1/16 navcell
local HALVINGS <const> = 6

local function to_fix(v) return math.floor(v * FIX + 0.5) end

local function inside(boxes, x, y)
  for _, b in ipairs(boxes) do
    if x >= b[1] and x <= b[3] and y >= b[2] and y <= b[4] then return true end
  end
  return false
end

--- Whether the segment between two fixed points stays in the boxes,
-- checked every STEP along its longer axis.
local function segment_inside(boxes, ax, ay, bx, by)
  local n = math.max(1, (math.max(math.abs(bx - ax), math.abs(by - ay)) + STEP - 1) // STEP)
  for k = 0, n do
    if not inside(boxes, ax + (bx - ax) * k // n, ay + (by - ay) * k // n) then return false end
  end
  return true
end
M.segment_inside = segment_inside

-- Moves control point c towards anchor a until the line a-c stays inside.
local function clip(boxes, ax, ay, cx, cy)
  local dx, dy = cx - ax, cy - ay
  for _ = 0, HALVINGS do
    if segment_inside(boxes, ax, ay, ax + dx, ay + dy) then return ax + dx, ay + dy, false end
    dx, dy = dx // 2, dy // 2
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
    return (X[b] - X[a]) // div, (Y[b] - Y[a]) // div
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
      local c1x, c1y, k1 = clip(fb, X[i - 1], Y[i - 1], X[i - 1] + tx0 // 3, Y[i - 1] + ty0 // 3)
      local c2x, c2y, k2 = clip(fb, X[i], Y[i], X[i] - tx1 // 3, Y[i] - ty1 // 3)
      if k1 then info.clipped = info.clipped + 1 end
      if k2 then info.clipped = info.clipped + 1 end
      local sx, sy = {}, {}
      local px, py, ok = X[i - 1], Y[i - 1], true
      local m = samples
      local m3 = m * m * m
      for k = 1, m do
        local u = m - k
        local bx = (u * u * u * X[i - 1] + 3 * u * u * k * c1x + 3 * u * k * k * c2x
          + k * k * k * X[i]) // m3
        local by = (u * u * u * Y[i - 1] + 3 * u * u * k * c1y + 3 * u * k * k * c2y
          + k * k * k * Y[i]) // m3
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
