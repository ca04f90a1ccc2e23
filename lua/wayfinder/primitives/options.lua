--- wayfinder.primitives.options: the options of the movement primitive
-- nodes, checked once when a tree is built (wayfinder.bt calls these), and
-- the sides of an object Goto Relative can aim for.
local compat = require("wayfinder.compat")
local fixed = require("wayfinder.fixed")

local M = {}

local FACING_INDEX = fixed.FACING_INDEX

--- Sides of an object, as offsets added to its facing (clockwise, y down).
M.SIDES = { front = 0, front_right = 1, right = 2, back_right = 3, back = 4,
  back_left = 5, left = 6, front_left = 7 }
--- Special sides: anywhere near the object; the door's tile in the
-- person's room (doors only).
M.SPECIAL_SIDES = { near = true, portal = true }

M.DEFAULT_TRIES = 5
M.MAX_TRIES = 1000
M.MAX_DISTANCE = 1024

local describe = require("wayfinder.util").describe

local function side_names()
  local names = {}
  for k in pairs(M.SIDES) do names[#names + 1] = k end
  names[#names + 1] = "near"
  names[#names + 1] = "portal"
  table.sort(names)
  return table.concat(names, ", ")
end

local GOTO_KEYS = { side = true, distance = true, max_tries = true, facing = true }
local FINAL_FACINGS = { toward = true, away = true, same = true }

local function check_distance(fname, v, level, positive)
  if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
    error(("%s: distance must be a finite number, got %s"):format(fname, describe(v)), level)
  end
  if v < 0 or (positive and v == 0) or v > M.MAX_DISTANCE then
    error(("%s: distance must be in %s0, %d], got %s"):format(
      fname, positive and "(" or "[", M.MAX_DISTANCE, describe(v)), level)
  end
  return fixed.from_number(v)
end

--- Validates goto_relative options; returns the stored (fixed point) form.
function M.check_goto(fname, options, level)
  level = level + 1
  if options == nil then options = {} end
  if type(options) ~= "table" then
    error(fname .. ": options must be a table, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if not GOTO_KEYS[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  local side = options.side or "near"
  if type(side) ~= "string" or not (M.SIDES[side] or M.SPECIAL_SIDES[side]) then
    error(("%s: side must be one of %s, got %s"):format(fname, side_names(), describe(side)),
      level)
  end
  local distance = 0
  if options.distance ~= nil then
    distance = check_distance(fname, options.distance, level + 1, false)
  end
  local tries = M.DEFAULT_TRIES
  if options.max_tries ~= nil then
    local t = options.max_tries
    if compat.type(t) == "float" and t == math.floor(t) then t = compat.tointeger(t) end
    if compat.type(t) ~= "integer" or t < 1 or t > M.MAX_TRIES then
      error(("%s: max_tries must be an integer in [1, %d], got %s"):format(
        fname, M.MAX_TRIES, describe(options.max_tries)), level)
    end
    tries = t
  end
  local facing = options.facing
  if facing ~= nil and not (FINAL_FACINGS[facing] or FACING_INDEX[facing]) then
    error(("%s: facing must be 'toward', 'away', 'same' or a direction "
      .. "('east', 'southeast', ...), got %s"):format(fname, describe(facing)), level)
  end
  return { side = side, distance = distance, max_tries = tries, facing = facing }
end

local DELTA_KEYS = { distance = true }

--- Validates delta_move options.
function M.check_delta(fname, options, level)
  level = level + 1
  if type(options) ~= "table" then
    error(fname .. ": options must be a table {distance =}, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if not DELTA_KEYS[k] then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  return { distance = check_distance(fname, options.distance, level + 1, true) }
end

--- Validates reserve_portal options.
function M.check_reserve(fname, options, level)
  level = level + 1
  if options == nil then options = {} end
  if type(options) ~= "table" then
    error(fname .. ": options must be a table {ticks =}, got " .. describe(options), level)
  end
  for k in pairs(options) do
    if k ~= "ticks" then
      error(("%s: unknown options key %s"):format(fname, describe(k)), level)
    end
  end
  local t = options.ticks == nil and 60 or options.ticks
  if compat.type(t) == "float" and t == math.floor(t) then t = compat.tointeger(t) end
  if compat.type(t) ~= "integer" or t < 0 or t > 1000000 then
    error(("%s: ticks must be an integer in [0, 1000000], got %s"):format(fname,
      describe(options.ticks)), level)
  end
  return { ticks = t }
end

-- One direction at a time through the door (the world's reservations,

return M
