-- Usage: LUA spec/support/steer_trace.lua 'build/?.so' (any supported Lua)
-- Loads wayfinder's C core from the given cpath only, runs a steering
-- flock (every behaviour, walls, the collision rule), a formation
-- through a gap and units with local avoidance and the motion options
-- crossing through a door, and prints the file the core was loaded from and a hash
-- of every position of every tick (the exact Q16.16 values).
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua"
local wayfinder, where = require("support.core_from")("spec/support/steer_trace.lua", arg[1])

local Q = 65536
local h1, h2 = 0, 0
local function mix(v)
  local n = math.floor(v * Q) % 2147483647
  h1 = (h1 * 31 + n) % 2147483647
  h2 = (h2 * 37 + n) % 2147483629
end

local rows = {}
for y = 0, 19 do
  local row = {}
  for x = 0, 39 do
    local wall = x == 0 or y == 0 or x == 39 or y == 19
      or (x == 20 and y >= 3 and y <= 16 and y ~= 10)
    row[#row + 1] = wall and "@" or "."
  end
  rows[#rows + 1] = table.concat(row)
end
local grid = wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")

local g = wayfinder.steer.group({ max_speed = 0.3, max_accel = 0.05, radius = 0.2,
  neighbour_radius = 2, separation_radius = 1, seed = 2024, wander_jitter = 0.5 })
for i = 0, 39 do
  local a = g:add(2.5 + (i % 8) * 1.5, 2.5 + math.floor(i / 8) * 1.5)
  g:behave(a, { wander = 2, separation = 4, alignment = 2, cohesion = 1, arrive = 1 })
  g:target(a, 30.5, 10.5)
end
local hawk = g:add(35.5, 15.5)
g:speed(hawk, 0.25)
g:behave(hawk, { pursue = 1 })
g:chase(hawk, 1)
g:behave(1, { evade = 3, flee = 1, seek = 1 })
g:chase(1, hawk)
for _ = 1, 300 do
  g:step(grid)
  for i = 1, g:count() do
    local x, y, vx, vy = g:get(i)
    mix(x); mix(y); mix(vx); mix(vy)
  end
end

local path = {}
for i, p in ipairs(assert(grid:find_path(3.5, 10.5, 36.5, 10.5))) do
  path[i] = { x = p.x + 0.5, y = p.y + 0.5 }
end
local members = {}
for i = 0, 8 do
  members[#members + 1] = { x = 1.5 + (i % 3), y = 9.5 + math.floor(i / 3),
    speed = 0.2 + 0.01 * i }
end
local f = wayfinder.formation.new(path, members, { shape = "wedge", spacing = 1 })
for _ = 1, 400 do
  f:step(grid)
  for i = 1, f:count() do
    local x, y = f:get(i)
    mix(x); mix(y)
  end
end
-- units with local avoidance and every motion option, through a door
local rows2 = {}
for y = 0, 12 do
  local row = {}
  for x = 0, 20 do
    local wall = x == 0 or y == 0 or x == 20 or y == 12 or (x == 10 and y ~= 6)
    row[#row + 1] = wall and "#" or "."
  end
  rows2[#rows2 + 1] = table.concat(row)
end
local door = wayfinder.grid.from_ascii(table.concat(rows2, "\n") .. "\n")
for _, opts in ipairs({ { avoidance = "velocity", max_wait = 200 },
    { avoidance = "velocity", max_wait = 200, accel = 0.05, turn_rate = 0.5,
      arrive_radius = 1.5, lookahead = true } }) do
  local units = wayfinder.units.new(door, opts)
  local ids = {}
  for k = 0, 11 do
    local left = k % 2 == 0
    local x = left and 2.5 + k % 3 or 17.5 - k % 3
    ids[#ids + 1] = units:add({ x = x, y = 2.5 + math.floor(k / 2) * 1.5, radius = 0.4, speed = 0.3 })
  end
  for k, id in ipairs(ids) do
    units:move(id, k % 2 == 1 and 16.5 or 3.5, 2.5 + (k % 6) * 1.5)
  end
  for _ = 1, 250 do
    for _, e in ipairs(units:tick()) do mix(e.id); mix(#e.event) end
    for _, id in ipairs(ids) do
      local x, y = units:position(id)
      mix(x); mix(y)
    end
  end
end
print(where)
print(("%08x%08x"):format(h1, h2))
