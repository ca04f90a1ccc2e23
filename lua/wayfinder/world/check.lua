--- wayfinder.world.check: the house world's argument checks. Every check
-- raises "fname: message" at the caller's caller (`level` counts as in
-- error(), default 2 = the public function's caller).
local compat = require("wayfinder.compat")
local util = require("wayfinder.util")
local fixed = require("wayfinder.fixed")

local M = {}

local describe = util.describe
local FACING_INDEX = fixed.FACING_INDEX

M.describe = describe

--- Raises "fname: msg" at `level` (default 2) above the caller.
function M.fail(fname, msg, level)
  error(fname .. ": " .. msg, (level or 2) + 1)
end
local fail = M.fail

--- An integer in [lo, hi] (floats with an integer value pass), as an integer.
function M.int(fname, arg, v, lo, hi, level)
  local i = compat.tointeger(v)
  if type(v) ~= "number" or not i or i < lo or i > hi then
    fail(fname, ("%s must be an integer in [%d, %d], got %s"):format(arg, lo, hi,
      describe(v)), (level or 2) + 1)
  end
  return i
end

local function bound(v)
  if v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then return ("%d"):format(v) end
  return ("%g"):format(v)
end

--- A number in [lo, hi] ((lo, hi] with open_lo), never NaN.
function M.num(fname, arg, v, lo, hi, level, open_lo)
  if type(v) ~= "number" or v ~= v or v < lo or v > hi or (open_lo and v == lo) then
    fail(fname, ("%s must be a number in %s%s, %s], got %s"):format(arg,
      open_lo and "(" or "[", bound(lo), bound(hi), describe(v)), (level or 2) + 1)
  end
  return v
end

function M.bool(fname, arg, v, level)
  if type(v) ~= "boolean" then
    fail(fname, ("%s must be a boolean, got %s"):format(arg, describe(v)), (level or 2) + 1)
  end
  return v
end

function M.name(fname, arg, v, level)
  if type(v) ~= "string" or v == "" then
    fail(fname, ("%s must be a non-empty string, got %s"):format(arg, describe(v)),
      (level or 2) + 1)
  end
  return v
end

--- Every key of t must be a string listed in `allowed`.
function M.keys(fname, arg, t, allowed, level)
  for k in pairs(t) do
    if type(k) ~= "string" or not allowed[k] then
      fail(fname, ("unknown %s key %s"):format(arg, describe(k)), (level or 2) + 1)
    end
  end
end

--- A direction name, as its facing index 0..7.
function M.facing(fname, arg, v, level)
  local f = FACING_INDEX[v]
  if not f then
    fail(fname, ("%s must be a direction ('east', 'southeast', 'south', 'southwest', "
      .. "'west', 'northwest', 'north', 'northeast'), got %s"):format(arg, describe(v)),
      (level or 2) + 1)
  end
  return f
end

--- The keys of t sorted: numbers first, then each type in its own order.
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    if type(a) == type(b) then return a < b end
    return type(a) == "number"
  end)
  return keys
end

return M
