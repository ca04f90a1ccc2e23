--- wayfinder.graph.check: the graph layer's limits and argument checks,
-- shared by its files. Every check raises "<function>: <what> ..." naming
-- the public function's caller (docs/graph.md).
local util = require("wayfinder.util")

local C = {}

local LIMIT = 8192            -- |coordinate| accepted
local MAX_COST = 2 ^ 30        -- largest cost or danger
local MAX_MULT = 1000
local MAX_SURFACES = 64
local FIX = 65536
local FLAG_ONE_WAY = 1
local FLAG_WALK = 2
local ALL = 0xffffffff

-- kinds the graph knows by name; any other name is a user kind
local KINDS = { walk = true, teleport = true, elevator = true, ladder = true,
  jump = true, drop = true, waypath = true }

local describe = util.describe

local function fail(fname, fmt, ...)
  error(fname .. ": " .. fmt:format(...), 3)
end

local function finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

local function check_coord(fname, what, v)
  if not finite(v) or v < -LIMIT or v > LIMIT then
    fail(fname, "%s must be a number in [%d, %d], got %s", what, -LIMIT, LIMIT, describe(v))
  end
  return v
end

local function check_cost(fname, what, v)
  if not finite(v) or v < 0 or v > MAX_COST then
    fail(fname, "%s must be a number in [0, 2^30], got %s", what, describe(v))
  end
  return v
end

local function check_table(fname, what, v)
  if type(v) ~= "table" then fail(fname, "%s must be a table, got %s", what, describe(v)) end
  return v
end

local function check_keys(fname, what, t, allowed)
  for k in pairs(t) do
    if type(k) ~= "string" then fail(fname, "%s has a non-string key %s", what, describe(k)) end
    if not allowed[k] then fail(fname, "unknown %s key '%s'", what, k) end
  end
end

local function set(list)
  local s = {}
  for _, k in ipairs(list) do s[k] = true end
  return s
end

local function check_point(fname, what, p)
  check_table(fname, what, p)
  return { check_coord(fname, what .. "[1]", p[1] or p.x),
    check_coord(fname, what .. "[2]", p[2] or p.y) }
end

local function check_name(fname, what, v)
  if type(v) ~= "string" or v == "" or #v > 64 then
    fail(fname, "%s must be a non-empty string of at most 64 bytes, got %s", what, describe(v))
  end
  return v
end

C.LIMIT, C.MAX_COST, C.MAX_MULT, C.MAX_SURFACES = LIMIT, MAX_COST, MAX_MULT, MAX_SURFACES
C.FIX, C.FLAG_ONE_WAY, C.FLAG_WALK, C.ALL, C.KINDS = FIX, FLAG_ONE_WAY, FLAG_WALK, ALL, KINDS
C.describe, C.fail, C.finite, C.set = describe, fail, finite, set
C.check_coord, C.check_cost, C.check_table = check_coord, check_cost, check_table
C.check_keys, C.check_point, C.check_name = check_keys, check_point, check_name

return C
