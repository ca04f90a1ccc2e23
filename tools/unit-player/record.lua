-- Records a scene for the unit player (tools/unit-player/): per tick what
-- moves, as a script that sets window.UNIT_RECORDING. Public API only,
-- the same output every run. Three scenes:
--
--   units      a grid with a wall and a gap, twelve units of three sizes
--              ordered through the gap; each unit's position, radius,
--              state and path, and the vertex pathfinder's edges round
--              the first unit (the outlines of the impassable navcells in
--              its box and the other units' squares grown by its radius,
--              as docs/units.md describes them)
--   crowd      units with avoidance = "orca": a packed group of ten
--              crossing a door one navcell wide, and below it two opposing
--              streams of six meeting head-on in the open
--   formation  a 3 x 3 box formation (wayfinder.formation) following a
--              long path through a gap one navcell wide and re-forming
--              beyond it: members, slots, the anchor, and whether it files
--              as a column
--
--   lua5.4 tools/unit-player/record.lua [--scene=NAME] [out.js] [ticks]
--
-- from the repository root, after `make build`. The default out is
-- build/unit-recording.js for units, build/unit-recording-NAME.js for the
-- others.

local root = (arg and arg[0] or ""):match("^(.-)[^/\\]*$") .. "../../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. root .. "spec/?.lua;"
  .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")
-- the crowd scenes' packing order near a door: one copy, in spec/support
local door_cells = require("support.door_cells")

local SCENE = "units"
local positional = {}
for _, a in ipairs(arg or {}) do
  local name = a:match("^%-%-scene=(.*)$")
  if name then SCENE = name else positional[#positional + 1] = a end
end
local OUT = positional[1]
local TICKS = tonumber(positional[2] or "")
if positional[2] and not TICKS then
  io.stderr:write("record.lua: ticks must be a number, got " .. positional[2] .. "\n")
  os.exit(2)
end

local RANGE = 8   -- the vertex pathfinder's box, half size in navcells

-- ------------------------------------------------------------- output --

local function num(v)
  local s = string.format("%.4f", v):gsub("0+$", ""):gsub("%.$", "")
  if s == "-0" then s = "0" end
  return s
end

-- A small JSON writer: tables with a [1] (or empty ones) are arrays,
-- others objects with their keys sorted, so the output is the same every run.
local function encode(v, out)
  local t = type(v)
  if t == "number" then
    out[#out + 1] = num(v)
  elseif t == "string" then
    out[#out + 1] = string.format("%q", v)
  elseif t == "boolean" then
    out[#out + 1] = tostring(v)
  elseif t == "table" then
    if v[1] ~= nil or next(v) == nil then
      out[#out + 1] = "["
      for i, x in ipairs(v) do
        if i > 1 then out[#out + 1] = "," end
        encode(x, out)
      end
      out[#out + 1] = "]"
    else
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = string.format("%q:", k)
        encode(v[k], out)
      end
      out[#out + 1] = "}"
    end
  else
    error("record.lua: cannot write a " .. t)
  end
end

local function grid_from(W, H, blocked)
  local rows = {}
  for y = 0, H - 1 do
    local row = {}
    for x = 0, W - 1 do row[x + 1] = blocked(x, y) and "#" or "." end
    rows[y + 1] = table.concat(row)
  end
  return wayfinder.grid.from_ascii(table.concat(rows, "\n"))
end

local function blocked_cells(grid, W, H)
  local cells = {}
  for j = 0, H - 1 do
    for i = 0, W - 1 do
      if not grid:is_passable(i, j) then cells[#cells + 1] = { i, j } end
    end
  end
  return cells
end

-- ----------------------------------------------------------- the units --

-- The units' part of a frame: position, radius, state, the next waypoint
-- and the path, and (when given) each unit's group and goal.
local function unit_frames(units, ids, extra)
  local out = {}
  for n, id in ipairs(ids) do
    local info = units:info(id)
    local pts = {}
    for _, p in ipairs(info.waypoints) do pts[#pts + 1] = { p[1], p[2] } end
    local u = { id = id, x = info.x, y = info.y, r = info.radius, state = info.state,
      next = info.next or 0, path = pts }
    if extra then
      u.group = extra[n].group
      u.goal = extra[n].goal
    end
    out[n] = u
  end
  return out
end

local function event_list(events)
  local out = {}
  for n, ev in ipairs(events) do
    out[n] = { id = ev.id, event = ev.event, reason = ev.reason }
  end
  return out
end

-- The vertex pathfinder's edges round unit `id`: each side of an
-- impassable navcell in the box that faces a passable one, and the four
-- sides of every other unit's square grown by the unit's radius.
local function edges_round(grid, units, ids, id, W, H)
  local info = units:info(id)
  local out = {}
  local ci, cj = math.floor(info.x), math.floor(info.y)
  local function blocked(i, j)
    return i < 0 or j < 0 or i >= W or j >= H or not grid:is_passable(i, j)
  end
  for j = math.max(0, cj - RANGE), math.min(H - 1, cj + RANGE) do
    for i = math.max(0, ci - RANGE), math.min(W - 1, ci + RANGE) do
      if blocked(i, j) then
        if not blocked(i, j - 1) then out[#out + 1] = { i, j, i + 1, j } end
        if not blocked(i, j + 1) then out[#out + 1] = { i, j + 1, i + 1, j + 1 } end
        if not blocked(i - 1, j) then out[#out + 1] = { i, j, i, j + 1 } end
        if not blocked(i + 1, j) then out[#out + 1] = { i + 1, j, i + 1, j + 1 } end
      end
    end
  end
  for _, other in ipairs(ids) do
    if other ~= id then
      local o = units:info(other)
      local h = o.radius + info.radius
      if math.abs(o.x - info.x) <= RANGE + h and math.abs(o.y - info.y) <= RANGE + h then
        local x0, y0, x1, y1 = o.x - h, o.y - h, o.x + h, o.y + h
        out[#out + 1] = { x0, y0, x1, y0 }
        out[#out + 1] = { x1, y0, x1, y1 }
        out[#out + 1] = { x1, y1, x0, y1 }
        out[#out + 1] = { x0, y1, x0, y0 }
      end
    end
  end
  return out
end

local scenes = {}

function scenes.units(ticks)
  ticks = ticks or 160
  local W, H = 40, 24
  local grid = grid_from(W, H, function(x, y)
    local wall = x == 20 and not (y >= 10 and y <= 13)
    local block = x >= 28 and x <= 30 and y >= 4 and y <= 8
    return wall or block
  end)
  local units = wayfinder.units.new(grid)
  local ids = {}
  for k = 0, 11 do
    local x, y = 3.5 + (k % 4) * 3, 4.5 + math.floor(k / 4) * 6
    local id = assert(units:add({ x = x, y = y, radius = 0.5 + (k % 3) * 0.25, speed = 0.25 }))
    ids[#ids + 1] = id
    units:move(id, 34.5 - (k % 4) * 2, 6.5 + math.floor(k / 4) * 5)
  end
  local frames = {}
  local function frame(tick, events)
    frames[#frames + 1] = { tick = tick, units = unit_frames(units, ids),
      edges = edges_round(grid, units, ids, ids[1], W, H), events = event_list(events) }
  end
  frame(0, {})
  for t = 1, ticks do frame(t, units:tick()) end
  return { scene = "units", width = W, height = H, focus = ids[1],
    title = "twelve units of three sizes through a gap (no avoidance)",
    cells = blocked_cells(grid, W, H), frames = frames }, ("%d units"):format(#ids)
end

function scenes.crowd(ticks)
  ticks = ticks or 320
  local W, H = 48, 30
  local DOOR_X, DOOR_Y, SPLIT = 24, 7, 14
  -- a wall across at y = 14 parts the door room (above) from the open
  -- field (below); the wall at x = 24 above has a door one navcell wide
  local grid = grid_from(W, H, function(x, y)
    return y == SPLIT or (x == DOOR_X and y < SPLIT and y ~= DOOR_Y)
  end)
  local units = wayfinder.units.new(grid, { avoidance = "orca", max_wait = 100000 })
  local ids, extra = {}, {}
  local function add(x, y, gx, gy, group)
    local id = assert(units:add({ x = x, y = y, radius = 0.4, speed = 0.25 }))
    ids[#ids + 1] = id
    extra[#ids] = { group = group, goal = { gx, gy } }
    return id
  end
  -- the door: ten units packed round it, each to the mirror image of its
  -- navcell beyond the wall
  for _, c in ipairs(door_cells.nearest(10, DOOR_X, DOOR_Y, 1, 1, SPLIT - 2)) do
    add(c[1] + 0.5, c[2] + 0.5, 2 * DOOR_X - c[1] + 0.5, c[2] + 0.5, 1)
  end
  -- the streams: six heading east and six west on the same rows
  for k = 0, 5 do
    local y = 18.5 + 2 * k
    add(4.5, y, 43.5, y, 2)
    add(43.5, y, 4.5, y, 3)
  end
  for n, id in ipairs(ids) do units:move(id, extra[n].goal[1], extra[n].goal[2]) end
  local frames = {}
  local arrived = 0
  local function frame(tick, events)
    frames[#frames + 1] = { tick = tick, units = unit_frames(units, ids, extra), edges = {},
      events = event_list(events) }
  end
  frame(0, {})
  for t = 1, ticks do
    local events = units:tick()
    for _, e in ipairs(events) do
      if e.event == "arrived" then arrived = arrived + 1 end
    end
    frame(t, events)
  end
  return { scene = "crowd", width = W, height = H, focus = 0,
    title = "ORCA avoidance: ten units through a door one navcell wide; two opposing streams of six",
    cells = blocked_cells(grid, W, H), frames = frames },
    ("%d units, %d arrived"):format(#ids, arrived)
end

function scenes.formation(ticks)
  ticks = ticks or 330
  local W, H = 48, 30
  -- a wall at x = 26 with a gap one navcell wide at y = 22; the path
  -- runs down to the gap and up again beyond it, over open ground where
  -- the box keeps its shape
  local GAP = 22
  local grid = grid_from(W, H, function(x, y) return x == 26 and y ~= GAP end)
  local found = assert(grid:find_path(8.5, 6.5, 43.5, 7.5, { smooth = true }))
  local path = {}
  for _, p in ipairs(found) do path[#path + 1] = { x = p[1] + 0.5, y = p[2] + 0.5 } end
  local members = {}
  for k = 0, 8 do
    members[#members + 1] = { x = 2.5 + (k % 3), y = 2.5 + math.floor(k / 3), speed = 0.25 }
  end
  local f = wayfinder.formation.new(path, members, { shape = "box", spacing = 1.5 })
  local frames = {}
  local done_at
  local function frame(tick)
    local ms = {}
    for i = 1, f:count() do
      local x, y, sx, sy, slot = f:get(i)
      ms[i] = { x = x, y = y, sx = sx, sy = sy, slot = slot }
    end
    local ax, ay = f:anchor()
    frames[#frames + 1] = { tick = tick, units = {}, edges = {}, events = {},
      formation = { anchor = { ax, ay }, squeezed = f:squeezed(), members = ms } }
  end
  frame(0)
  for t = 1, ticks do
    if f:step(grid) and not done_at then done_at = t end
    frame(t)
  end
  local pts = {}
  for _, p in ipairs(path) do pts[#pts + 1] = { p.x, p.y } end
  return { scene = "formation", width = W, height = H, focus = 0,
    title = "a 3 x 3 box formation along a path, filing through a gap one navcell wide and re-forming",
    cells = blocked_cells(grid, W, H), paths = { pts }, frames = frames },
    ("%d members, %s"):format(f:count(), done_at and ("in place at tick " .. done_at)
      or "not in place yet")
end

local make = scenes[SCENE]
if not make then
  io.stderr:write("record.lua: scene must be units, crowd or formation, got " .. SCENE .. "\n")
  os.exit(2)
end
OUT = OUT or (SCENE == "units" and "build/unit-recording.js"
  or "build/unit-recording-" .. SCENE .. ".js")
local rec, what = make(TICKS)
rec.format = "wayfinder.unit-recording"
rec.version = 2
local out = { "window.UNIT_RECORDING = " }
encode(rec, out)
out[#out + 1] = ";\n"
local f = assert(io.open(OUT, "w"))
f:write(table.concat(out))
f:close()
print(string.format("unit recording (%s): %s, %d ticks, written to %s", SCENE,
  tostring(what), #rec.frames - 1, OUT))
