--- wayfinder.pathtable_grid: compressed first-move tables for grids.
-- For every passable navcell (the source) the table holds the direction of
-- the first step of a cheapest path to every other navcell, in row-major
-- order, compressed into runs of equal moves (blocked navcells join the
-- run before them). The C core (core.cpd_build) runs one Dijkstra search
-- per source with the grid's step rules and writes the runs; this module
-- keeps them as one string per source (4 bytes a run), reads a path back
-- by repeated lookups (a binary search in the current navcell's row), and
-- saves and loads tables with a header that ties them to one grid's
-- passability. See docs/pathtable.md.
--
-- Written in the subset of Lua that 5.1 to 5.4 and LuaJIT share.
local core = require("wayfinder.core")

local M = {}

local FORMAT = "wayfinder-cpd"
local VERSION = 1
local ORTH = 33554432          -- cost units of an orthogonal step (grid:find_path's)
local DIAG = 47453132          -- and of a diagonal one
local UNIT = 33554432          -- cost units per navcell of length
local NONE = 8
local DX = { [0] = 1, -1, 0, 0, 1, -1, 1, -1 }
local DY = { [0] = 0, 0, 1, -1, 1, 1, -1, -1 }
local MAX_SIDE = 4096

local util = require("wayfinder.util")

local is_integer = util.is_integer
local fail = util.fail

-- strings in messages are cut after 40 characters
local function describe(v) return util.describe_arg(v, 40) end

local is_grid = util.is_grid

-- The class name options ask for (default: the grid's first class).
local function read_class(fname, grid, options)
  if not is_grid(grid) then fail(fname, "grid must be a wayfinder.Grid, got %s", describe(grid)) end
  if options == nil then options = {} end
  if type(options) ~= "table" then
    fail(fname, "options must be a table, got %s", describe(options))
  end
  for k in pairs(options) do
    if k ~= "class" then fail(fname, "unknown options key %s", describe(k)) end
  end
  local classes = grid:classes()
  if options.class == nil then return classes[1].name end
  for _, c in ipairs(classes) do
    if c.name == options.class then return c.name end
  end
  fail(fname, "options.class must name a class of the grid, got %s", describe(options.class))
end

-- The grid's passability for a class as one byte per navcell, row-major.
local function passability(grid, class)
  local w, h = grid:width(), grid:height()
  local one, zero = string.char(1), string.char(0)
  local rows = {}
  for y = 0, h - 1 do
    local row = {}
    for x = 0, w - 1 do
      row[x + 1] = grid:is_passable(x, y, class) and one or zero
    end
    rows[y + 1] = table.concat(row)
  end
  return table.concat(rows)
end

local GridTable = {}
GridTable.__index = GridTable
GridTable.__name = "wayfinder.GridPathTable"

function GridTable:__tostring()
  return string.format("wayfinder.GridPathTable (%dx%d, class %s, %d runs)",
    self.w, self.h, self.class, self.runs)
end

local function make(w, h, class, pass, hash, rows, runs)
  local passable = 0
  for i = 1, w * h do
    if pass:byte(i) ~= 0 then passable = passable + 1 end
  end
  return setmetatable({ w = w, h = h, class = class, pass = pass, hash = hash,
    rows = rows, runs = runs, passable = passable }, GridTable)
end

--- pathtable.build_grid(grid [, options]) -> table
function M.build(grid, options)
  local fname = "wayfinder.pathtable.build_grid"
  local class = read_class(fname, grid, options)
  if not grid:uniform_cost() then
    fail(fname, "grid must have all navcell costs 1 (grid:uniform_cost())")
  end
  local w, h = grid:width(), grid:height()
  if w > MAX_SIDE or h > MAX_SIDE then
    fail(fname, "grid must be at most %d navcells a side, got %dx%d", MAX_SIDE, w, h)
  end
  local pass = passability(grid, class)
  local rows, runs = core.cpd_build(pass, w, h)
  return make(w, h, class, pass, core.cpd_hash(pass), rows, runs)
end

-- The move stored for target cell t (0-based) in a row string.
local function lookup(row, t)
  local lo, hi = 1, math.floor(#row / 4)
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    local a, b, c = row:byte(4 * mid - 3, 4 * mid - 1)
    if a * 65536 + b * 256 + c <= t then lo = mid else hi = mid - 1 end
  end
  return row:byte(4 * lo)
end

local function check_cell(self, fname, what, x, y)
  if not is_integer(x) or x < 0 or x >= self.w then
    fail(fname, "%sx must be an integer in [0, %d), got %s", what, self.w, describe(x))
  end
  if not is_integer(y) or y < 0 or y >= self.h then
    fail(fname, "%sy must be an integer in [0, %d), got %s", what, self.h, describe(y))
  end
  return y * self.w + x
end

--- gt:first_move(sx, sy, gx, gy) -> nx, ny | nil, reason
function GridTable:first_move(sx, sy, gx, gy)
  local fname = "gridpathtable:first_move"
  local s = check_cell(self, fname, "s", sx, sy)
  local g = check_cell(self, fname, "g", gx, gy)
  if self.pass:byte(s + 1) == 0 then return nil, "start_blocked" end
  if self.pass:byte(g + 1) == 0 then return nil, "goal_blocked" end
  if s == g then return nil, "arrived" end
  local m = lookup(self.rows[s + 1], g)
  if m == NONE then return nil, "unreachable" end
  return sx + DX[m], sy + DY[m]
end

--- gt:find_path(sx, sy, gx, gy) -> path, length, info | nil, reason
-- The path reads one move per navcell, each the first step of a cheapest
-- path from there, so it is a cheapest path itself.
function GridTable:find_path(sx, sy, gx, gy)
  local fname = "gridpathtable:find_path"
  local s = check_cell(self, fname, "s", sx, sy)
  local g = check_cell(self, fname, "g", gx, gy)
  local pass, rows, w = self.pass, self.rows, self.w
  if pass:byte(s + 1) == 0 then return nil, "start_blocked" end
  if pass:byte(g + 1) == 0 then return nil, "goal_blocked" end
  local path = { { sx, sy, x = sx, y = sy } }
  local x, y, cost, cur = sx, sy, 0, s
  local limit = self.passable
  while cur ~= g do
    local m = lookup(rows[cur + 1], g)
    if m == NONE then
      if cur == s then return nil, "unreachable" end
      return nil, "corrupt"      -- a route that stops halfway: a damaged table
    end
    x, y = x + DX[m], y + DY[m]
    cur = y * w + x
    if #path > limit or x < 0 or y < 0 or x >= w or y >= self.h or pass:byte(cur + 1) == 0 then
      return nil, "corrupt"
    end
    if m < 4 then cost = cost + ORTH else cost = cost + DIAG end
    path[#path + 1] = { x, y, x = x, y = y }
  end
  return path, cost / UNIT, { cost_units = cost, lookups = #path - 1 }
end

--- gt:matches(grid [, class]) -> true when the grid's passability for the
-- table's class is the one the table was built for.
function GridTable:matches(grid)
  if not is_grid(grid) then
    fail("gridpathtable:matches", "grid must be a wayfinder.Grid, got %s", describe(grid))
  end
  if grid:width() ~= self.w or grid:height() ~= self.h then return false end
  local ok = pcall(grid.is_passable, grid, 0, 0, self.class)
  if not ok then return false end
  return passability(grid, self.class) == self.pass
end

--- gt:memory() -> bytes: the row strings plus an estimated 32 bytes of
-- string header each, and the passability copy.
function GridTable:memory()
  local bytes = #self.pass + 32
  for i = 1, self.w * self.h do
    local r = self.rows[i]
    if r ~= "" then bytes = bytes + #r + 32 end
  end
  return bytes
end

--- gt:stats() -> { width, height, class, passable, runs, run_bytes }
function GridTable:stats()
  return { width = self.w, height = self.h, class = self.class, passable = self.passable,
    runs = self.runs, run_bytes = 4 * self.runs }
end

-- ------------------------------------------------------------- files --

local function be32(n)
  local b1 = math.floor(n / 16777216) % 256
  local b2 = math.floor(n / 65536) % 256
  local b3 = math.floor(n / 256) % 256
  return string.char(b1, b2, b3, n % 256)
end

local function read_be32(s, i)
  local a, b, c, d = s:byte(i, i + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end

--- gt:save(path) -> true | nil, "write_failed", message
function GridTable:save(path)
  if type(path) ~= "string" then
    fail("gridpathtable:save", "path must be a string, got %s", describe(path))
  end
  local parts = {}
  for i = 1, self.w * self.h do
    local r = self.rows[i]
    if r ~= "" then parts[#parts + 1] = be32(#r / 4) .. r end
  end
  local payload = table.concat(parts)
  local head = string.format("%s\nversion %d\nsize %d %d\nclass %s\nhash %d\nrows %d %d\n",
    FORMAT, VERSION, self.w, self.h, self.class, self.hash, self.runs, #payload)
  local body = head .. payload
  local text = body .. string.format("end %d\n", core.cpd_hash(body))
  local f, err = io.open(path, "wb")
  if not f then return nil, "write_failed", err end
  local ok, werr = f:write(text)
  local cok, cerr = f:close()
  if not ok or not cok then return nil, "write_failed", werr or cerr end
  return true
end

-- The header's numbers as integers: a run of digits longer than any the
-- format writes (hashes and sizes fit in 15) is not one, since as a float
-- it would reach string.format's %d and string positions.
local function header_int(digits)
  if #digits > 15 then return nil end
  return tonumber(digits)
end

-- Parses a whole file's text; returns the fields or nil, reason, message.
local function parse(text)
  if text:sub(1, #FORMAT + 1) ~= FORMAT .. "\n" then
    return nil, "not_a_table", "the file does not start with '" .. FORMAT .. "'"
  end
  if not text:find("end %d+\n$") then
    return nil, "truncated", "the file does not end with an end line"
  end
  local version, p = text:match("^version (%d+)\n()", #FORMAT + 2)
  if not version then return nil, "corrupt", "no version line" end
  version = header_int(version)
  if not version then return nil, "corrupt", "the version is not a number" end
  if version < VERSION then
    return nil, "old_version", string.format("the file is version %d, this module reads %d; "
      .. "build the table again", version, VERSION)
  elseif version > VERSION then
    return nil, "new_version",
      string.format("the file is version %d, newer than %d", version, VERSION)
  end
  local w, h, q = text:match("^size (%d+) (%d+)\n()", p)
  if not w then return nil, "corrupt", "no size line" end
  local class, r = text:match("^class ([^\n]+)\n()", q)
  if not class then return nil, "corrupt", "no class line" end
  local hash, s2 = text:match("^hash (%d+)\n()", r)
  if not hash then return nil, "corrupt", "no hash line" end
  local runs, size, start = text:match("^rows (%d+) (%d+)\n()", s2)
  if not runs then return nil, "corrupt", "no rows line" end
  w, h, hash, runs, size = header_int(w), header_int(h), header_int(hash), header_int(runs),
    header_int(size)
  if not (w and h and hash and runs and size) then
    return nil, "corrupt", "a header number has more than 15 digits"
  end
  if w < 1 or h < 1 or w > MAX_SIDE or h > MAX_SIDE then
    return nil, "corrupt", string.format("size %dx%d out of range", w, h)
  end
  local stop = start + size
  local sum = text:match("^end (%d+)\n$", stop)
  if #text < stop or not sum then
    return nil, "truncated", string.format("expected %d bytes of rows and an end line", size)
  end
  if tonumber(sum) ~= core.cpd_hash(text:sub(1, stop - 1)) then
    return nil, "corrupt", "the checksum does not match the contents"
  end
  return { w = w, h = h, class = class, hash = hash, runs = runs, payload_at = start, stop = stop }
end

-- Splits the payload into one row per passable cell, checking every run.
local function split_rows(text, f, pass)
  local cells = f.w * f.h
  local rows, i, total = {}, f.payload_at, 0
  for c = 1, cells do
    if pass:byte(c) == 0 then
      rows[c] = ""
    else
      if i + 4 > f.stop then return nil, "rows end before every passable navcell has one" end
      local n = read_be32(text, i)
      if n < 1 or n > cells or i + 4 + 4 * n > f.stop then
        return nil, string.format("row of navcell %d has a bad run count %d", c - 1, n)
      end
      local row = text:sub(i + 4, i + 3 + 4 * n)
      local prev = -1
      for k = 1, n do
        local a, b, d, m = row:byte(4 * k - 3, 4 * k)
        local st = a * 65536 + b * 256 + d
        if st <= prev or st >= cells or (k == 1 and st ~= 0) or m > NONE then
          return nil, string.format("row of navcell %d has a bad run %d", c - 1, k)
        end
        prev = st
      end
      rows[c] = row
      total = total + n
      i = i + 4 + 4 * n
    end
  end
  if i ~= f.stop then return nil, "rows left over after the last passable navcell" end
  if total ~= f.runs then return nil, "the run count does not match the header" end
  return rows
end

--- pathtable.load_grid(path, grid [, options]) -> table | nil, reason, message
function M.load(path, grid, options)
  local fname = "wayfinder.pathtable.load_grid"
  if type(path) ~= "string" then fail(fname, "path must be a string, got %s", describe(path)) end
  local class = read_class(fname, grid, options)
  local fh, err = io.open(path, "rb")
  if not fh then return nil, "open_failed", err end
  local text = fh:read("*a")
  fh:close()
  if not text then return nil, "open_failed", "could not read " .. path end
  local f, reason, msg = parse(text)
  if not f then return nil, reason, msg end
  if f.w ~= grid:width() or f.h ~= grid:height() then
    return nil, "wrong_grid", string.format("the table is for a %dx%d grid, this one is %dx%d",
      f.w, f.h, grid:width(), grid:height())
  end
  if f.class ~= class then
    return nil, "wrong_grid", string.format("the table is for class '%s', not '%s'", f.class, class)
  end
  local pass = passability(grid, class)
  if core.cpd_hash(pass) ~= f.hash then
    return nil, "wrong_grid", "the grid's passability differs from the one the table was built for"
  end
  local rows, why = split_rows(text, f, pass)
  if not rows then return nil, "corrupt", why end
  return make(f.w, f.h, class, pass, f.hash, rows, f.runs)
end

M.FORMAT, M.VERSION = FORMAT, VERSION
M.passability = passability

-- errors at the caller's line, named for the function or method called
M.build = util.public_function("wayfinder.pathtable.build_grid", M.build)
M.load = util.public_function("wayfinder.pathtable.load_grid", M.load)
util.public_methods(GridTable, "gridpathtable", "a table from wayfinder.pathtable.build_grid")

return M
