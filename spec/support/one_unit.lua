--- One unit walked to a goal, for the route-following specs
-- (spec/avoid_motion_spec.lua, spec/units_corner_spec.lua): grids drawn
-- in ASCII, and a run that checks every tick that the unit stands on
-- passable ground, that its move since the last tick and every leg of its
-- way on from where it stands cross none.
local wayfinder = require("wayfinder")
local assert = require("luassert")

local M = {}

local sweep = wayfinder.sweep

function M.grid_of(rows)
  return wayfinder.grid.from_ascii(table.concat(rows, "\n") .. "\n")
end

-- a wall to walk round: the way from (3.5, 5.5) to its right turns below
-- the wall's foot
M.WALLED_ROWS = {
  "####################",
  "#..................#",
  "#..................#",
  "#......#...........#",
  "#......#...........#",
  "#......#...........#",
  "#......#...........#",
  "#..................#",
  "####################",
}

-- Runs one unit of radius 0.4 and `speed` from (sx, sy) to (gx, gy) with
-- the units' options for at most `ticks` ticks (stopping when it
-- arrives). Returns per tick { x, y, x =, y =, info = units:info(id),
-- step = distance moved this tick }, and the tick it arrived (nil when it
-- did not). A "failed" event fails the spec.
function M.trace(grid, options, sx, sy, gx, gy, speed, ticks)
  local units = wayfinder.units.new(grid, options)
  local id = assert(units:add({ x = sx, y = sy, radius = 0.4, speed = speed }))
  units:move(id, gx, gy)
  local out, arrived = {}, nil
  local px, py = sx, sy
  for t = 1, ticks do
    for _, e in ipairs(units:tick()) do
      assert.is_not.equal("failed", e.event)
      if e.event == "arrived" then arrived = t end
    end
    local x, y = units:position(id)
    assert.is_false(sweep.grid(grid, x, y, x, y), ("on blocked ground at tick %d"):format(t))
    assert.is_false(sweep.grid(grid, px, py, x, y), ("crossed blocked ground at tick %d"):format(t))
    local info = units:info(id)
    local ax, ay = x, y
    for k = info.next, #info.waypoints do
      local w = info.waypoints[k]
      assert.is_false(sweep.grid(grid, ax, ay, w[1], w[2]),
        ("tick %d: the leg to waypoint %d crosses blocked ground"):format(t, k))
      ax, ay = w[1], w[2]
    end
    out[t] = { x, y, x = x, y = y, info = info,
      step = math.sqrt((x - px) ^ 2 + (y - py) ^ 2) }
    px, py = x, y
    if arrived then break end
  end
  units:close()
  return out, arrived
end

return M
