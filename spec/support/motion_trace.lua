--- support.motion_trace: a run of house people and of units with every
-- motion option on, hashed tick by tick, for the cross-build determinism
-- check of spec/world_motion_spec.lua. As a script it prints the hash:
--   lua5.4 spec/support/motion_trace.lua [ticks]
local prng = require("support.prng")

local M = {}

--- The hash of `ticks` ticks: four people round a table and past a wall's
-- end, and six units round the foot of a wall, all with accel, turn_rate,
-- arrive_radius, lookahead and corner_radius.
function M.trace(wayfinder, ticks)
  local h = prng.FNV_OFFSET
  local w = wayfinder.world.new { width = 12, height = 9, avoidance = "sidestep" }
  w:add_object { type = "table", x = 3, y = 2, w = 3, h = 3 }
  w:add_wall(7, 0, 7, 5)
  local goals = { { 10.5, 3.5 }, { 1.5, 7.5 }, { 10.5, 7.5 }, { 1.5, 1.5 } }
  local starts = { { 1.5, 3.5 }, { 10.5, 1.5 }, { 6.5, 7.5 }, { 8.5, 6.5 } }
  local people = {}
  for k, s in ipairs(starts) do
    people[k] = w:add_person { x = s[1], y = s[2], speed = 0.2 + 0.05 * k, accel = 0.03,
      turn_rate = 0.4, arrive_radius = 1, lookahead = true, corner_radius = 1 + k / 4 }
    people[k]:route_to(goals[k][1], goals[k][2])
  end
  local grid = wayfinder.grid.from_ascii(table.concat({
    "####################",
    "#..................#",
    "#..................#",
    "#......#...........#",
    "#......#...........#",
    "#......#.....#.....#",
    "#......#.....#.....#",
    "#..................#",
    "####################",
  }, "\n") .. "\n")
  local units = wayfinder.units.new(grid, { accel = 0.05, turn_rate = 0.5, arrive_radius = 2,
    lookahead = true, corner_radius = 1.5 })
  local ids = {}
  for k = 1, 6 do
    ids[k] = assert(units:add({ x = 0.5 + k, y = 5.5 + (k % 2), radius = 0.4, speed = 0.2 + k / 20 }))
    units:move(ids[k], 17.5 - k, 2.5 + (k % 3))
  end
  for _ = 1, ticks do
    w:tick()
    units:tick()
    for _, p in ipairs(people) do
      local x, y = p:position()
      h = prng.fnv32(h, prng.exact(x) .. prng.exact(y) .. p:facing_name())
    end
    for _, id in ipairs(ids) do
      local x, y = units:position(id)
      h = prng.fnv32(h, prng.exact(x) .. prng.exact(y))
    end
  end
  return h
end

if arg and arg[0] and arg[0]:match("motion_trace%.lua$") then
  print(("%08x"):format(M.trace(require("wayfinder"), tonumber(arg[1]) or 200)))
end

return M
