--- wayfinder.util: small helpers shared by the house world's modules:
-- describing values in error messages and copying plain data; and the
-- argument checks of the path table modules.
local compat = require("wayfinder.compat")
local M = {}

function M.describe(v)
  if type(v) == "string" then
    if #v > 40 then v = v:sub(1, 40) .. "..." end
    return ("'%s'"):format(v)
  end
  if compat.type(v) == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return ("%.14g"):format(v)
  end
  if type(v) == "number" then return tostring(v) end
  if v == nil then return "nil" end
  return "a " .. type(v)
end

-- Lua 5.1 keeps a "(tail call)" frame where a tail call replaced one;
-- later versions do not. Probed once, the same way the wrappers below call
-- `finish`, so the level that reaches the wrapper's caller is known.
local TAIL_FRAME = (function()
  local function probe() return debug.getinfo(2, "S").what end
  local function tail() return probe() end
  return tail()
end)() == "tail"

-- The level, seen from `raise`, of the code that called a wrapper: past
-- raise, finish (which replaced the wrapper by a tail call) and, on 5.1,
-- the wrapper's "(tail call)" frame.
local CALLER = TAIL_FRAME and 4 or 3

-- Raises a wrapped call's error again at the caller's line, without a
-- position inside the library and named for the function called.
local function raise(fname, delegates, msg)
  if type(msg) ~= "string" then error(msg, 0) end
  msg = msg:gsub("^[^:\n]+:%d+: ", "")
  if msg:sub(1, #fname + 2) ~= fname .. ": "
      and not (delegates and msg:match("^wayfinder%.[%w_%.]+: ")) then
    msg = fname .. ": " .. msg
  end
  error(msg, CALLER)
end

-- What pcall returned, handed on as the wrapper's results (no table made:
-- the wrapper tail-calls this with pcall's results), or raised again.
local function finish(fname, delegates, ok, ...)
  if ok then return ... end
  raise(fname, delegates, (...))
end

--- A public function as the caller sees it: an error raised anywhere
-- inside `f` is raised again at the caller's line, named `fname`. With
-- `delegates`, an error already naming another wayfinder.* function (one
-- `f` hands its arguments to, as its documentation says) keeps that name.
function M.public_function(fname, f, delegates)
  delegates = delegates and true or false
  return function(...)
    return finish(fname, delegates, pcall(f, ...))
  end
end

--- Wraps every method of `class` (a metatable that is its own __index;
-- names starting with "_" are left alone) so that a call with a self of
-- another kind raises "<prefix>:<method>: self must be <what>, got ...",
-- and any error inside is raised at the caller's line, named
-- "<prefix>:<method>". Call it once every method is defined.
function M.public_methods(class, prefix, what)
  local names = {}
  for k, v in pairs(class) do
    if type(k) == "string" and type(v) == "function" and k:sub(1, 1) ~= "_" then
      names[#names + 1] = k
    end
  end
  for _, name in ipairs(names) do
    local f, fname = class[name], prefix .. ":" .. name
    class[name] = function(self, ...)
      if getmetatable(self) ~= class then
        error(("%s: self must be %s, got %s"):format(fname, what, M.describe(self)), 2)
      end
      return finish(fname, false, pcall(f, self, ...))
    end
  end
end

-- ------------------------------------------------- argument checks --
-- Shared by the path table modules (pathtable, pathtable_grid, pursuit,
-- pathcache, explore) and wayfinder.queue's Lua half, so their messages
-- are made one way.

--- True for a whole number within +-2^53 (exact on every Lua version).
function M.is_integer(v)
  return type(v) == "number" and v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53
end

--- A value for an error message: whole numbers in digits, other numbers
-- with 14 significant digits, nan and +-inf by name, strings quoted (cut
-- after max_string characters, with "...", when max_string is given),
-- nil as nil, anything else as "a <type>".
function M.describe_arg(v, max_string)
  if type(v) == "string" then
    if max_string and #v > max_string then v = v:sub(1, max_string) .. "..." end
    return "'" .. v .. "'"
  end
  if type(v) == "number" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    if M.is_integer(v) then return string.format("%d", v) end
    return string.format("%.14g", v)
  end
  if v == nil then return "nil" end
  return "a " .. type(v)
end

--- Raises "fname: <formatted message>", blaming the caller of the function
-- that called fail.
function M.fail(fname, fmt, ...)
  error(fname .. ": " .. string.format(fmt, ...), 3)
end

--- True when v is a wayfinder.Grid.
function M.is_grid(v)
  local mt = getmetatable(v)
  return type(mt) == "table" and mt.__name == "wayfinder.Grid"
end

-- A deep copy that accepts only plain data (tables, strings, numbers,
-- booleans) and refuses cycles; `where` names the value in errors.
function M.plain_copy(v, where, fname, seen)
  local t = type(v)
  if t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then
      error(("%s: %s holds %s, which cannot be saved"):format(fname, where, M.describe(v)), 0)
    end
    return v
  end
  if t == "string" or t == "boolean" or t == "nil" then return v end
  if t ~= "table" then
    error(("%s: %s holds a %s; only tables, strings, numbers and booleans can be saved")
      :format(fname, where, t), 0)
  end
  seen = seen or {}
  if seen[v] then error(("%s: %s holds a cycle"):format(fname, where), 0) end
  seen[v] = true
  local out = {}
  for k, x in pairs(v) do
    local kt = type(k)
    if kt ~= "string" and kt ~= "number" and kt ~= "boolean" then
      error(("%s: %s has a %s key"):format(fname, where, kt), 0)
    end
    out[k] = M.plain_copy(x, where, fname, seen)
  end
  seen[v] = nil
  return out
end

return M
