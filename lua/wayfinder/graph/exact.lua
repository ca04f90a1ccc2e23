--- wayfinder.graph.exact: integer arithmetic for the graph layer, written
-- so it gives the same numbers on every Lua the module runs on: integer
-- tests, floor division and bit masks on non-negative integers below
-- 2^53, world values to Q16.16 fixed point and ceiled distances in
-- 1/65536 navcell, so no cost depends on float rounding.
local E = {}

local FIX = 65536
local EXACT = 2 ^ 53

--- Whether v is a number with an integer value within +-2^53.
local function is_integer(v)
  return type(v) == "number" and v == math.floor(v) and v >= -EXACT and v <= EXACT
end

--- floor(a / b) for integers a, b (b ~= 0) whose product stays below 2^53;
-- corrected after the float division so rounding cannot move it.
local function idiv(a, b)
  if b < 0 then a, b = -a, -b end
  local q = math.floor(a / b)
  local r = a - q * b
  while r < 0 do q, r = q - 1, r + b end
  while r >= b do q, r = q + 1, r - b end
  return q
end

--- The mask with only bit k (1-based) set: 2^(k - 1) as an integer.
local function bit(k)
  local v = 1
  for _ = 2, k do v = v * 2 end
  return v
end

--- Whether bit k (1-based) is set in mask m.
local function has_bit(m, k)
  return idiv(m, bit(k)) % 2 == 1
end

--- m with bit k (1-based) set.
local function set_bit(m, k)
  if has_bit(m, k) then return m end
  return m + bit(k)
end

--- A copy of the sequence t[1..#t].
local function copy_list(t)
  local out = {}
  for i = 1, #t do out[i] = t[i] end
  return out
end

local function to_fix(v) return math.floor(v * FIX + 0.5) end

local HALF = 32768           -- 2^15
local LIMB = 1073741824      -- 2^30

--- x^2 for an integer 0 <= x < 2^31 as two limbs (hi, lo): hi * 2^30 + lo,
-- 0 <= lo < 2^30, every partial product below 2^53.
local function square(x)
  local xh, xl = idiv(x, HALF), x % HALF
  local low = 2 * xh * xl * HALF + xl * xl
  local carry = idiv(low, LIMB)
  return xh * xh + carry, low - carry * LIMB
end

--- dx^2 + dy^2 as two limbs.
local function sum_squares(dx, dy)
  local ah, al = square(math.abs(dx))
  local bh, bl = square(math.abs(dy))
  local lo = al + bl
  if lo >= LIMB then return ah + bh + 1, lo - LIMB end
  return ah + bh, lo
end

-- -1, 0 or 1 as (ah, al) is below, equal to or above (bh, bl)
local function compare(ah, al, bh, bl)
  if ah ~= bh then return ah < bh and -1 or 1 end
  if al ~= bl then return al < bl and -1 or 1 end
  return 0
end

--- ceil(sqrt(dx^2 + dy^2)) for integers |dx|, |dy| < 2^31, exact although
-- the sum of squares may pass 2^53: the float root is only a first guess.
local function hypot_ceil(dx, dy)
  local nh, nl = sum_squares(dx, dy)
  local r = math.floor(math.sqrt(dx * dx + dy * dy))
  while r > 0 and compare(nh, nl, square(r)) < 0 do r = r - 1 end
  while compare(nh, nl, square(r + 1)) >= 0 do r = r + 1 end
  -- r = floor(sqrt(n)); exact root or one more
  if compare(nh, nl, square(r)) == 0 then return r end
  return r + 1
end

--- ceil of the distance between two world points, in 1/65536 navcell (the
-- cost model of docs/graph.md).
local function dist_ceil(ax, ay, bx, by)
  return hypot_ceil(to_fix(bx) - to_fix(ax), to_fix(by) - to_fix(ay))
end

E.is_integer, E.idiv, E.bit, E.has_bit, E.set_bit = is_integer, idiv, bit, has_bit, set_bit
E.copy_list, E.to_fix, E.hypot_ceil, E.dist_ceil = copy_list, to_fix, hypot_ceil, dist_ceil
E.unpack = table.unpack or unpack   -- luacheck: ignore 113

return E
