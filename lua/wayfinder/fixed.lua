--- wayfinder.fixed: Q16.16 fixed point helpers and the eight facings, shared
-- by the house world's modules. Positions inside the world are integers in
-- 1/65536 of a tile; floats appear only where a script reads or writes them.
local compat = require("wayfinder.compat")
local shr = compat.shr
local M = {}

local floor = math.floor
local sqrt = math.sqrt
local tointeger = compat.tointeger

M.ONE = 65536
M.HALF = 32768

--- A float (world units) to fixed point, rounded to nearest.
function M.from_number(v)
  return floor(v * 65536 + 0.5)
end

--- Fixed point to a float.
function M.to_number(f)
  return f / 65536
end

--- The integer square root of a non-negative integer (exact, whatever the
-- float rounding: the float guess is corrected with integer tests).
function M.isqrt(n)
  if n <= 0 then return 0 end
  local r = tointeger(floor(sqrt(n))) or 0
  while r * r > n do r = r - 1 end
  while (r + 1) * (r + 1) <= n do r = r + 1 end
  return r
end
local isqrt = M.isqrt

--- floor(distance) in whole tiles between two fixed point points.
function M.floor_distance(ax, ay, bx, by)
  local dx, dy = ax - bx, ay - by
  return isqrt(shr(dx * dx + dy * dy, 32))
end

--- Distance in fixed point, rounded down.
function M.distance(ax, ay, bx, by)
  local dx, dy = ax - bx, ay - by
  return isqrt(dx * dx + dy * dy)
end

--- The facings, index 0..7: east is +x, south is +y (rows grow downwards).
M.FACINGS = { [0] = "east", "southeast", "south", "southwest", "west",
  "northwest", "north", "northeast" }
M.FACING_INDEX = {}
for i = 0, 7 do M.FACING_INDEX[M.FACINGS[i]] = i end

local D = 46341 -- round(65536 / sqrt(2))
--- Unit vectors per facing, fixed point.
M.UNIT = { [0] = { 65536, 0 }, { D, D }, { 0, 65536 }, { -D, D }, { -65536, 0 },
  { -D, -D }, { 0, -65536 }, { D, -D } }
--- Whole-step offsets per facing (-1, 0 or 1).
M.STEP = { [0] = { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 }, { -1, 0 }, { -1, -1 },
  { 0, -1 }, { 1, -1 } }

local TAN = 27146 -- tan(22.5 degrees) in Q16.16, as the C core uses
--- The facing (0..7) nearest to the direction (dx, dy); nil for (0, 0).
function M.facing_of(dx, dy)
  if dx == 0 and dy == 0 then return nil end
  local ax, ay = dx < 0 and -dx or dx, dy < 0 and -dy or dy
  if ay * 65536 <= ax * TAN then return dx > 0 and 0 or 4 end
  if ax * 65536 <= ay * TAN then return dy > 0 and 2 or 6 end
  if dx > 0 then return dy > 0 and 1 or 7 end
  return dy > 0 and 3 or 5
end

return M
