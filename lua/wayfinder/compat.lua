--- wayfinder.compat: the few things the Lua sources need that differ between
-- Lua 5.1 (and LuaJIT 2.1), 5.2, 5.3 and 5.4. Every module writes to the
-- common subset of the language and takes these from here.
--
-- Numbers: before 5.3 every number is a double. An "integer" here is a
-- number with an integral value and |n| < 2^53 (EXACT): in that range every
-- version computes the same results. On 5.3 and 5.4 the integer subtype is
-- used as the language has it (type(3.0) is "float" there).
--
-- Bits: the bit helpers take non-negative integers below 2^53 (and shifts
-- that keep the result below 2^53); on 5.3+ they are the native operators,
-- before that exact arithmetic, so both give the same answers in that range.
local M = {}

local floor = math.floor
local mtype = math.type

--- 2^53: integers below it in magnitude are exact on every version.
M.EXACT = 9007199254740992

--- Which Lua runs: "5.1", "5.2", "5.3", "5.4" or "luajit".
M.VERSION = rawget(_G, "jit") and "luajit" or _VERSION:match("%d+%.%d+")

--- The byte 0 inside a pattern's set: "%z" on 5.1 and LuaJIT, whose
-- patterns end at a raw zero byte; "\0" elsewhere. Sets from byte 0 up
-- are written NUL .. "\1-\31".
M.NUL = _VERSION == "Lua 5.1" and "%z" or "\0"

--- atan(y, x) with the quadrant (math.atan2 before 5.3).
M.atan2 = rawget(math, "atan2") or math.atan

--- 1 on Lua 5.1 (not LuaJIT), which counts a tail call as a stack level
-- of its own, else 0: add it to error()'s level across a tail call.
M.TAIL_LEVEL = (_VERSION == "Lua 5.1" and not rawget(_G, "jit")) and 1 or 0

--- ("%q"):format(s) as 5.4 writes it (5.1 leaves control bytes raw):
-- control bytes and DEL as \ddd (\ddd padded when a digit follows).
function M.quote(s)
  if _VERSION ~= "Lua 5.1" then return ("%q"):format(s) end
  return '"' .. s:gsub('([%c"\\])(%d?)', function(c, d)
    if c == '"' or c == "\\" then return "\\" .. c .. d end
    if c == "\n" then return "\\\n" .. d end
    if d ~= "" then return ("\\%03d"):format(c:byte()) .. d end
    return "\\" .. c:byte()
  end) .. '"'
end

--- The language's table.unpack (unpack in 5.1).
M.unpack = table.unpack or rawget(_G, "unpack")

--- table.pack: the arguments in a table with field n.
function M.pack(...)
  return { n = select("#", ...), ... }
end

--- load(text, name, mode, env) on every version (text chunks only on 5.1).
if _VERSION == "Lua 5.1" then
  local loadstring, setfenv_ = rawget(_G, "loadstring"), rawget(_G, "setfenv")
  function M.load(text, name, _, env)
    if type(text) ~= "string" then return load(text, name) end
    local f, err = loadstring(text, name)
    if f and env then setfenv_(f, env) end
    return f, err
  end
else
  M.load = load
end

--- "integer", "float" or nil, as math.type: on 5.1 and 5.2 an integral
-- number below 2^53 in magnitude is an "integer".
if mtype then
  M.type = mtype
else
  function M.type(v)
    if type(v) ~= "number" then return nil end
    if v == floor(v) and v > -M.EXACT and v < M.EXACT then return "integer" end
    return "float"
  end
end
local ctype = M.type

--- v as an integer when it is a number with an integral value (in the
-- exact range before 5.3), else nil; as math.tointeger.
if math.tointeger then
  local ti = math.tointeger
  function M.tointeger(v)
    if type(v) ~= "number" then return nil end
    return ti(v)
  end
else
  function M.tointeger(v)
    if type(v) == "number" and ctype(v) == "integer" then return v end
    return nil
  end
end

--- floor(a / b) for integers a, b (b ~= 0) with |a| < 2^53: the result of
-- a // b, exact on every version.
function M.idiv(a, b)
  return floor(a / b)
end

local native = nil
if _VERSION ~= "Lua 5.1" and _VERSION ~= "Lua 5.2" and not rawget(_G, "jit") then
  native = load([[
    return function(a, n) return a >> n end, function(a, n) return a << n end,
      function(a, b) return a & b end, function(a, b) return a | b end,
      function(a, b) return a ~ b end]])
end

if native then
  M.shr, M.shl, M.band, M.bor, M.bxor = native()
else
  --- a >> n for a non-negative integer a.
  function M.shr(a, n) return floor(a / 2 ^ n) end
  --- a << n (the result below 2^53).
  function M.shl(a, n) return a * 2 ^ n end
  local function bitwise(a, b, rule)
    local r, p = 0, 1
    while a > 0 or b > 0 do
      local x, y = a % 2, b % 2
      if rule(x, y) then r = r + p end
      a, b, p = (a - x) / 2, (b - y) / 2, p * 2
    end
    return r
  end
  local function both(x, y) return x == 1 and y == 1 end
  local function either(x, y) return x == 1 or y == 1 end
  local function one(x, y) return x ~= y end
  --- a & b for non-negative integers.
  function M.band(a, b) return bitwise(a, b, both) end
  --- a | b for non-negative integers.
  function M.bor(a, b) return bitwise(a, b, either) end
  --- a ~ b for non-negative integers.
  function M.bxor(a, b) return bitwise(a, b, one) end
end

--- A number as 5.4 prints it with %.14g, but integers in the exact range
-- as plain digits on every version (no "4.0" against "4"): the one way
-- numbers are shown in messages and docs.
function M.number_string(v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if v == floor(v) and v > -M.EXACT and v < M.EXACT then return ("%d"):format(v) end
  return M.g14(v)
end

--- ("%.14g"):format(v), the same on every version: LuaJIT's own formatter
-- rounds a tie at the 15th digit up where the C library rounds it to even,
-- so there the tie is rounded to even here.
function M.g14(v)
  if rawget(_G, "jit") then
    local sign, d, e = ("%.16e"):format(v):match("^(-?)(%d%.%d+)e([-+]%d+)$")
    local digits = d and d:gsub("%.", "")
    if digits and digits:sub(15) == "500" and tonumber(digits:sub(14, 14)) % 2 == 0 then
      v = tonumber(sign .. digits:sub(1, 1) .. "." .. digits:sub(2, 14) .. "e" .. e)
    end
  end
  return ("%.14g"):format(v)
end

return M
