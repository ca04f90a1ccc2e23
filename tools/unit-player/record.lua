-- Records a unit simulation for the unit player (tools/unit-player/): a
-- grid with a wall and a gap, a crowd of units ordered through the gap,
-- and per tick every unit's position, radius, state and path, plus the
-- vertex pathfinder's edges round the first unit (the outlines of the
-- impassable navcells in its box and the other units' squares grown by its
-- radius, as docs/units.md describes them). Public API only. Writes a
-- script that sets window.UNIT_RECORDING.
--
--   lua5.4 tools/unit-player/record.lua [out.js] [ticks]   (from the root)

local root = (arg and arg[0] or ""):match("^(.-)[^/\\]*$") .. "../../"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;" .. package.path
package.cpath = root .. "build/?.so;" .. package.cpath

local wayfinder = require("wayfinder")

local OUT = arg and arg[1] or "build/unit-recording.js"
local TICKS = tonumber(arg and arg[2] or "") or 160
local RANGE = 8   -- the vertex pathfinder's box, half size in navcells

local W, H = 40, 24
local rows = {}
for y = 0, H - 1 do
  local row = {}
  for x = 0, W - 1 do
    local wall = x == 20 and not (y >= 10 and y <= 13)
    local block = x >= 28 and x <= 30 and y >= 4 and y <= 8
    row[x + 1] = (wall or block) and "#" or "."
  end
  rows[y + 1] = table.concat(row)
end
local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n"))
local units = wayfinder.units.new(grid)

local ids = {}
for k = 0, 11 do
  local x, y = 3.5 + (k % 4) * 3, 4.5 + math.floor(k / 4) * 6
  local id = assert(units:add({ x = x, y = y, radius = 0.5 + (k % 3) * 0.25, speed = 0.25 }))
  ids[#ids + 1] = id
  units:move(id, 34.5 - (k % 4) * 2, 6.5 + math.floor(k / 4) * 5)
end

local function fmt(v)
  return string.format("%.5f", v)
end

-- The vertex pathfinder's edges round unit `id`: each side of an
-- impassable navcell in the box that faces a passable one, and the four
-- sides of every other unit's square grown by the unit's radius.
local function edges_round(id)
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

local parts = {}
local function put(s) parts[#parts + 1] = s end

local function frame(tick, events)
  put(string.format('{"tick":%d,"units":[', tick))
  for n, id in ipairs(ids) do
    local info = units:info(id)
    local pts = {}
    for _, p in ipairs(info.waypoints) do
      pts[#pts + 1] = "[" .. fmt(p[1]) .. "," .. fmt(p[2]) .. "]"
    end
    put(string.format('%s{"id":%d,"x":%s,"y":%s,"r":%s,"state":"%s","next":%d,"path":[%s]}',
      n > 1 and "," or "", id, fmt(info.x), fmt(info.y), fmt(info.radius), info.state,
      info.next or 0, table.concat(pts, ",")))
  end
  put('],"edges":[')
  for n, e in ipairs(edges_round(ids[1])) do
    put(string.format('%s[%s,%s,%s,%s]', n > 1 and "," or "", fmt(e[1]), fmt(e[2]), fmt(e[3]),
      fmt(e[4])))
  end
  put('],"events":[')
  for n, ev in ipairs(events) do
    put(string.format('%s{"id":%d,"event":"%s"}', n > 1 and "," or "", ev.id, ev.event))
  end
  put("]}")
end

put(string.format('window.UNIT_RECORDING = {"format":"wayfinder.unit-recording","version":1,'
  .. '"width":%d,"height":%d,"focus":%d,"cells":[', W, H, ids[1]))
local cells = {}
for j = 0, H - 1 do
  for i = 0, W - 1 do
    if not grid:is_passable(i, j) then cells[#cells + 1] = "[" .. i .. "," .. j .. "]" end
  end
end
put(table.concat(cells, ","))
put('],"frames":[')
frame(0, {})
for t = 1, TICKS do
  put(",")
  frame(t, units:tick())
end
put("]};\n")

local f = assert(io.open(OUT, "w"))
f:write(table.concat(parts))
f:close()
print(string.format("unit recording: %d units, %d ticks, written to %s", #ids, TICKS, OUT))
