--- wayfinder.graph.exact: integer arithmetic for the graph layer's costs:
-- world values to Q16.16 fixed point and ceiled distances in 1/65536
-- navcell, so no cost depends on float rounding.
local E = {}

local FIX <const> = 65536

local function to_fix(v) return math.floor(v * FIX + 0.5) end

local function isqrt(n)
  local r = math.floor(math.sqrt(n))
  while r > 0 and r * r > n do r = r - 1 end
  while (r + 1) * (r + 1) <= n do r = r + 1 end
  return r
end

--- ceil of the distance between two world points, in 1/65536 navcell (the
-- cost model of docs/graph.md).
local function dist_ceil(ax, ay, bx, by)
  local dx, dy = to_fix(bx) - to_fix(ax), to_fix(by) - to_fix(ay)
  local n = dx * dx + dy * dy
  local r = isqrt(n)
  return r * r == n and r or r + 1
end

E.to_fix, E.isqrt, E.dist_ceil = to_fix, isqrt, dist_ceil

return E
