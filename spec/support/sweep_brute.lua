--- Slow references for the swept collision test (src/sweep.c), written
-- from its documented rule with a different method: exact rational
-- clipping of the segment's parameter t in [0, 1] against each slab, on
-- integers in Q16.16 (every product stays below 2^53, exact on every Lua).
local idiv = require("wayfinder.compat").idiv
local M = {}

M.ONE = 65536

--- Q16.16 integer of a number that is a multiple of 1/65536.
function M.fix(v)
  local f = v * M.ONE
  assert(f == math.floor(f), "not a multiple of 1/65536")
  return f
end

-- a/b < c/d for b, d > 0
local function less(a, b, c, d) return a * d < c * b end

--- Whether the closed segment (ax, ay) -> (bx, by) meets the closed box
-- [x0, x1] x [y0, y1]; integers.
function M.meets(ax, ay, bx, by, x0, y0, x1, y1)
  -- t interval [lo_n / lo_d, hi_n / hi_d], starting as [0, 1]
  local lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
  for _, axis in ipairs({ { ax, bx, x0, x1 }, { ay, by, y0, y1 } }) do
    local a, b, l, h = axis[1], axis[2], axis[3], axis[4]
    local d = b - a
    if d == 0 then
      if a < l or a > h then return false end
    else
      local n1, n2 = l - a, h - a
      if d < 0 then n1, n2, d = a - h, a - l, -d end
      -- this slab holds t in [n1 / d, n2 / d]
      if less(lo_n, lo_d, n1, d) then lo_n, lo_d = n1, d end
      if less(n2, d, hi_n, hi_d) then hi_n, hi_d = n2, d end
    end
  end
  return not less(hi_n, hi_d, lo_n, lo_d)
end

--- The rule against a unit's square of half size h at (cx, cy).
function M.square(ax, ay, bx, by, cx, cy, h)
  if math.abs(ax - cx) <= h and math.abs(ay - cy) <= h then return false end
  if math.abs(bx - cx) <= h and math.abs(by - cy) <= h then return true end
  return M.meets(ax, ay, bx, by, cx - h, cy - h, cx + h, cy + h)
end

--- The rule against the grid: the first navcell (columns from the start's
-- side, rows from the start's side) whose closed square meets the segment
-- and that passable(i, j) refuses; nil when there is none.
function M.grid(passable, ax, ay, bx, by)
  local one = M.ONE
  local i0 = idiv(math.min(ax, bx), one) - 1
  local i1 = idiv(math.max(ax, bx), one) + 1
  local j0 = idiv(math.min(ay, by), one) - 1
  local j1 = idiv(math.max(ay, by), one) + 1
  local is, ie, istep = i0, i1, 1
  if bx < ax then is, ie, istep = i1, i0, -1 end
  local js, je, jstep = j0, j1, 1
  if by < ay then js, je, jstep = j1, j0, -1 end
  for i = is, ie, istep do
    for j = js, je, jstep do
      if M.meets(ax, ay, bx, by, i * one, j * one, (i + 1) * one, (j + 1) * one)
        and not passable(i, j) then
        return i, j
      end
    end
  end
  return nil
end

return M
