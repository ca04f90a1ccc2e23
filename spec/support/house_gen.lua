--- Seeded house generators for specs and benchmarks (bench/house.lua
-- requires this file too). The same seed gives the same house on every
-- platform.
--
-- generate(options) builds a house: `rooms_x × rooms_y` rooms (`[1, 64]`,
-- default 4) of `room_w × room_h` tiles (`[2, 64]`, default 6) inside an
-- outdoor `margin` (default 2); doors along a random spanning tree of the
-- rooms plus `extra_doors` percent of the other walls (default 30),
-- `exterior_doors` to the outside (default 2) with `exterior_penalty`
-- (default 0), and `furniture` 1x1 pieces per room (default 2) kept off the
-- tiles at and in front of doors. `seed` picks the house; `world` holds
-- options for wayfinder.world.new. Returns the world and {furniture =
-- {...}, doors = {...}, rooms = {{x0, y0, x1, y1}, ...}}. Bad options raise
-- "support.house_gen.generate: ...".
--
--   local w, info = gen.generate { rooms_x = 2, rooms_y = 2, seed = 3 }
--   -- w.width == 16, #info.rooms == 4, w:room_count() == 5, 5
--
-- rng(seed) returns a generator rng(n) of whole numbers in [1, n] (a 64-bit
-- LCG, high bits).
local compat = require("wayfinder.compat")
local world_mod = require("wayfinder.world")
local fixed = require("wayfinder.fixed")
local describe = require("wayfinder.util").describe

local M = {}


--- A small seeded generator (spec/support/prng.lua: exact on every Lua
-- version and platform). rng(n) returns an integer in [1, n].
function M.rng(seed)
  return require("support.prng").new(compat.tointeger(seed) or 1).int
end

local GEN_KEYS = { rooms_x = true, rooms_y = true, room_w = true, room_h = true, seed = true,
  extra_doors = true, furniture = true, margin = true, exterior_doors = true,
  exterior_penalty = true, world = true }

--- Generates a house: a rooms_x by rooms_y grid of rooms of room_w by
-- room_h tiles inside an outdoor margin, doors along a random spanning tree
-- plus extra_doors percent of the other walls, exterior_doors doors to the
-- outside (with exterior_penalty), and `furniture` 1x1 pieces per room kept
-- off the tiles at doors. Returns the world and {furniture = {...}, doors =
-- {...}, rooms = {{x0, y0, x1, y1}, ...}}.
function M.generate(options)
  local fname = "support.house_gen.generate"
  options = options or {}
  if type(options) ~= "table" then
    error(fname .. ": options must be a table, got " .. describe(options), 2)
  end
  for k in pairs(options) do
    if not GEN_KEYS[k] then error(("%s: unknown options key %s"):format(fname, describe(k)), 2) end
  end
  local function int(key, dflt, lo, hi)
    local v = options[key]
    if v == nil then return dflt end
    local i = compat.tointeger(v)
    if not i or i < lo or i > hi then
      error(("%s: options.%s must be an integer in [%d, %d], got %s"):format(fname, key, lo, hi,
        describe(v)), 3)
    end
    return i
  end
  local rx, ry = int("rooms_x", 4, 1, 64), int("rooms_y", 4, 1, 64)
  local rw, rh = int("room_w", 6, 2, 64), int("room_h", 6, 2, 64)
  local margin = int("margin", 2, 0, 64)
  local extra = int("extra_doors", 30, 0, 100)
  local nfurn = int("furniture", 2, 0, 64)
  local nexit = int("exterior_doors", 2, 0, 64)
  local epen = int("exterior_penalty", 0, 0, world_mod.MAX_PENALTY)
  local rand = M.rng(int("seed", 1, 0, 2 ^ 53 - 1))
  local W, H = rx * rw + 2 * margin, ry * rh + 2 * margin
  local wopts = {}
  for k, v in pairs(options.world or {}) do wopts[k] = v end
  wopts.width, wopts.height = W, H
  local w = world_mod.new(wopts)
  local ox, oy = margin, margin
  for i = 0, rx do w:add_wall(ox + i * rw, oy, ox + i * rw, oy + ry * rh) end
  for j = 0, ry do w:add_wall(ox, oy + j * rh, ox + rx * rw, oy + j * rh) end
  local rooms = {}
  for j = 0, ry - 1 do
    for i = 0, rx - 1 do
      rooms[j * rx + i + 1] = { ox + i * rw, oy + j * rh, ox + (i + 1) * rw - 1,
        oy + (j + 1) * rh - 1 }
    end
  end
  -- adjacencies: {a, b, vertical}; a spanning tree by a seeded depth-first walk
  local seen, pairs_done = {}, {}
  local doorspecs = {}
  local function key(a, b) if a > b then a, b = b, a end return a * 100000 + b end
  local function add_door(i, j, ni, nj)
    local a, b = j * rx + i + 1, nj * rx + ni + 1
    pairs_done[key(a, b)] = true
    if ni ~= i then
      local x = ox + math.max(i, ni) * rw
      local y = oy + j * rh + rand(rh) - 1
      doorspecs[#doorspecs + 1] = { x = x - 1, y = y, w = 2, h = 1 }
    else
      local x = ox + i * rw + rand(rw) - 1
      local y = oy + math.max(j, nj) * rh
      doorspecs[#doorspecs + 1] = { x = x, y = y - 1, w = 1, h = 2 }
    end
  end
  local stack = { { 0, 0 } }
  seen[1] = true
  while #stack > 0 do
    local top = stack[#stack]
    local i, j = top[1], top[2]
    local options_n = {}
    for _, d in ipairs({ { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } }) do
      local ni, nj = i + d[1], j + d[2]
      if ni >= 0 and nj >= 0 and ni < rx and nj < ry and not seen[nj * rx + ni + 1] then
        options_n[#options_n + 1] = { ni, nj }
      end
    end
    if #options_n == 0 then
      stack[#stack] = nil
    else
      local pick = options_n[rand(#options_n)]
      seen[pick[2] * rx + pick[1] + 1] = true
      add_door(i, j, pick[1], pick[2])
      stack[#stack + 1] = pick
    end
  end
  for j = 0, ry - 1 do
    for i = 0, rx - 1 do
      for _, d in ipairs({ { 1, 0 }, { 0, 1 } }) do
        local ni, nj = i + d[1], j + d[2]
        if ni < rx and nj < ry and not pairs_done[key(j * rx + i + 1, nj * rx + ni + 1)]
            and rand(100) <= extra then
          add_door(i, j, ni, nj)
        end
      end
    end
  end
  if margin > 0 then
    for _ = 1, nexit do
      local side = rand(4)
      if side == 1 then -- north wall
        doorspecs[#doorspecs + 1] = { x = ox + rand(rx * rw) - 1, y = oy - 1, w = 1, h = 2,
          penalty = epen }
      elseif side == 2 then -- south
        doorspecs[#doorspecs + 1] = { x = ox + rand(rx * rw) - 1, y = oy + ry * rh - 1, w = 1,
          h = 2, penalty = epen }
      elseif side == 3 then -- west
        doorspecs[#doorspecs + 1] = { x = ox - 1, y = oy + rand(ry * rh) - 1, w = 2, h = 1,
          penalty = epen }
      else -- east
        doorspecs[#doorspecs + 1] = { x = ox + rx * rw - 1, y = oy + rand(ry * rh) - 1, w = 2,
          h = 1, penalty = epen }
      end
    end
  end
  local keep = {}
  local info = { furniture = {}, doors = {}, rooms = rooms }
  local used_edges = {}
  for _, s in ipairs(doorspecs) do
    local ekey = s.x .. ":" .. s.y .. ":" .. s.w
    if not used_edges[ekey] then
      used_edges[ekey] = true
      local d = w:add_object { type = "door", x = s.x, y = s.y, w = s.w, h = s.h,
        penalty = s.penalty }
      info.doors[#info.doors + 1] = d
      -- keep the door tiles and the tiles in front of them free
      local t = d.tiles
      for _, xy in ipairs({ { t[1], t[2] }, { t[3], t[4] } }) do
        for dy = -1, 1 do
          for dx = -1, 1 do keep[(xy[2] + dy) * W + xy[1] + dx] = true end
        end
      end
    end
  end
  for _, r in ipairs(rooms) do
    local placed, attempts = 0, 0
    while placed < nfurn and attempts < 50 do
      attempts = attempts + 1
      local x = r[1] + rand(r[3] - r[1] + 1) - 1
      local y = r[2] + rand(r[4] - r[2] + 1) - 1
      if not keep[y * W + x] then
        keep[y * W + x] = true
        info.furniture[#info.furniture + 1] = w:add_object {
          type = "furniture", x = x, y = y, label = "o",
          facing = fixed.FACINGS[(rand(4) - 1) * 2] }
        placed = placed + 1
      end
    end
  end
  return w, info
end

return M
