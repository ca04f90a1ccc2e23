--- A seeded generator and a string hash that give the same numbers on Lua
-- 5.1, 5.2, 5.3, 5.4 and LuaJIT: every step is exact arithmetic on doubles
-- below 2^53 (no math.random, whose generator differs between versions, and
-- no 64-bit wraparound, which only 5.3+ have).
local M = {}

local floor = math.floor
local bxor = require("wayfinder.compat").bxor

local TWO32 = 4294967296

--- A generator from an integer seed: a mod-2^32 linear congruential
-- sequence (multiplier 1664525, increment 1013904223); each product stays
-- below 2^53. g.float() is in [0, 1) with 32 bits; g.int(a, b) in [a, b]
-- (g.int(n) in [1, n]) from the high bits.
function M.new(seed)
  local s = floor(seed) % TWO32
  local g = {}
  local function step()
    s = (s * 1664525 + 1013904223) % TWO32
    return s
  end
  function g.float()
    return step() / TWO32
  end
  function g.int(a, b)
    if not b then a, b = 1, a end
    return a + floor(step() / TWO32 * (b - a + 1))
  end
  return g
end

M.FNV_OFFSET = 2166136261

--- 32-bit FNV-1a of string s continuing from h: the multiplication by the
-- FNV prime 2^24 + 403 is split so every product stays below 2^53.
function M.fnv32(h, s)
  for i = 1, #s do
    local lo = h % 256
    h = h - lo + bxor(lo, s:byte(i))
    h = ((h % 256) * 16777216 + h * 403) % TWO32
  end
  return h
end

--- A finite number written exactly and the same way on every version:
-- "m/2^e" with m an integer (%.17g rounds ties differently on LuaJIT).
function M.exact(x)
  local e = 0
  while x ~= floor(x) do x, e = x * 2, e + 1 end
  return ("%.0f/2^%d"):format(x, e)
end

--- h as eight hex digits.
function M.hex(h)
  return ("%08x"):format(h)
end

return M
