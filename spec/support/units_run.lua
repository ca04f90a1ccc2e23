--- Random unit scenarios for the unit specs: a random map, random units
-- and a schedule of random orders fixed in advance (so a run can be
-- replayed, or continued after a save, with the same orders), and the
-- invariants every tick must keep.
local wayfinder = require("wayfinder")
local brute = require("support.sweep_brute")
local prng = require("support.prng")

local M = {}

local CLASSES = { { name = "small" }, { name = "big", clearance = 1 } }

--- A w x h grid with random blocked navcells (two classes) and a border.
function M.map(seed, w, h, density)
  local rng = math.random
  math.randomseed(seed)
  local g = wayfinder.grid.new(w, h, { classes = CLASSES })
  for y = 0, h - 1 do
    for x = 0, w - 1 do
      local edge = x == 0 or y == 0 or x == w - 1 or y == h - 1
      if edge or rng() < density then g:set_passable(x, y, false) end
    end
  end
  return g
end

-- a coordinate on a 1/16 lattice inside [lo, hi)
local function coord(lo, hi) return lo + math.random(0, (hi - lo) * 16 - 1) / 16 end

--- Adds up to n random units (retrying refused spots) and returns their
-- ids; also the random order schedule: schedule[tick] = list of
-- {id, x, y, options}.
function M.populate(units, g, seed, n, ticks)
  math.randomseed(seed)
  local w, h = g:width(), g:height()
  local ids, refused = {}, {}
  local tries = 0
  while #ids < n and tries < n * 50 do
    tries = tries + 1
    local id, why = units:add({ x = coord(0, w), y = coord(0, h),
      class = math.random() < 0.7 and "small" or "big",
      radius = math.random(2, 14) / 16, speed = math.random(4, 32) / 16 })
    if id then ids[#ids + 1] = id else refused[why] = (refused[why] or 0) + 1 end
  end
  local schedule = {}
  for t = 1, ticks do
    local list = {}
    local k = math.random(0, 3)
    for _ = 1, k do
      local options
      local kind = math.random(1, 5)
      if kind == 2 then options = { goal = { shape = "circle", radius = math.random(0, 3) } }
      elseif kind == 3 then
        options = { goal = { shape = "square", half_width = math.random(0, 2),
          half_height = math.random(0, 2) } }
      elseif kind == 4 then options = { range = math.random(1, 4) / 2 }
      elseif kind == 5 then
        options = { goal = { shape = "circle", radius = math.random(4, 40) / 8 }, inverted = true }
      end
      list[#list + 1] = { ids[math.random(1, #ids)], coord(0, w), coord(0, h), options }
    end
    if math.random() < 0.02 then list[#list + 1] = { ids[math.random(1, #ids)], "stop" } end
    schedule[t] = list
  end
  return ids, schedule, refused
end

--- Issues tick t's orders.
function M.issue(units, schedule, t)
  for _, o in ipairs(schedule[t] or {}) do
    if o[2] == "stop" then units:stop(o[1]) else units:move(o[1], o[2], o[3], o[4]) end
  end
end

--- A snapshot of every unit: info tables by id, in id order.
function M.snapshot(units)
  local snap = {}
  for _, id in ipairs(units:ids()) do snap[#snap + 1] = units:info(id) end
  return snap
end

local function passable_fn(g, class)
  local w, h = g:width(), g:height()
  return function(i, j)
    return i >= 0 and j >= 0 and i < w and j < h and g:is_passable(i, j, class)
  end
end

--- The pieces a unit walked between two snapshots: a list of points from
-- its old to its new position through the waypoints it passed; nil when
-- it escaped (an escape ignores the grid by design).
function M.pieces(before, after)
  local pts = { { before.x, before.y } }
  if after.state == "escaping" or before.state == "escaping" then return nil end
  if before.state == "moving" or before.state == "waiting" then
    -- the same path (a detour is put in front of the next waypoint, so the
    -- new list holds the old one's passed waypoints at the same places)
    for k = before.next, after.next - 1 do pts[#pts + 1] = after.waypoints[k] end
  elseif before.state == "planning" and after.state ~= "planning" then
    for k = 1, after.next - 1 do pts[#pts + 1] = after.waypoints[k] end
  end
  pts[#pts + 1] = { after.x, after.y }
  return pts
end

--- Checks the invariants between two snapshots of the same units; returns
-- the number of pieces swept (for the callers' sanity checks). With
-- `walks = false`, only where the units stand (passable ground, no
-- overlap): look-ahead skips, corner curves and repeated shoves within a
-- tick do not show in the snapshots, so the pieces between them are not
-- the walk (the specs of those modes check each move themselves).
function M.check(g, before, after, walks)
  local swept = 0
  for k, a in ipairs(after) do
    local fx, fy = math.floor(a.x), math.floor(a.y)
    if not g:is_passable(fx, fy, a.class) then
      error(("unit %d on impassable navcell %d,%d"):format(a.id, fx, fy))
    end
    for m = k + 1, #after do
      local b = after[m]
      local reach = a.radius + b.radius
      if math.abs(a.x - b.x) <= reach and math.abs(a.y - b.y) <= reach then
        error(("units %d and %d overlap: (%g, %g) r %g and (%g, %g) r %g"):format(
          a.id, b.id, a.x, a.y, a.radius, b.x, b.y, b.radius))
      end
    end
  end
  if walks == false then return swept end
  local old = {}
  for _, b in ipairs(before) do old[b.id] = b end
  for _, a in ipairs(after) do
    local b = old[a.id]
    local pts = b and M.pieces(b, a)
    if pts then
      local passable = passable_fn(g, a.class)
      for p = 1, #pts - 1 do
        local p0, p1 = pts[p], pts[p + 1]
        if p0[1] ~= p1[1] or p0[2] ~= p1[2] then
          local i, j = brute.grid(passable, brute.fix(p0[1]), brute.fix(p0[2]),
            brute.fix(p1[1]), brute.fix(p1[2]))
          if i then
            error(("unit %d swept (%g, %g) -> (%g, %g) across blocked %d,%d"):format(
              a.id, p0[1], p0[2], p1[1], p1[2], i, j))
          end
          swept = swept + 1
        end
      end
    end
  end
  return swept
end

--- A line per unit per tick, for hashing traces.
function M.trace_line(t, snap)
  local parts = { tostring(t) }
  for _, s in ipairs(snap) do
    parts[#parts + 1] = ("%d:%s,%s,%s,%d"):format(s.id, prng.exact(s.x), prng.exact(s.y),
      s.state, s.wait)
  end
  return table.concat(parts, " ")
end

--- A string hash (FNV-1a, 32-bit) of a list of lines.
function M.hash(lines)
  local h = prng.FNV_OFFSET
  for _, line in ipairs(lines) do h = prng.fnv32(h, line) end
  return h
end

return M
