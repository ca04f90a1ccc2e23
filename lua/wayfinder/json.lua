--- wayfinder.json: a small JSON codec (the route files of wayfinder.rectplan
-- are written and read with it). Internal: not re-exported by the wayfinder
-- module, so its interface may change with its callers.
--
--   json.encode(value [, key_order]) -> text
--       value: nil-free tables (a table whose keys are exactly 1..#t is an
--       array, else an object with string keys), strings, booleans, finite
--       numbers; integers are written as integers. Object keys are written
--       in key_order (a list of names; a name's first place counts), the
--       rest sorted, so equal values give equal text. The text ends with a
--       newline. Raises "cannot encode ..." for anything else.
--   json.decode(text) -> value | nil, "line L, column C: message"
--       Strings may hold any byte but '"', '\\' and the control
--       characters 0-31, which need escapes; "null" decodes to nil (and is
--       refused inside an array); nesting deeper than 64 is refused.
--
-- Nothing is kept between calls: each call builds its own state.
local compat = require("wayfinder.compat")

-- the bytes that end a run of plain string characters
local STOP = "[" .. compat.NUL .. '\1-\31"\\]'

-- The UTF-8 bytes of code point c (below 65536: one \u escape).
local function utf8_char(c)
  if c < 0x80 then return string.char(c) end
  if c < 0x800 then
    return string.char(0xC0 + math.floor(c / 64), 0x80 + c % 64)
  end
  return string.char(0xE0 + math.floor(c / 4096), 0x80 + math.floor(c / 64) % 64,
    0x80 + c % 64)
end

local M = {}

local function encode_number(v)
  if compat.type(v) == "integer" then return ("%d"):format(v) end
  if v ~= v or v == math.huge or v == -math.huge then
    error("cannot encode the number " .. tostring(v) .. " in JSON", 0)
  end
  local s = ("%.15g"):format(v)
  if tonumber(s) ~= v then s = ("%.17g"):format(v) end
  return s
end

local ESCAPES = {
  ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f",
  ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t",
}

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or ("\\u%04x"):format(c:byte())
  end) .. '"'
end

local function is_array(t)
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  return n == #t
end

-- value, output buffer, indent, rank of each key named in the key order
local function encode(v, out, indent, rank)
  local t = type(v)
  if t == "number" then
    out[#out + 1] = encode_number(v)
  elseif t == "string" then
    out[#out + 1] = encode_string(v)
  elseif t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif t == "table" then
    local inner = indent .. " "
    if is_array(v) then
      local flat = true
      for _, e in ipairs(v) do if type(e) == "table" then flat = false end end
      out[#out + 1] = "["
      for i, e in ipairs(v) do
        if i > 1 then out[#out + 1] = "," end
        if not flat then out[#out + 1] = "\n" .. inner end
        encode(e, out, inner, rank)
      end
      if not flat and #v > 0 then out[#out + 1] = "\n" .. indent end
      out[#out + 1] = "]"
    else
      local keys = {}
      for k in pairs(v) do
        if type(k) ~= "string" then
          error("cannot encode a table key of type " .. type(k) .. " in JSON", 0)
        end
        keys[#keys + 1] = k
      end
      table.sort(keys, function(a, b)
        local ra, rb = rank[a] or math.huge, rank[b] or math.huge
        if ra ~= rb then return ra < rb end
        return a < b
      end)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = "\n" .. inner .. encode_string(k) .. ": "
        encode(v[k], out, inner, rank)
      end
      if #keys > 0 then out[#out + 1] = "\n" .. indent end
      out[#out + 1] = "}"
    end
  else
    error("cannot encode a " .. t .. " in JSON", 0)
  end
end

--- The JSON text of value, keys in key_order then sorted (see the top).
function M.encode(value, key_order)
  local rank = {}
  for i, k in ipairs(key_order or {}) do rank[k] = rank[k] or i end
  local out = {}
  encode(value, out, "", rank)
  out[#out + 1] = "\n"
  return table.concat(out)
end

-- Raises "line L, column C: message" (caught by M.decode).
local function parse(text)
  local pos = 1
  local function fail(msg)
    local line, col = 1, 1
    for i = 1, math.min(pos - 1, #text) do
      if text:byte(i) == 10 then line, col = line + 1, 1 else col = col + 1 end
    end
    error(("line %d, column %d: %s"):format(line, col, msg), 0)
  end
  local function skip()
    pos = text:find("[^ \t\r\n]", pos) or #text + 1
  end
  local value
  local function str()
    local buf = {}
    pos = pos + 1
    while true do
      local c = text:sub(pos, pos)
      if c == "" then fail("unterminated string") end
      if c == '"' then pos = pos + 1; break end
      if c == "\\" then
        local e = text:sub(pos + 1, pos + 1)
        local simple = ({ ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b",
          f = "\f", n = "\n", r = "\r", t = "\t" })[e]
        if simple then
          buf[#buf + 1] = simple
          pos = pos + 2
        elseif e == "u" then
          local hex = text:sub(pos + 2, pos + 5)
          if not hex:match("^%x%x%x%x$") then fail("bad \\u escape") end
          buf[#buf + 1] = utf8_char(tonumber(hex, 16))
          pos = pos + 6
        else
          fail("bad escape '\\" .. e .. "'")
        end
      elseif c:byte() < 32 then
        fail("control character in string")
      else
        -- the run up to the next byte handled above: it is never empty, so
        -- the loop always advances (this set must be exactly those bytes;
        -- %c would add DEL, byte 127, which JSON allows in a string)
        local stop = text:find(STOP, pos) or #text + 1
        buf[#buf + 1] = text:sub(pos, stop - 1)
        pos = stop
      end
    end
    return table.concat(buf)
  end
  function value(depth)
    if depth > 64 then fail("nesting too deep") end
    skip()
    local c = text:sub(pos, pos)
    if c == "{" then
      local t = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return t end
      while true do
        skip()
        if text:sub(pos, pos) ~= '"' then fail("expected a string key") end
        local k = str()
        skip()
        if text:sub(pos, pos) ~= ":" then fail("expected ':'") end
        pos = pos + 1
        local v = value(depth + 1)
        if t[k] ~= nil then fail("duplicate key '" .. k .. "'") end
        t[k] = v
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "}" then return t end
        if d ~= "," then pos = pos - 1; fail("expected ',' or '}'") end
      end
    elseif c == "[" then
      local t = {}
      pos = pos + 1
      skip()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return t end
      while true do
        local v = value(depth + 1)
        if v == nil then fail("null inside an array") end
        t[#t + 1] = v
        skip()
        local d = text:sub(pos, pos)
        pos = pos + 1
        if d == "]" then return t end
        if d ~= "," then pos = pos - 1; fail("expected ',' or ']'") end
      end
    elseif c == '"' then
      return str()
    elseif text:find("^true", pos) then
      pos = pos + 4
      return true
    elseif text:find("^false", pos) then
      pos = pos + 5
      return false
    elseif text:find("^null", pos) then
      pos = pos + 4
      return nil
    else
      local num = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if not num or num == "" or num == "-" then
        fail(c == "" and "unexpected end of text" or "unexpected '" .. c .. "'")
      end
      local v = tonumber(num)
      if not v then fail("bad number '" .. num .. "'") end
      pos = pos + #num
      if not num:find("[.eE]") then v = compat.tointeger(v) or v end
      return v
    end
  end
  local v = value(0)
  skip()
  if pos <= #text then fail("text after the value") end
  return v
end

--- The value of a JSON text, or nil and "line L, column C: message".
function M.decode(text)
  local ok, v = pcall(parse, text)
  if not ok then return nil, v end
  return v
end

return M
