--- wayfinder.movingai: reading Moving AI benchmark scenario (.scen) files.
-- Each query gives a start, a goal and the benchmark's optimal length; the
-- tolerance follows the precision the file prints (see docs/movingai.md).
local compat = require("wayfinder.compat")
local M = {}

local function fail(fname, path, line, msg)
  error(("wayfinder.movingai.%s: %s:%d: %s"):format(fname, path, line, msg), 0)
end

--- The tolerance for comparing a computed length with a printed one: half a
-- unit of the last printed decimal place, never less than 1e-3. A whole
-- number (no decimal point) comes from a file printing 6 significant digits,
-- so it is exact to the 6th significant digit.
function M.tolerance(text)
  if type(text) ~= "string" or not text:match("^%d+%.?%d*$") then
    local shown = type(text) == "string" and ("'" .. text .. "'") or tostring(text)
    error("wayfinder.movingai.tolerance: text must be a printed number, got "
      .. shown, 2)
  end
  local frac = text:match("%.(%d*)")
  local half
  if frac then
    half = 0.5 * 10 ^ -#frac
  else
    local int_digits = #text:match("^(%d+)")
    half = 0.5 * 10 ^ (int_digits - 6)
  end
  return math.max(half, 1e-3)
end

local MAX_SIDE = 16384          -- the largest grid side (wayfinder.grid.MAX_SIDE)
local MAX_LENGTH = 1073741824      -- far beyond any path on such a grid

-- The parser behind both entry points; fname names the caller in errors.
local function parse(text, source, fname)
  local queries = {}
  local lineno = 0
  local saw_header = false
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    lineno = lineno + 1
    line = line:gsub("\r$", "")
    repeat -- a pass of the body; break goes to the next line
    if line:match("^%s*$") then
      break
    end
    if not saw_header then
      if not (line:match("^version%s+1%s*$") or line:match("^version%s+1%.0%s*$")) then
        fail(fname, source, lineno, "expected 'version 1' header")
      end
      saw_header = true
      break
    end
    do
      local f = {}
      for word in line:gmatch("%S+") do f[#f + 1] = word end
      if #f ~= 9 then
        fail(fname, source, lineno, ("expected 9 fields, got %d"):format(#f))
      end
      local nums = {}
      for _, i in ipairs({ 1, 3, 4, 5, 6, 7, 8 }) do
        local v = f[i]:match("^%d+$") and compat.tointeger(tonumber(f[i]))
        if not v then
          fail(fname, source, lineno, ("field %d must be a whole number, got '%s'"):format(i, f[i]))
        end
        nums[i] = v
      end
      local len = f[9]:match("^%d+%.?%d*$") and tonumber(f[9])
      if not len then
        fail(fname, source, lineno, ("optimal length must be a number, got '%s'"):format(f[9]))
      end
      if len > MAX_LENGTH then
        fail(fname, source, lineno, ("optimal length must be at most %d, got '%s'")
          :format(MAX_LENGTH, f[9]))
      end
      for _, side in ipairs({ { 3, "width" }, { 4, "height" } }) do
        local v = nums[side[1]]
        if v < 1 or v > MAX_SIDE then
          fail(fname, source, lineno, ("map %s must be in [1, %d], got %d")
            :format(side[2], MAX_SIDE, v))
        end
      end
      for _, c in ipairs({ { 5, 3, "start x" }, { 6, 4, "start y" }, { 7, 3, "goal x" },
        { 8, 4, "goal y" } }) do
        if nums[c[1]] >= nums[c[2]] then
          fail(fname, source, lineno, ("%s must be below the map's %s %d, got %d")
            :format(c[3], c[2] == 3 and "width" or "height", nums[c[2]], nums[c[1]]))
        end
      end
      queries[#queries + 1] = {
        bucket = nums[1], map = f[2], width = nums[3], height = nums[4],
        sx = nums[5], sy = nums[6], gx = nums[7], gy = nums[8],
        length = len, tolerance = M.tolerance(f[9]), line = lineno,
      }
    end
    until true
  end
  if not saw_header then fail(fname, source, lineno, "empty scenario file") end
  return queries
end

--- Parses scenario text; returns a sequence of queries
-- {bucket, map, width, height, sx, sy, gx, gy, length, tolerance, line}.
-- source names the text in error messages (default "text").
function M.parse_scenarios(text, source)
  if type(text) ~= "string" then
    error("wayfinder.movingai.parse_scenarios: text must be a string, got " .. type(text), 2)
  end
  if source ~= nil and type(source) ~= "string" then
    error("wayfinder.movingai.parse_scenarios: source must be a string, got " .. type(source), 2)
  end
  return parse(text, source or "text", "parse_scenarios")
end

--- Loads a .scen file; nil, message when it cannot be read.
function M.load_scenarios(path)
  if type(path) ~= "string" then
    error("wayfinder.movingai.load_scenarios: path must be a string, got " .. type(path), 2)
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  if not text then return nil, "cannot read '" .. path .. "'" end
  return parse(text, path, "load_scenarios")
end

return M
